"""The game processor: one game at a time, under a lock, from the move log.

``process(game_id)`` takes the game's row lock (``FOR NO KEY UPDATE`` on PostgreSQL; on
SQLite every transaction begins IMMEDIATE, which serialises writers), applies the pending
moves in the order they were recorded, lets computer seats act until a human must, acts for
humans whose deadline passed, and stores the new state, version and deadline. Everything
that talks to the outside world (front-end updates, timers, ratings) runs after commit.

Deadlines are acted on by the periodic sweep, which passes the version it saw: if the game
has moved on by the time the processor holds the lock, it does nothing (lichess's round
module re-checks the same way). A table with automatic moves (``Game.auto_play``) gets a
short deadline when a human's only legal action is forced, and the same path plays it.

No per-move timer task is queued: with Redis, ETA tasks sit
unacknowledged in workers and come back after the visibility timeout, and one indexed query
every couple of seconds finds every overdue game anyway.

Computers never hold the database (issue 25). One ``process`` call plays them within a
budget (``COMPUTER_STEP_SECONDS`` and ``COMPUTER_STEP_MOVES``) and says when some are left
(``StepReport.more``: the task queues the rest, so other games' work comes in between).
Cheap computers act under the lock; a computer that searches (the hard level, or one that
needs its seat's history) never does: the step stops before it, its decision is made from
an unlocked read of the game (state and version), and the next locked step applies it only
if the game is still at that version, or decides again (as lichess's timers re-check). A
casual table whose last person times out too often is cancelled rather than played to its
end by computers; in a league the seat is handed to a computer, as it always was.
"""

from __future__ import annotations

import functools
import json
import logging
import random
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Aggregate, BooleanField, Exists, JSONField, OuterRef, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import JSONObject
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games import catalog
from games.computers import act, needs_history
from games.engines import IllegalAction, observations
from games.play import finish, presence
from games.play.levels import handover_strategy, level_of
from games.play.models import (
    AbortReason,
    Game,
    GameStatus,
    Move,
    MoveSource,
    MoveStatus,
    Seat,
)
from games.play.recording import legal_by_seat
from games.play.signals import game_updated
from games.play.writes import Writes
from server import metrics

log = logging.getLogger(__name__)

# A game in which computers keep acting without end is an engine bug; stop and log it.
MAX_COMPUTER_ACTIONS = 5_000
# The level whose players search: up to half a second a decision, never under the lock.
SEARCHING_LEVEL = "hard"


@dataclass
class StepReport:
    """What one processing step did (for callers and tests)."""

    game_id: int
    version: int = 0
    applied: int = 0
    rejected: int = 0
    events: list[dict] = field(default_factory=list)
    finished: bool = False
    deadline_changed: bool = False
    # Computers are left to act: the budget ran out (the caller queues the rest).
    more: bool = False
    # The step stopped before a searching computer's turn, at this version: its decision
    # is made outside the lock.
    search_at: int | None = None
    # That decision is still to make (``process(search=False)``): the caller queues it.
    needs_decision: bool = False

    def add(self, later: StepReport) -> StepReport:
        """This report followed by a later step's of the same call."""
        self.version = later.version
        self.applied += later.applied
        self.rejected += later.rejected
        self.events += later.events
        self.finished = self.finished or later.finished
        self.deadline_changed = self.deadline_changed or later.deadline_changed
        self.more, self.search_at = later.more, later.search_at
        self.needs_decision = later.needs_decision
        return self


class Budget:
    """What one ``process`` call may spend on computers: a time and a count. It always
    allows one move, so that every call makes progress however small the budget."""

    def __init__(self):
        self.until = time.monotonic() + settings.COMPUTER_STEP_SECONDS
        self.left = settings.COMPUTER_STEP_MOVES
        self.used = 0

    def spend(self) -> None:
        self.used += 1
        self.left -= 1

    def spent(self) -> bool:
        return self.used > 0 and (self.left <= 0 or time.monotonic() >= self.until)


class NeedsDecision(Exception):
    """A timeout's stand-in searches and its move was not decided yet: the step is rolled
    back (it wrote nothing) and the move is decided outside the lock first."""


