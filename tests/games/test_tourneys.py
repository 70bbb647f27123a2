"""Tournaments in the database (issue 26, part 1): sign-up rules, rounds made once and by
themselves, results read from the games (forfeits last), standings, the end."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.play import errors as play_errors
from games.play import services
from games.play.models import AbortReason, Game, GameStatus, Seat
from games.tournaments import entries, errors, rounds, tasks
from games.tournaments.models import Entry, Format, Round, RoundTable, Status
from games.tournaments.pairing.duplicate import round_seed
from games.tournaments.standings import standings
from tests.factories import PlayerFactory
from tests.tourneys import after_commit, play_out, tournament

pytestmark = pytest.mark.django_db


def finish_round(t, rng):
    rnd = t.rounds.order_by("-number").first()
    for table in rnd.tables.filter(is_bye=False):
        play_out(table.game_id, rng)


# --- Sign-up and withdrawal ----------------------------------------------------------------
def test_issue_26_sign_up_makes_a_league_member_and_refuses_a_second_entry():
    t, (anna,) = tournament(1)
    assert t.league.members.filter(player=anna).exists()
    with pytest.raises(errors.AlreadyEntered):
        entries.sign_up(t, anna)


def test_issue_26_sign_up_follows_the_leagues_completion_minimum(monkeypatch):
    t, _ = tournament(0)
    t.league.min_completion = 80
    t.league.save()
    quitter = PlayerFactory()
    from games.play import completion

    monkeypatch.setattr(completion, "record", lambda pid: completion.Completion(1, 4))
    with pytest.raises(play_errors.CompletionTooLow):
        entries.sign_up(t, quitter)
    assert not Entry.objects.filter(player=quitter).exists()


def test_issue_26_banned_players_and_closed_tournaments_refuse_sign_up():
    t, _ = tournament(0)
    with pytest.raises(play_errors.Banned):
        entries.sign_up(t, PlayerFactory(is_banned=True))
    t.status = Status.FINISHED
    t.save()
    with pytest.raises(errors.SignUpClosed):
        entries.sign_up(t, PlayerFactory())


def test_issue_26_withdrawal_before_the_start_removes_the_entry_and_after_marks_it():
    t, (anna, bruno) = tournament(2)
    entries.withdraw(t, anna)
    assert not Entry.objects.filter(tournament=t, player=anna).exists()
    with pytest.raises(errors.NotEntered):
        entries.withdraw(t, anna)
    Tournament = type(t)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    entries.withdraw(t, bruno)
    assert Entry.objects.get(tournament=t, player=bruno).withdrawn_at is not None
    with pytest.raises(errors.SignUpClosed):  # a Swiss takes no entries once running
        entries.sign_up(t, anna)


# --- Starting, rounds, results ---------------------------------------------------------------
def test_issue_26_a_due_tournament_with_too_few_players_is_cancelled():
    t, _ = tournament(2)
    assert rounds.advance(t.pk).status == Status.CANCELLED


def test_issue_26_a_tournament_not_due_waits():
    t, _ = tournament(8, starts_at=timezone.now() + timedelta(hours=1))
    assert rounds.advance(t.pk).status == Status.SIGNUP
    assert not Round.objects.exists()


def test_issue_26_the_first_round_seats_everyone_once_and_is_made_once():
    t, people = tournament(9)  # Felix at tables of at most 4: three tables of 3
    after_commit(rounds.advance, t.pk)
    after_commit(rounds.advance, t.pk)
    after_commit(tasks.advance_all)
    assert Round.objects.filter(tournament=t).count() == 1
    tables = list(RoundTable.objects.filter(round__tournament=t))
    seated = [p for table in tables for p in table.players]
    assert sorted(seated) == sorted(p.pk for p in people)
    for table in tables:
        assert not table.is_bye and 3 <= len(table.players) <= 4
        game = table.game
        assert game.status == GameStatus.RUNNING and game.league_id == t.league_id
        seats = Seat.objects.filter(game=game).order_by("number")
        assert [s.player_id for s in seats] == table.players  # the pairing's seat order
        assert all(not s.is_computer for s in seats)


def test_issue_26_a_duplicate_round_deals_every_table_the_rounds_seed():
    t, _ = tournament(8, duplicate_deals=True)
    after_commit(rounds.advance, t.pk)
    rnd = Round.objects.get(tournament=t)
    assert rnd.seed == round_seed(t.seed, 1)
    games = Game.objects.filter(tournament_table__round=rnd)
    assert {g.seed for g in games} == {rnd.seed} and games.count() == 2
    assert len({str(g.state) for g in games}) == 1  # the same hands at the same seats


def test_issue_26_a_forfeit_is_last_and_a_moderators_abort_is_a_bye():
    """A forfeit is last at its table; the others keep the places they played to (issue
    45: a forfeit lifts nobody above the game's winner, so when the computer playing the
    forfeited seat wins, nobody at the table is first). Once flaky in CI, ``(4 == 4 and
    2 == 1)``: every table was dealt from a fresh random seed, so whether the computer at
    the forfeited seat won changed from run to run, and the check assumed it lost. The
    deal is now the tournament's (a fixed seed, duplicate deals), and the places are
    checked against the game's own result, whoever wins it."""
    t, _ = tournament(8, duplicate_deals=True, seed=4526)
    after_commit(rounds.advance, t.pk)
    first, second = RoundTable.objects.filter(round__tournament=t).order_by("number")
    # The first table: its first player stayed away until a computer took the seat.
    Seat.objects.filter(game=first.game, number=0).update(
        replaced_by_computer=True, strategy="random", timeouts=2
    )
    play_out(first.game_id, random.Random(1))
    services.abort(second.game, AbortReason.MODERATOR, "test", by=services.SYSTEM)
    rounds.advance(t.pk)
    first.refresh_from_db()
    second.refresh_from_db()
    played = Game.objects.get(pk=first.game_id).outcome.ranks
    assert first.ranks[0] == 4  # the forfeit: last, whatever the computer did
    assert first.ranks[1:] == list(played[1:])  # the others: as they played
    assert second.recorded_at and second.ranks is None
    results = rounds.round_results(t)
    assert set(results[0].byes) == set(second.players)


