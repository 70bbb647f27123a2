"""Issue 45, tournaments as a person meets them on the embedded default: a tournament due
in a few minutes starts by the schedule; a round's places, the standings, the game's page
and the ratings count one set of places (the game's, a forfeit last); computers in more
than half the seats leave a game unrated, tournaments included; a no-show's seat goes to a
computer when the round starts."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.play.models import Game, GameStatus, Move, MoveSource, Player, Seat
from games.ratings.models import RatedGame, RatingChange
from games.ratings.service import rate_game
from games.tournaments import rounds
from games.tournaments.models import Entry, RoundTable, Status, Tournament
from games.tournaments.standings import standings
from server import background
from tests.tourneys import after_commit, play_out, tournament

pytestmark = pytest.mark.django_db

LONG_AGO = timedelta(hours=1)


def finish(game: Game, ranks: list[int]) -> Game:
    """End a running game with these ranks (seat order), as the engine would have."""
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        result={"scores": [10 - r for r in ranks], "ranks": ranks, "termination": "normal"},
        finished_at=timezone.now(),
    )
    return Game.objects.get(pk=game.pk)


def stayed_away(game: Game, number: int) -> None:
    """The seat's player stayed away until the timer handed the seat to a computer."""
    Seat.objects.filter(game=game, number=number).update(
        replaced_by_computer=True, strategy="random", timeouts=2
    )


def away(t: Tournament, *people) -> None:
    """Browser players who signed up long ago and closed the page since (a Telegram
    player the bot can write to is told of the seat and has the turn clock)."""
    ids = [p.pk for p in people]
    Player.objects.filter(pk__in=ids).update(telegram_id=None, reachable=False)
    Entry.objects.filter(tournament=t, player_id__in=ids).update(seen_at=timezone.now() - LONG_AGO)


def the_table(t: Tournament) -> RoundTable:
    return RoundTable.objects.get(round__tournament=t, round__number=1, is_bye=False)


# --- 1. The schedule starts a tournament at its time ------------------------------------------
def test_issue_45_a_tournament_due_in_minutes_starts_by_the_embedded_schedule():
    """Made with sign-up open and a start a few minutes ahead, it starts by itself through
    the embedded default's schedule (no "start now"), at the schedule's own period."""
    clock = [0.0]
    beat = background.Beat(clock=lambda: clock[0])
    t, _people = tournament(8, starts_at=timezone.now() + timedelta(minutes=6))
    period = background._period(background.settings.CELERY_BEAT_SCHEDULE["tournaments"])
    clock[0] += period
    beat.tick()
    assert Tournament.objects.get(pk=t.pk).status == Status.SIGNUP  # not due yet
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())  # six minutes on
    clock[0] += period
    assert "tournaments" in beat.tick()
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.rounds.count() == 1


# --- 2. One set of places ---------------------------------------------------------------------
def test_issue_45_a_forfeit_never_lifts_a_loser_above_the_games_winner():
    """The user's table of two: Bruno never came, the computer playing his seat won, I
    came second. The round listed me first; it now lists me second, as the game does,
    and Bruno last for his forfeit (shared: a table of two has no place below second)."""
    t, (me, bruno) = tournament(2, game_type="bon_appetit", table_size=2)
    after_commit(rounds.advance, t.pk)
    table = the_table(t)
    mine, his = table.players.index(me.pk), table.players.index(bruno.pk)
    stayed_away(table.game, his)
    ranks = [0, 0]
    ranks[his], ranks[mine] = 1, 2
    finish(table.game, ranks)
    rounds.advance(t.pk)
    table.refresh_from_db()
    assert table.ranks[mine] == 2, "my place is the game's"
    assert table.ranks[his] == 2, "the forfeit is last"
    # The standings follow: nobody scored a win at this table.
    rows = {row.player_id: row for row in standings(t)}
    assert rows[me.pk].points == rows[bruno.pk].points