# Locked steps of one call, each after a decision made outside the lock; a game that keeps
# changing under the decisions is left to the queued rest.
MAX_DECISIONS_PER_CALL = 5


def process(
    game_id: int,
    *,
    timeout_version: int | None = None,
    plan: dict[tuple[int, int], str] | None = None,
    search: bool = True,
) -> StepReport | None:
    """Apply what is pending for a game, then let computers act within the budget.
    ``timeout_version``: a turn timer set at that version has fired; it acts only if the
    game is still at that version and overdue. ``plan``: searching decisions already made
    (``decide``), by (version, seat). ``search=False``: a searching decision still to make
    is not made here; the report says so (``needs_decision``) and the caller queues it on
    the computers' own queue, so that no person's move waits behind a search."""
    budget = Budget()
    plan = dict(plan or {})
    report: StepReport | None = None
    for _attempt in range(MAX_DECISIONS_PER_CALL + 1):
        try:
            step = _locked_step(game_id, timeout_version, plan, budget)
        except NeedsDecision:
            step = None
        else:
            if step is None:  # the game is gone (deleted while a computer searched)
                return report
            if step.search_at is None:
                return step if report is None else report.add(step)
            report = step if report is None else report.add(step)
            if budget.spent():
                report.more = True
                return report
        if not search:
            report = report or StepReport(game_id)
            report.needs_decision = True
            return report
        plan = decide(game_id, timeout_version) or {}  # none: gone or over, as the next step says
    report = report or StepReport(game_id)
    report.more = True
    return report


def _locked_step(
    game_id: int, timeout_version: int | None, plan: dict, budget: Budget
) -> StepReport | None:
    """One step under the game's lock, in its own transaction: pending moves, a timer,
    the computers that do not search (and the decisions in ``plan``), within ``budget``."""
    with transaction.atomic():
        locked = lock_game(game_id)
        if locked is None:
            return None
        game, pending = locked.game, locked.pending
        if game.status != GameStatus.RUNNING:
            _reject_all(pending, _("The game is over."))
            return StepReport(game_id, version=game.version, rejected=len(pending))
        step = Step(game, locked.seats, plan=plan, budget=budget)
        step.apply_pending(pending, locked.acted)
        if timeout_version is not None and step.overdue(timeout_version):
            step.time_out()
            if step.abandoned:
                finish.abort(game, AbortReason.ABANDONED)
                step.report.finished = True
                return step.report
        # Registered before saving so that the front-ends hear of the move before anyone
        # hears of the game's end (``finish`` registers its own announcement while saving).
        transaction.on_commit(lambda: after_commit(game, step.report))
        step.run_computers()
        step.save(pending)
    metrics.moves_processed(step.report, pending)
    return step.report


def decide(game_id: int, timeout_version: int | None) -> dict | None:
    """The moves of the next searching decision, made outside any transaction or lock from
    the game as it stands: a read of its state and version (the moves before it are
    decided again on the way, cheaply and alike: each is seeded by version and seat).
    Returns them by (version, seat); the locked step uses only those at its versions."""
    game = Game.objects.select_related("league").filter(pk=game_id).first()
    if game is None or game.status != GameStatus.RUNNING:
        return None
    seats = list(Seat.objects.filter(game_id=game_id))
    step = Step(game, seats, locked=False)
    if timeout_version is not None and step.overdue(timeout_version):
        step.time_out()
    if not step.abandoned:
        step.run_computers()
    return step.decided


class JSONRows(Aggregate):
    """The aggregated rows as one JSON array (of ``JSONObject``)."""

    function = "JSONB_AGG"
    output_field = JSONField()

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection, function="JSON_GROUP_ARRAY", **extra)


SEAT_FIELDS = ("id", "number", "player_id", "strategy", "replaced_by_computer", "timeouts")
# created_at: for the submit → applied latency the metrics observe.
MOVE_FIELDS = ("id", "key", "seat", "action", "source", "seen_version", "note", "created_at")
ACTED_FIELDS = ("seat", "seen_version")


