"""A tournament moves on (issue 26: "rounds start by themselves").

``advance`` is the one step, run by the beat task and whenever a tournament's game ends:
under a lock on the tournament's row it starts a tournament that is due, records the
places of the tables whose games ended, and makes the next round when the last one is
over (Swiss, knockout) or seats the arena's waiting players. Run any number of times, at
once or not, it makes each round once: the lock orders the steps, and a round's number is
unique in its tournament.

Who sits with whom is the pure core's (``games.tournaments``); this module feeds it the
results read from the games and turns its tables into league games (``seat_table``).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.play import services as play
from games.play.models import ENDED_STATUSES, Move, MoveSource, Player, Seat
from games.tournaments import entries, live
from games.tournaments.game_places import places
from games.tournaments.models import Entry, Format, Round, RoundTable, Status, Tournament
from games.tournaments.pairing import duplicate
from games.tournaments.pairing.arena import Arena, ArenaRules
from games.tournaments.pairing.knockout import Knockout, KnockoutRound
from games.tournaments.pairing.results import RoundResult, TableResult
from games.tournaments.pairing.swiss import SwissRules, next_round
from games.tournaments.signals import round_started, tournament_cancelled, tournament_finished


def advance(tournament_id: int, now=None) -> Tournament | None:
    now = now or timezone.now()
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update()
            .select_related("league")
            .filter(pk=tournament_id)
            .first()
        )
        if tournament is None:
            return None
        status = tournament.status
        if tournament.status == Status.SIGNUP and tournament.starts_at <= now:
            _start(tournament, now)
        recorded = []
        if tournament.status == Status.RUNNING:
            recorded = record_ended_tables(tournament, now)
            if tournament.format == Format.ARENA:
                _arena_step(tournament, recorded, now)
            else:
                _next_round_when_due(tournament, now)
        # Most steps (the beat's) change nothing the page shows: its version stays. (A new
        # round moves it where it is made.)
        if recorded or tournament.status != status:
            live.touch(tournament.pk)
    return tournament


def cancel(tournament: Tournament) -> Tournament:
    """Stop a tournament; the games already running play on as league games."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            return tournament
        tournament.status = Status.CANCELLED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        live.touch(tournament.pk)
        _announce_cancel(tournament.pk, too_few=False)
    return tournament


def start_now(tournament: Tournament) -> Tournament | None:
    """The organiser's "start now": the start time moves to now, and the step runs."""
    Tournament.objects.filter(
        pk=tournament.pk, status__in=(Status.SCHEDULED, Status.SIGNUP)
    ).update(status=Status.SIGNUP, starts_at=timezone.now())
    return advance(tournament.pk)


# --- Starting and finishing ----------------------------------------------------------------
def _start(tournament: Tournament, now) -> None:
    players = entries.active_players(tournament)
    if len(players) < fewest(tournament):
        tournament.status = Status.CANCELLED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        _announce_cancel(tournament.pk, too_few=True)
        return
    tournament.status = Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])


def fewest(tournament: Tournament) -> int:
    """The players a tournament needs to start (fewer, and it is cancelled when due)."""
    # A knockout needs one full table at least; the others one table of the game's least.
    if tournament.format == Format.KNOCKOUT:
        return tournament.table_size
    return tournament.min_table


def _announce_cancel(tournament_id: int, too_few: bool) -> None:
    transaction.on_commit(
        lambda: tournament_cancelled.send(
            sender=Tournament, tournament_id=tournament_id, too_few=too_few
        )
    )


def _finish(tournament: Tournament, now) -> None:
    tournament.status = Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at", "arena_state"])
    tid = tournament.pk
    transaction.on_commit(lambda: tournament_finished.send(sender=Tournament, tournament_id=tid))


# --- Results -------------------------------------------------------------------------------
def record_ended_tables(tournament: Tournament, now) -> list[RoundTable]:
    """Store the places of the tables whose games ended since the last step. Returns them."""
    tables = list(
        RoundTable.objects.filter(
            round__tournament=tournament,
            recorded_at__isnull=True,
            is_bye=False,
            game__status__in=ENDED_STATUSES,
        ).select_related("game")
    )
    for table in tables:
        game = table.game
        if game is None:  # a bye, left out above
            continue
        seats = list(game.seats.all())
        placed = places(game, seats)
        if placed is not None:
            table.ranks = [placed[p][0] for p in table.players]
            table.scores = [placed[p][1] for p in table.players]
        table.recorded_at = now
        table.save(update_fields=["ranks", "scores", "recorded_at"])
    return tables