def test_issue_45_the_ratings_count_the_games_places_as_the_round_does():
    """A table of three: Anna won, I came second, Bruno stayed away. The ratings use the
    places the round shows (the game's, the forfeit last): Anna gains more than I do."""
    t, (anna, me, bruno) = tournament(3, table_size=3)
    after_commit(rounds.advance, t.pk)
    table = the_table(t)
    seat = {p: table.players.index(p.pk) for p in (anna, me, bruno)}
    stayed_away(table.game, seat[bruno])
    ranks = [0, 0, 0]
    ranks[seat[bruno]], ranks[seat[anna]], ranks[seat[me]] = 1, 2, 3
    game = finish(table.game, ranks)
    rounds.advance(t.pk)
    table.refresh_from_db()
    decision = rate_game(game.pk)
    assert decision.rated
    changes = {
        c.rating.player_id: c
        for c in RatingChange.objects.filter(game=game, rating__league=None).select_related(
            "rating"
        )
    }
    for person in (anna, me, bruno):
        assert changes[person.pk].rank == table.ranks[seat[person]], person
    assert [table.ranks[seat[p]] for p in (anna, me, bruno)] == [2, 3, 3]
    gain = {p: changes[p].ordinal_after - changes[p].ordinal_before for p in changes}
    assert gain[anna.pk] > gain[me.pk] >= gain[bruno.pk]


def test_issue_45_the_round_and_the_games_page_say_the_forfeit_rule(client):
    t, (_me, bruno) = tournament(2, game_type="bon_appetit", table_size=2)
    after_commit(rounds.advance, t.pk)
    table = the_table(t)
    his = table.players.index(bruno.pk)
    stayed_away(table.game, his)
    finish(table.game, [1, 2] if his == 0 else [2, 1])
    rounds.advance(t.pk)
    page = client.get(reverse("web:game", args=[table.game_id])).content.decode()
    assert "forfeited (did not show, or left)" in page
    assert "counts as the last place, 2 of 2" in page
    page = client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    assert "forfeit: placed last" in page
    assert "The others keep the places they played to." in page


# --- 3. Computers in more than half the seats --------------------------------------------------
def test_issue_45_a_tournament_game_computers_played_in_two_seats_of_three_is_not_rated():
    t, (_anna, bruno, carla) = tournament(3, table_size=3)
    after_commit(rounds.advance, t.pk)
    table = the_table(t)
    stayed_away(table.game, table.players.index(bruno.pk))
    stayed_away(table.game, table.players.index(carla.pk))
    game = finish(table.game, [1, 2, 3])
    decision = rate_game(game.pk)
    assert not decision.rated and decision.skipped == RatedGame.Skip.COMPUTERS
    assert not RatingChange.objects.filter(game=game).exists()


# --- 4. No-shows are replaced when the round starts --------------------------------------------
def test_issue_45_a_no_show_is_replaced_when_the_round_starts():
    """Nobody waits out two turn clocks for a seat nobody took: a player not seen lately
    (the page closed since signing up long ago) is a computer's from the first move."""
    t, (anna, bruno, carla) = tournament(3, table_size=3)
    away(t, bruno)
    after_commit(rounds.advance, t.pk)
    table = the_table(t)
    seats = {s.player_id: s for s in Seat.objects.filter(game=table.game)}
    assert seats[bruno.pk].replaced_by_computer and seats[bruno.pk].forfeits
    assert seats[bruno.pk].timeouts == 0, "no clock ran out for him"
    assert not seats[anna.pk].is_computer and not seats[carla.pk].is_computer


def test_issue_45_a_player_who_played_the_last_round_keeps_the_seat_of_the_next():
    """Round two starts long after the sign-up: who played round one is there; who never
    moved in round one (a seat the timer took) is not."""
    t, _people = tournament(6, table_size=3)
    after_commit(rounds.advance, t.pk)
    Entry.objects.filter(tournament=t).update(seen_at=timezone.now() - LONG_AGO)
    first = list(RoundTable.objects.filter(round__tournament=t, round__number=1))
    away = first[0].players[0]
    stayed_away(first[0].game, 0)
    for table in first:
        play_out(table.game_id, random.Random(45))
    after_commit(rounds.advance, t.pk)
    second = Seat.objects.filter(game__tournament_table__round__number=2)
    assert second.count() == 6
    for seat in second:
        assert seat.is_computer == (seat.player_id == away), seat.player_id