def _rows(model, fields: tuple[str, ...], *conditions, **where) -> Subquery:
    rows = model.objects.filter(*conditions, game_id=OuterRef("pk"), **where)
    rows = rows.order_by().values("game_id")
    rows = rows.annotate(rows=JSONRows(JSONObject(**{f: f for f in fields})))
    return Subquery(rows.values("rows"))


# On PostgreSQL, the version of the game's row that the statement's snapshot saw, beside
# the one it locked (xmin names the transaction that wrote a row version).
SNAPSHOT_ROW = RawSQL(
    '(SELECT g.xmin::text FROM games_game g WHERE g.id = "games_game"."id")'
    ' = "games_game"."xmin"::text',
    (),
    output_field=BooleanField(),
)


# A game id that no game has: its place among the compiled statement's parameters is where
# the game's id goes.
NO_GAME = -1


@functools.cache
def _lock_statement(vendor: str) -> tuple[str, tuple, int]:
    """The SQL of ``lock_game``, compiled once per database vendor: compiling its subqueries
    takes the ORM several times longer than the database takes to run them."""
    repeated = Move.objects.filter(
        game_id=OuterRef("game_id"),
        status=MoveStatus.PENDING,
        seat=OuterRef("seat"),
        seen_version=OuterRef("seen_version"),
    )
    query = Game.objects.select_for_update(no_key=True).filter(pk=NO_GAME).order_by()
    query = query.annotate(
        seat_rows=_rows(Seat, SEAT_FIELDS),
        pending_rows=_rows(Move, MOVE_FIELDS, status=MoveStatus.PENDING),
        acted_rows=_rows(
            Move, ACTED_FIELDS, Exists(repeated), status=MoveStatus.APPLIED, source=MoveSource.HUMAN
        ),
    )
    if vendor == "postgresql":
        query = query.annotate(unchanged=SNAPSHOT_ROW)
    sql, params = query.query.get_compiler(connection.alias).as_sql()
    return sql, tuple(params), list(params).index(NO_GAME)


def _timestamp(text: str) -> datetime:
    """A timestamp as the JSON rows carry it: ISO text, without its zone on SQLite (which
    stores UTC)."""
    moment = parse_datetime(text)
    if moment is None:
        raise ValueError(f"not a timestamp: {text!r}")
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, UTC)


def _json(value) -> list:
    """An aggregated column as the raw query returns it: JSON text, or already decoded."""
    if value is None:
        return []
    return json.loads(value) if isinstance(value, str) else value


@dataclass
class Locked:
    game: Game
    seats: list[Seat]
    pending: list[Move]  # in the order they were recorded
    # (seat, version seen) of applied human moves that pending ones repeat: a second tap
    # on a table the seat already acted on (``Step.apply_pending``).
    acted: set[tuple[int, int]]


def lock_game(game_id: int) -> Locked | None:
    """Lock the game's row and read it with its seats and its pending moves: one query.

    NO KEY UPDATE, not UPDATE: inserting a Move takes KEY SHARE on its game, which a plain
    FOR UPDATE would block, so submissions would wait for the processor.

    The seats and moves come from the statement's snapshot, taken before the lock was
    granted. When someone changed the game's row while we waited (another step, an abort),
    they may have changed its seats and moves too: then the statement runs once more, now
    that we hold the lock, and its new snapshot sees their work. Whoever changes a running
    game's seats or moves under its lock changes its row too, so an unchanged row means
    unchanged seats and moves (moves added meanwhile are new submissions, and each queues
    its own step). On SQLite the lock is taken when the transaction begins, before any
    read.
    """
    sql, compiled, at = _lock_statement(connection.vendor)
    params = [*compiled[:at], game_id, *compiled[at + 1 :]]
    # Any: the statement adds its own columns to the row (``unchanged``, ``seat_rows``,
    # ``pending_rows``, ``acted_rows``), which the model's type does not have.
    game: Any = next(iter(Game.objects.raw(sql, params)), None)
    if game is not None and connection.vendor == "postgresql" and not game.unchanged:
        game = next(iter(Game.objects.raw(sql, params)))
        if not game.unchanged:  # nobody can change a row we hold locked
            raise RuntimeError(f"game {game_id} changed under its lock")
    if game is None:
        return None
    seats = [
        Seat(game_id=game_id, **{**row, "replaced_by_computer": bool(row["replaced_by_computer"])})
        for row in _json(game.seat_rows)
    ]
    pending = [
        Move(
            game_id=game_id,
            status=MoveStatus.PENDING,
            **{**row, "created_at": _timestamp(row["created_at"])},
        )
        for row in _json(game.pending_rows)
    ]
    pending.sort(key=lambda move: move.pk)
    acted = {(row["seat"], row["seen_version"]) for row in _json(game.acted_rows)}
    return Locked(game, seats, pending, acted)