def round_results(tournament: Tournament) -> list[RoundResult]:
    """Every round's recorded results for the pure functions: a table without places (an
    abort nobody forfeited) is a bye for its players, as a round not played."""
    out = []
    for rnd in tournament.rounds.prefetch_related("tables").order_by("number"):
        tables, byes = [], []
        for table in rnd.tables.all():
            if table.is_bye or (table.recorded_at and table.ranks is None):
                byes.extend(table.players)
            elif table.ranks is not None:
                tables.append(TableResult(tuple(table.players), tuple(table.ranks)))
        out.append(RoundResult(tuple(tables), tuple(byes)))
    return out


def swiss_rules(tournament: Tournament) -> SwissRules:
    return SwissRules(
        rounds=tournament.round_count or 1,
        table_size=tournament.table_size,
        allowed_sizes=tournament.allowed_sizes(),
        seed=tournament.seed,
        tiebreaks=tuple(tournament.tiebreaks),
    )


# --- Swiss and knockout --------------------------------------------------------------------
def _next_round_when_due(tournament: Tournament, now) -> None:
    last = tournament.rounds.order_by("-number").first()
    if last is not None:
        if last.tables.filter(is_bye=False, recorded_at__isnull=True).exists():
            return  # games still running
        if last.finished_at is None:
            last.finished_at = now
            last.save(update_fields=["finished_at"])
    pairing = _pairing(tournament, last)
    if pairing is None:
        _finish(tournament, now)
        return
    tables, byes = pairing
    _create_round(tournament, (last.number if last else 0) + 1, tables, byes, now)


def _pairing(tournament: Tournament, last: Round | None):
    """The next round's tables and byes, or None when the tournament is over."""
    players = entries.active_players(tournament)
    if tournament.format == Format.SWISS:
        done = last is not None and last.number >= (tournament.round_count or 1)
        if done or len(players) < tournament.min_table:
            return None
        pairing = next_round(players, round_results(tournament), swiss_rules(tournament))
        return [list(t) for t in pairing.tables], list(pairing.byes)
    knockout = _knockout(tournament)
    if last is None:
        rnd = knockout.round_of(players, 1)
    else:
        previous = _stored_knockout_round(last)
        if previous.final:
            return None
        tables = [t for t in last.tables.all() if not t.is_bye]
        # A forfeit shares the last place with whoever played to it; at the cut, the one
        # who played goes on, not the seed who did not show (issue 45).
        forfeits = {
            (s.game_id, s.player_id)
            for s in Seat.objects.filter(game_id__in=[t.game_id for t in tables])
            if s.forfeits
        }
        results = [
            TableResult(
                tuple(t.players),
                tuple(
                    2 * rank + ((t.game_id, p) in forfeits)
                    for p, rank in zip(t.players, t.ranks or [1] * len(t.players), strict=True)
                ),
            )
            for t in tables
        ]
        rnd = knockout.advance(previous, results)
        still_in = set(players)
        field = [p for p in (*rnd.byes, *(p for t in rnd.tables for p in t)) if p in still_in]
        if len(field) < len(rnd.byes) + sum(map(len, rnd.tables)):
            if not field:
                return None
            rnd = knockout.round_of(field, rnd.number)  # a withdrawn player goes no further
    return [list(t) for t in rnd.tables], list(rnd.byes)


def _knockout(tournament: Tournament) -> Knockout:
    seeds = tournament.entries.order_by("created_at", "id").values_list("player_id", flat=True)
    return Knockout(
        seeds=tuple(seeds),
        table_size=tournament.table_size,
        go_on=tournament.go_on,
        min_size=tournament.min_table,
    )


def _stored_knockout_round(rnd: Round) -> KnockoutRound:
    tables = rnd.tables.all()
    return KnockoutRound(
        rnd.number,
        tuple(tuple(t.players) for t in tables if not t.is_bye),
        tuple(t.players[0] for t in tables if t.is_bye),
    )