def test_issue_26_the_next_round_waits_for_the_last_game_of_the_round():
    t, _ = tournament(8)
    after_commit(rounds.advance, t.pk)
    first = RoundTable.objects.filter(round__tournament=t).order_by("number").first()
    play_out(first.game_id, random.Random(2))
    after_commit(rounds.advance, t.pk)
    assert Round.objects.filter(tournament=t).count() == 1


def test_issue_26_a_withdrawn_player_is_not_seated_in_the_next_round():
    t, people = tournament(9)
    after_commit(rounds.advance, t.pk)
    entries.withdraw(t, people[0])
    rng = random.Random(3)
    finish_round(t, rng)
    after_commit(rounds.advance, t.pk)
    second = Round.objects.get(tournament=t, number=2)
    seated = [p for table in second.tables.all() for p in table.players]
    assert people[0].pk not in seated and len(seated) == 8


def test_issue_26_a_whole_swiss_of_eight_at_felix_tables_of_four_end_to_end():
    """Eight players, two rounds: the rounds start by themselves as the games end (the
    game_ended receiver), the second round avoids the first's pairs where it can, the
    games are rated as league games, and the tournament finishes with its standings."""
    t, people = tournament(8)
    rng = random.Random(26)
    after_commit(tasks.advance_all)
    finish_round(t, rng)  # the last game's end starts round 2 by itself
    t.refresh_from_db()
    assert t.rounds.count() == 2
    first, second = (
        [set(table.players) for table in r.tables.all()] for r in t.rounds.order_by("number")
    )
    for table in second:  # 8 players, tables of 4: two from each first-round table
        assert all(len(table & old) == 2 for old in first)
    finish_round(t, rng)
    t.refresh_from_db()
    assert t.status == Status.FINISHED and t.finished_at
    rows = standings(t)
    assert [r.rank for r in rows] == list(range(1, 9))
    assert {r.player_id for r in rows} == {p.pk for p in people}
    assert sum(r.points for r in rows) == 2 * 2 * (60 + 40 + 20 + 0)
    assert [name for name, _ in rows[0].tiebreaks] == ["buchholz", "wins"]
    points = [r.points for r in rows]
    assert points == sorted(points, reverse=True)
    from games.ratings.models import RatedGame

    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert RatedGame.objects.filter(game__in=games, skipped="").count() == 4


def test_issue_26_a_knockout_sends_the_top_of_each_table_on_to_a_final():
    t, people = tournament(8, format=Format.KNOCKOUT, round_count=None, go_on=2)
    rng = random.Random(4)
    after_commit(rounds.advance, t.pk)
    finish_round(t, rng)
    t.refresh_from_db()
    final = t.rounds.get(number=2)
    (table,) = final.tables.all()
    first_round = t.rounds.get(number=1).tables.all()
    seed = {p.pk: i for i, p in enumerate(people)}  # entry order; it settles a tie at the cut
    winners = set()
    for old in first_round:
        ranked = sorted(old.players, key=lambda p: (old.ranks[old.players.index(p)], seed[p]))
        winners |= set(ranked[:2])
    assert set(table.players) == winners
    finish_round(t, rng)
    t.refresh_from_db()
    assert t.status == Status.FINISHED


def test_issue_26_an_arena_seats_waiting_players_and_stops_at_its_close():
    t, people = tournament(
        8, format=Format.ARENA, round_count=None, duration_minutes=30, table_size=4
    )
    start = timezone.now()
    after_commit(rounds.advance, t.pk, start)
    assert RoundTable.objects.filter(round__tournament=t).count() == 2
    entries.set_paused(t, people[-1], True)
    rng = random.Random(5)
    finish_round(t, rng)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    scores = {r.player_id: r.points for r in standings(t)}
    assert sum(scores.values()) > 0
    assert people[-1].pk not in {
        p for t_ in RoundTable.objects.filter(round__number__gt=1) for p in t_.players
    }
    # The window closes: the games running end, and nobody is seated again.
    type(t).objects.filter(pk=t.pk).update(started_at=start - timedelta(minutes=31))
    rounds_before = t.rounds.count()
    for table in RoundTable.objects.filter(round__tournament=t, recorded_at__isnull=True):
        play_out(table.game_id, rng)
    after_commit(rounds.advance, t.pk)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    assert t.rounds.count() == rounds_before