def apply_move(kind: catalog.GameKind, state, move: Move) -> list[dict]:
    """Apply one recorded move to an engine state: the one way moves are applied, by the
    processor and by replays alike. A moderator's move is one the game declares
    (``GameKind.moderator_moves``), which applies itself."""
    if move.source != MoveSource.MODERATOR:
        return kind.rules.apply(state, move.seat, move.action)
    moderator = kind.moderator_move(move.action)
    if moderator is None:
        raise IllegalAction(f"Moderators cannot {move.action!r} in this game.")
    return moderator.apply(kind.rules, state, move.seat, move.note)


class Step:
    """The work of one ``process`` call on one locked game."""

    def __init__(
        self,
        game: Game,
        seats: list[Seat],
        *,
        plan: dict | None = None,
        budget: Budget | None = None,
        locked: bool = True,
    ):
        self.game = game
        # Decisions made outside the lock, by (version, seat); under the lock a searching
        # computer plays only these (``decide``), unlocked it searches and notes them here.
        self.plan = plan or {}
        self.decided: dict[tuple[int, int], str] = {}
        self.budget = budget or Budget()
        self.locked = locked
        self.abandoned = False  # the casual table's last person timed out for good
        self.paused = False  # the lone person's page is in sight: their clock starts again
        self.kind = game.kind
        self.rules = self.kind.rules
        if game.state is None:  # only a lobby has none, and no step runs on a lobby
            raise ValueError(f"game {game.pk} has no state: it has not started")
        self.state = self.rules.load(game.state)
        self.seats = {s.number: s for s in seats}
        self.start_version = game.version
        self.now = timezone.now()
        self.new_moves: list[Move] = []
        self.changed_seats: set[int] = set()
        self.report = StepReport(game.pk, version=game.version)
        self.deadline_before = game.deadline
        self._events: list[dict] | None = None  # the applied moves' events, when needed

    # -- applying ------------------------------------------------------------------------
    def apply_pending(self, pending: list[Move], acted: set[tuple[int, int]]) -> None:
        acted = set(acted)
        for move in pending:
            move.processed_at = self.now
            seat = self.seats.get(move.seat)
            if seat is None or (seat.is_computer and move.source == MoveSource.HUMAN):
                move.status, move.reason = MoveStatus.REJECTED, _("A computer plays this seat.")
                self.report.rejected += 1
                continue
            seen = (move.seat, move.seen_version)
            if move.source == MoveSource.HUMAN and seen in acted:
                # The seat already acted on the table it saw: a second tap of a button
                # that is still legal (another flip, another "more") is not a new decision.
                move.status, move.reason = MoveStatus.REJECTED, _("This button is out of date.")
                self.report.rejected += 1
                continue
            try:
                events = apply_move(self.kind, self.state, move)
            except IllegalAction as exc:
                move.status, move.reason = MoveStatus.REJECTED, str(exc)
                self.report.rejected += 1
                continue
            self._applied(move, events)
            if move.seen_version is not None:
                acted.add((move.seat, move.seen_version))
            if seat.timeouts:
                seat.timeouts = 0
                self.changed_seats.add(seat.number)

    def _applied(self, move: Move, events: list[dict]) -> None:
        self.report.version += 1
        self.report.applied += 1
        move.seq = self.report.version
        move.status = MoveStatus.APPLIED
        move.events = events
        self.report.events.extend(events)

    def searches(self, strategy: str) -> bool:
        """Whether a strategy searches (too slow to run under the game's lock)."""
        return level_of(strategy) == SEARCHING_LEVEL or needs_history(self.kind.strategy(strategy))

    def _play_for(self, number: int, source: str, strategy: str) -> bool:
        """Play a computer's move for a seat. Under the lock, a searching one plays only a
        decision made outside it: without one, nothing is played and False returned."""
        at = (self.report.version, number)
        action = self.plan.get(at)
        if action is None:
            searching = self.searches(strategy)
            if searching and self.locked:
                return False
            # Seeded by the game and the version, so a rerun picks the same move; the move
            # is recorded either way, so replays never depend on this RNG.
            rng = random.Random(f"{self.game.seed}:{self.report.version}:{number}")
            player = self.kind.strategy(strategy)
            history = self.history(number) if needs_history(player) else ()
            action = act(self.rules, self.state, number, player, rng, history)
            if searching:
                self.decided[at] = action
        self._record(number, action, source)
        return True

    def history(self, number: int) -> list[dict]:
        """What ``number`` has seen of this game, in order (for the computers that search):
        the applied moves' events, then this step's."""
        if self._events is None:
            stored = Move.objects.filter(
                game_id=self.game.pk, status=MoveStatus.APPLIED, seq__lte=self.start_version
            )
            stored = stored.order_by("seq").values_list("events", flat=True)
            self._events = [ev for events in stored for ev in cast(list[dict], events)]
        return observations([*self._events, *self.report.events], number)

    def _record(self, number: int, action: str, source: str) -> None:
        events = self.rules.apply(self.state, number, action)
        move = Move(
            game_id=self.game.pk,
            key=f"{source}:{self.report.version + 1}:{number}",
            seat=number,
            action=action,
            source=source,
            processed_at=self.now,
        )
        self._applied(move, events)
        self.new_moves.append(move)

    # -- timers and computers ------------------------------------------------------------
    def overdue(self, timeout_version: int) -> bool:
        return (
            self.report.version == timeout_version
            and self.game.deadline is not None
            and self.game.deadline <= self.now
        )

    def forced(self) -> dict[int, str]:
        """The humans to act whose only legal action the table plays for them
        (``Game.auto_play``), by seat."""
        if not self.game.auto_play:
            return {}
        out = {}
        for number in self.rules.to_act(self.state):
            if not self.seats[number].is_computer:
                legal = self.rules.legal_actions(self.state, number)
                if len(legal) == 1:
                    out[number] = legal[0]
        return out

    def time_out(self) -> None:
        """The deadline passed: a forced move is played for its seat (a table with automatic
        moves); otherwise a computer plays each waiting human's move for this turn, and
        after too many timeouts in a row the seat is handed to a computer for good."""
        forced = self.forced()
        late = [n for n in self.rules.to_act(self.state) if not self.seats[n].is_computer]
        if self.reading(late, forced):
            self.paused = True
            return
        if self.nobody_left(late, forced):
            self.abandoned = True
            return
        for number in late:
            seat = self.seats[number]
            if number in forced:
                self._record(number, forced[number], MoveSource.AUTO)
                continue
            # The move played for a late person is the league's level too (issue 14): a
            # hard league does not hand a late player's turn to a weaker stand-in.
            stand_in = handover_strategy(self.game)
            if not self._play_for(number, MoveSource.TIMEOUT, stand_in):
                raise NeedsDecision
            seat.timeouts += 1
            if seat.timeouts >= settings.TIMEOUTS_BEFORE_COMPUTER:
                seat.replaced_by_computer = True
                seat.strategy = seat.strategy or stand_in
            self.changed_seats.add(number)

    def reading(self, late: list[int], forced: dict[int, str]) -> bool:
        """Whether the only person at a casual table, alone with computers, is late with
        their page open and in sight (``presence``): nobody else waits on them, so their
        clock stands still instead of playing for them and, at last, cancelling the table."""
        if self.game.league_id is not None:
            return False
        people = [n for n, s in self.seats.items() if not s.is_computer]
        return (
            len(people) == 1
            and people[0] in late
            and people[0] not in forced
            and presence.present(self.game.pk, people[0])
        )

    def nobody_left(self, late: list[int], forced: dict[int, str]) -> bool:
        """Whether this timeout hands the last person's seat of a casual table to a
        computer: then nobody is left to play with, and the table is cancelled instead
        (a league's game goes on, its results count)."""
        if self.game.league_id is not None:
            return False
        people = [s for s in self.seats.values() if not s.is_computer]
        leaving = [
            n
            for n in late
            if n not in forced and self.seats[n].timeouts + 1 >= settings.TIMEOUTS_BEFORE_COMPUTER
        ]
        return bool(people) and len(leaving) == len(people)

    def run_computers(self) -> None:
        """Computers act until a person must, within the budget. Under the lock, a
        searching computer without a decision stops the step (``StepReport.search_at``);
        unlocked (``decide``), the step stops after the first searching decision."""
        for _round in range(MAX_COMPUTER_ACTIONS):
            acting = self.rules.to_act(self.state)
            bots = [n for n in acting if self.seats[n].is_computer]
            if not bots:
                return
            for number in bots:
                if self.budget.spent() and (self.report.version, number) not in self.plan:
                    self.report.more = True
                    return
                searched = len(self.decided)
                if not self._play_for(number, MoveSource.COMPUTER, self.seats[number].strategy):
                    self.report.search_at = self.report.version
                    return
                self.budget.spend()
                if not self.locked and len(self.decided) > searched:
                    return
        log.error("game %s: computers did not stop acting", self.game.pk)

    def turn_time(self) -> timedelta:
        if self.forced():
            return timedelta(seconds=settings.AUTO_PLAY_SECONDS)
        return timedelta(seconds=self.game.turn_seconds or 60)

    # -- storing -------------------------------------------------------------------------
    def save(self, pending: list[Move]) -> None:
        game, report = self.game, self.report
        result = self.rules.outcome(self.state)
        update = ["version", "state", "legal", "deadline", "updated_at"]
        if report.version != self.start_version:
            game.state = self.rules.dump(self.state)
            game.version = report.version
        game.legal = legal_by_seat(self.rules, self.state, self.seats)
        if result is not None:
            update += finish.finish(game, result, self.now)
            report.finished = True
        elif any(not self.seats[n].is_computer for n in self.rules.to_act(self.state)):
            if game.deadline is None or report.version != self.start_version or self.paused:
                game.deadline = self.now + self.turn_time()
        else:
            game.deadline = None
        report.deadline_changed = game.deadline != self.deadline_before
        changed = pending or self.new_moves or self.changed_seats or report.deadline_changed
        if not (changed or "result" in update):
            return  # a step with nothing to do (a duplicate task, a stale timer) writes nothing
        game.updated_at = self.now
        writes = Writes()
        # The game's row last: on PostgreSQL it is the statement's own write, the rest its
        # WITH clauses.
        _store(writes, pending, ["status", "seq", "reason", "events", "processed_at"])
        writes.insert(self.new_moves)
        for number in sorted(self.changed_seats):
            seat = self.seats[number]
            writes.update(
                Seat.objects.filter(pk=seat.pk),
                timeouts=seat.timeouts,
                replaced_by_computer=seat.replaced_by_computer,
                strategy=seat.strategy,
            )
        writes.update(Game.objects.filter(pk=game.pk), **{f: getattr(game, f) for f in update})
        writes.run()


def _reject_all(moves: list[Move], reason: str) -> None:
    now = timezone.now()
    for move in moves:
        move.status, move.reason, move.processed_at = MoveStatus.REJECTED, reason, now
    writes = Writes()
    _store(writes, moves, ["status", "reason", "processed_at"])
    writes.run()


def _store(writes: Writes, moves: list[Move], fields: list[str]) -> None:
    """Write what processing decided about pending moves. Only moves still pending are
    written: a move another step settled (its row read before that step committed) keeps
    that step's verdict."""
    for move in moves:
        still_pending = Move.objects.filter(pk=move.pk, status=MoveStatus.PENDING)
        writes.update(still_pending, **{f: getattr(move, f) for f in fields})


def after_commit(game: Game, report: StepReport) -> None:
    if report.applied or report.rejected or report.deadline_changed:
        game_updated.send(
            sender=Game,
            game_id=game.pk,
            chat_id=game.chat_id,
            version=report.version,
            events=report.events,
        )