def _create_round(tournament: Tournament, number: int, tables, byes, now) -> Round:
    seed = None
    if tournament.duplicate_deals and tournament.format == Format.SWISS:
        seed = duplicate.round_seed(tournament.seed, number)
    rnd = Round.objects.create(tournament=tournament, number=number, seed=seed)
    people = Player.objects.in_bulk([p for t in tables for p in t])
    away = no_shows(tournament, list(people.values()), now)
    for i, table in enumerate(tables, 1):
        game = play.seat_table(
            tournament.game_type,
            [people[p] for p in table],
            league=tournament.league,
            seed=seed,
        )
        RoundTable.objects.create(round=rnd, number=i, game=game, players=list(table))
        # A seat nobody is there to take goes to a computer as the game starts: the table
        # does not wait out a no-show's turn clocks (issue 45). The seat forfeits, as one
        # left by a player who stayed away (``leave_running``: the league's level plays it).
        for player in table:
            if player in away:
                play.leave_running(game, people[player])
    for j, player in enumerate(byes, len(tables) + 1):
        RoundTable.objects.create(
            round=rnd, number=j, players=[player], is_bye=True, recorded_at=now
        )
    live.touch(tournament.pk)
    tid, rid = tournament.pk, rnd.pk
    transaction.on_commit(
        lambda: round_started.send(sender=Tournament, tournament_id=tid, round_id=rid)
    )
    return rnd


def no_shows(tournament: Tournament, people: list[Player], now) -> set[int]:
    """The players about to be seated who are not there (issue 45): not seen within
    ``TOURNAMENT_PRESENT_SECONDS`` (signing up, the tournament's page open) and who did not
    play their previous table of the tournament (a move of their own there, and no forfeit).
    At their first table, a player the bot can write to in private is told of the seat
    at once and has the turn clock to come (a Telegram player has no page to keep open)."""
    since = now - timedelta(seconds=settings.TOURNAMENT_PRESENT_SECONDS)
    ids = {p.pk for p in people}
    there = set(
        Entry.objects.filter(
            tournament=tournament, player_id__in=ids, seen_at__gte=since
        ).values_list("player_id", flat=True)
    )
    # Each player's previous table of the tournament: the last one they were seated at.
    last_game: dict[int, int] = {}
    for players, game_id in (
        RoundTable.objects.filter(round__tournament=tournament, is_bye=False, game__isnull=False)
        .order_by("round__number", "number")
        .values_list("players", "game_id")
    ):
        for player in players:
            if player in ids:
                last_game[player] = game_id
    seats = Seat.objects.filter(game_id__in=set(last_game.values()), player_id__in=list(last_game))
    moved = set(
        Move.objects.filter(game_id__in=set(last_game.values()), source=MoveSource.HUMAN)
        .values_list("game_id", "seat")
        .distinct()
    )
    for seat in seats:
        player = seat.player_id
        if player is None or last_game.get(player) != seat.game_id:
            continue
        if (seat.game_id, seat.number) in moved and not seat.forfeits:
            there.add(player)
    for person in people:
        if person.pk not in last_game and person.telegram_id and person.reachable:
            there.add(person.pk)
    return ids - there


# --- Arena ---------------------------------------------------------------------------------
def arena_of(tournament: Tournament) -> Arena:
    """The arena's lobby as the last step left it (a new one before the first)."""
    rules = ArenaRules(closes_at=(tournament.duration_minutes or 0) * 60.0)
    size, least = tournament.table_size, tournament.min_table
    if tournament.arena_state:
        return Arena.restore(tournament.arena_state, size, least, rules)
    return Arena(size, least, rules)


def _arena_step(tournament: Tournament, recorded: list[RoundTable], now) -> None:
    clock = (now - tournament.started_at).total_seconds()
    arena = arena_of(tournament)
    for table in recorded:
        n = len(table.players)
        # An abort nobody forfeited scores nothing: its players only go back to wait.
        ranks = table.ranks or [n] * n
        arena.finished(TableResult(tuple(table.players), tuple(ranks)), clock)
    for entry in Entry.objects.filter(tournament=tournament):
        if entry.withdrawn_at is None and not entry.paused:
            arena.join(entry.player_id, clock)
        else:
            arena.pause(entry.player_id)
    tables = arena.seat(clock)
    if tables:
        last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
        _create_round(tournament, (last or 0) + 1, tables, [], now)
    tournament.arena_state = arena.snapshot()
    closed = arena.rules.closes_at is not None and clock >= arena.rules.closes_at
    if closed and not arena.playing():  # a game started in time counts when it ends
        _finish(tournament, now)
        return
    tournament.save(update_fields=["arena_state"])