def test_issue_26_an_arena_kept_as_json_between_steps_is_the_same_arena():
    import json

    from games.tournaments.pairing.arena import Arena, ArenaRules
    from games.tournaments.pairing.results import TableResult

    def lobby():
        arena = Arena(4, 3, ArenaRules(wait_seconds=30))
        for i in range(7):
            arena.join(i, float(i))
        (table,) = arena.seat(10.0)
        arena.finished(TableResult(tuple(table), (1, 2, 3, 4)), 20.0)
        arena.pause(5)
        return arena

    kept = lobby()
    again = Arena.restore(json.loads(json.dumps(kept.snapshot())), 4, 3, kept.rules)
    assert again.waiting() == kept.waiting() and again.scores() == kept.scores()
    assert again.seat(60.0) == kept.seat(60.0)
    assert again.snapshot() == kept.snapshot()


# --- Duplicate deals: the same hands at the same seats ---------------------------------------
@pytest.mark.parametrize("game_type", ["felix", "smoking_cat", "bon_appetit", "cats_and_dogs"])
def test_issue_26_every_table_of_a_duplicate_round_gives_each_seat_the_same_hand(game_type):
    from games import catalog
    from games.play.table import Table

    size = catalog.get(game_type).table_players
    t, _ = tournament(3 * size, game_type=game_type, table_size=size, duplicate_deals=True)
    after_commit(rounds.advance, t.pk)
    games = list(Game.objects.filter(tournament_table__round__tournament=t).order_by("pk"))
    assert len(games) == 3
    for seat in range(size):
        # What the seat's player sees at the start: their hand (and any secret) included.
        views = [Table(g).view(seat) for g in games]
        assert all(v == views[0] for v in views), (game_type, seat)
    # Seats differ from each other (a deal, not the same hand everywhere) where hands are
    # private, and the next round is another deal.
    tables = Table(games[0])
    if catalog.get(game_type).private_hands:
        assert tables.view(0) != tables.view(1)
    first_state = games[0].state
    finish_round(t, random.Random(5))
    after_commit(rounds.advance, t.pk)
    second = list(
        Game.objects.filter(tournament_table__round__number=2).filter(
            tournament_table__round__tournament=t
        )
    )
    assert second and {g.seed for g in second} == {round_seed(t.seed, 2)}
    assert second[0].state != first_state


# --- A withdrawn player's running game follows the league's rule for leaving ------------------
def test_issue_26_a_withdrawn_players_running_game_goes_on_with_a_computer_and_a_forfeit():
    t, people = tournament(8)
    t.league.computer_level = "hard"
    t.league.save()
    after_commit(rounds.advance, t.pk)
    anna = people[0]
    table = RoundTable.objects.get(round__tournament=t, players__contains=[anna.pk])
    after_commit(entries.withdraw, t, anna)
    seat = Seat.objects.get(game=table.game, player=anna)
    assert seat.replaced_by_computer and seat.forfeited and seat.forfeits
    assert seat.strategy == "hard"  # the league's level, as for a player timed out
    game = Game.objects.get(pk=table.game_id)
    assert game.status == GameStatus.RUNNING  # the others play on
    # Withdrawing again changes nothing; her seat is the computer's to play.
    with pytest.raises(errors.NotEntered):
        entries.withdraw(t, anna)
    play_out(table.game_id, random.Random(2))
    assert Game.objects.get(pk=table.game_id).status == GameStatus.FINISHED
    rounds.advance(t.pk)
    table.refresh_from_db()
    mine = table.players.index(anna.pk)
    assert table.ranks[mine] == len(table.players)  # placed last
    # The others as they played (issue 45: nobody moves up past a forfeit, so when the
    # computer at her seat won, nobody at the table is first).
    played = Game.objects.get(pk=table.game_id).outcome.ranks
    assert [r for i, r in enumerate(table.ranks) if i != mine] == [
        r for i, r in enumerate(played) if i != mine
    ]
    other = RoundTable.objects.exclude(pk=table.pk).get(round__tournament=t)
    assert not Seat.objects.filter(game=other.game, replaced_by_computer=True).exists()
    assert Entry.objects.get(tournament=t, player=anna).withdrawn_at is not None


def test_issue_26_a_finished_game_is_left_as_it_was_by_a_withdrawal():
    t, people = tournament(8)
    after_commit(rounds.advance, t.pk)
    anna = people[0]
    table = RoundTable.objects.get(round__tournament=t, players__contains=[anna.pk])
    play_out(table.game_id, random.Random(4))
    before = list(Seat.objects.filter(game=table.game).values())
    after_commit(entries.withdraw, t, anna)
    assert list(Seat.objects.filter(game=table.game).values()) == before