def test_issue_45_a_telegram_player_told_in_private_has_the_clock_at_the_first_table():
    t, (anna, bruno, carla) = tournament(3, table_size=3)
    away(t, anna, carla)
    Entry.objects.filter(tournament=t, player=bruno).update(seen_at=timezone.now() - LONG_AGO)
    after_commit(rounds.advance, t.pk)
    seats = {s.player_id: s for s in Seat.objects.filter(game=the_table(t).game)}
    assert not seats[bruno.pk].is_computer
    assert seats[anna.pk].is_computer and seats[carla.pk].is_computer


# --- 5. A whole tournament with no-shows ---------------------------------------------------------
def test_issue_45_every_game_of_a_tournament_with_no_shows_agrees_with_its_round():
    """Nine sign up, three never come back; three rounds are played out. Every finished
    game's places are its round's (the game's own, a forfeit last), the ratings use the
    same places, and no game computers played in most seats is rated."""
    from games.ratings.places import seat_places  # the one rule (issue 45)

    t, people = tournament(9, table_size=3, round_count=3, duplicate_deals=True, seed=45)
    gone = {p.pk for p in people[::3]}
    away(t, *people[::3])
    rng = random.Random(45)
    after_commit(rounds.advance, t.pk)
    for _round in range(3):
        for table in RoundTable.objects.filter(
            round__tournament=t, is_bye=False, recorded_at__isnull=True
        ):
            play_out(table.game_id, rng)
        after_commit(rounds.advance, t.pk)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    tables = list(RoundTable.objects.filter(round__tournament=t, is_bye=False))
    assert len(tables) == 9
    majority = 0
    for table in tables:
        game = Game.objects.get(pk=table.game_id)
        seats = list(Seat.objects.filter(game=game))
        assert game.status == GameStatus.FINISHED
        played = game.outcome.ranks
        n = len(seats)
        by_player = {s.player_id: s for s in seats}
        for player, place in zip(table.players, table.ranks, strict=True):
            seat = by_player[player]
            assert seat.forfeits == (player in gone)
            assert place == (n if seat.forfeits else played[seat.number])
            assert (
                not Move.objects.filter(
                    game=game, seat=seat.number, source=MoveSource.TIMEOUT
                ).exists()
                or player not in gone
            ), "a no-show's seat waited for no clock"
        assert seat_places(game, seats) == {
            by_player[p].number: r for p, r in zip(table.players, table.ranks, strict=True)
        }
        decision = RatedGame.objects.get(game=game)
        computers = sum(s.is_computer for s in seats)
        if computers * 2 > n:
            majority += 1
            assert not decision.rated, game.pk
        else:
            assert decision.rated, game.pk
            for change in RatingChange.objects.filter(game=game, rating__league=None):
                seat = by_player[change.rating.player_id]
                assert change.rank == table.ranks[table.players.index(seat.player_id)]
    assert majority, "the seed seats two no-shows together at least once"


def test_issue_45_at_a_knockouts_cut_who_played_goes_on_before_a_forfeit_sharing_the_place():
    """A table of two whose no-show's computer won: both share second place; the one who
    played goes on, whatever the seeds say."""
    t, people = tournament(
        4, game_type="bon_appetit", table_size=2, format="knockout", round_count=None, go_on=1
    )
    after_commit(rounds.advance, t.pk)
    tables = list(RoundTable.objects.filter(round__tournament=t, round__number=1))
    first_seed = people[0].pk  # first in entry order: the seed a tie would favour
    mine = next(x for x in tables if first_seed in x.players)
    other = next(p for p in mine.players if p != first_seed)
    stayed_away(mine.game, mine.players.index(first_seed))
    ranks = [0, 0]
    ranks[mine.players.index(first_seed)], ranks[mine.players.index(other)] = 1, 2
    finish(mine.game, ranks)
    for table in tables:
        if table.pk != mine.pk:
            finish(table.game, [1, 2])
    after_commit(rounds.advance, t.pk)
    (final,) = RoundTable.objects.filter(round__tournament=t, round__number=2)
    assert other in final.players and first_seed not in final.players
