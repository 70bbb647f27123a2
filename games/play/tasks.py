"""Celery tasks of the play layer: process a game; sweep for overdue deadlines and for
what a lost task left behind.

The database is the source of truth. A lost task (a worker killed, Redis restarted) loses
nothing: pending moves and overdue deadlines are found again by ``sweep``.

Task names are fixed so that tasks already queued under them still run after a deploy.
"""

from __future__ import annotations

import logging
import threading
from collections import deque

from celery import shared_task
from celery.signals import worker_init
from django.conf import settings
from django.utils import timezone

from games import catalog
from games.play import finish, processing, reviews, search_process
from games.play.models import Game, GameStatus, Move, MoveStatus

log = logging.getLogger(__name__)


@shared_task(name="games.tasks.ping", ignore_result=False)
def ping(payload: str = "pong") -> str:
    """A no-op round trip, used by health checks and the worker tests."""
    return payload


@shared_task(name="games.tasks.process_game", acks_late=True)
def process_game(game_id: int, timeout_version: int | None = None) -> int | None:
    """A game's step: people's moves, timers, the computers that do not search. A search
    goes to the computers' queue (``decide_game``): steps of people never wait behind one."""
    report = processing.process(game_id, timeout_version=timeout_version, search=False)
    return _continue(game_id, timeout_version, report)


@shared_task(name="games.tasks.continue_game", acks_late=True)
def continue_game(game_id: int, timeout_version: int | None = None) -> int | None:
    """The rest of a step whose computers ran out of budget (``process_game``'s, or a
    decision's): the same step, on the computers' queue (``COMPUTERS_QUEUE``). Only
    computers wait for it, so a table left to its computers (abandoned, or a hostile
    visitor's five hard ones) never stands in the queue before a person's move (issue 25:
    people's moves waited seconds behind such tables)."""
    report = processing.process(game_id, timeout_version=timeout_version, search=False)
    return _continue(game_id, timeout_version, report)


@shared_task(name="games.tasks.decide_game", acks_late=True)
def decide_game(game_id: int, timeout_version: int | None = None) -> int | None:
    """A searching computer's decision, made outside any transaction or lock on a queue of
    its own (``COMPUTERS_QUEUE``), then applied by a short locked step that re-checks the
    game's version (``processing.process``)."""
    plan = search_process.decide(game_id, timeout_version)
    if plan is None:  # gone or over: a step says so to whatever is pending
        enqueue(game_id)
        return None
    report = processing.process(game_id, timeout_version=timeout_version, plan=plan, search=False)
    return _continue(game_id, timeout_version, report)


@shared_task(name="games.tasks.review_game", time_limit=300, soft_time_limit=240)
def review_game(game_id: int) -> int | None:
    """A finished game's post-game review (issue 27) on a queue of its own
    (``REVIEWS_QUEUE``): half a minute of CPU that no move ever waits behind. Returns the
    number of decisions reviewed (None: no review for this game)."""
    review = reviews.make(game_id)
    return None if review is None else len(review.verdicts)


def on_game_ended(sender, game_id: int, status: str, **kwargs) -> None:
    """Queue the review of a game that finished (after commit: the signal is sent then);
    not of an aborted one. Connected by ``games.apps``."""
    if settings.REVIEWS and status == GameStatus.FINISHED:
        schedule(review_game, game_id)


def _continue(game_id: int, timeout_version: int | None, report) -> int | None:
    if report is None:
        return None
    if report.needs_decision:
        run_later(decide_game, game_id, timeout_version)
    elif report.more:
        # Computers are still to act: the rest is queued behind the work queued meanwhile,
        # not played in this task, and not before people's moves (issue 25).
        run_later(continue_game, game_id)
    return report.version


# The priority of what the sweep queues (timers run out, work a lost task left): after the
# moves people are waiting on, which are queued at the broker's highest (0, the default).
# A crowd of abandoned tables, each with a turn timer run out at every sweep, once held
# people's moves seconds behind them (issue 25). Redis has the steps 0, 3, 6 and 9.
LATER = 6


@shared_task(name="games.tasks.sweep")
def sweep() -> dict:
    """Re-queue what a lost task left behind, act on overdue deadlines, expire lobbies."""
    now = timezone.now()
    stale = now - settings.PENDING_MOVE_GRACE
    pending_games = set(
        Move.objects.filter(status=MoveStatus.PENDING, created_at__lt=stale)
        .values_list("game_id", flat=True)
        .distinct()
    )
    for game_id in pending_games:
        schedule(process_game, game_id, priority=LATER)
    overdue = list(
        Game.objects.filter(status=GameStatus.RUNNING, deadline__lt=now).values_list(
            "pk", "version"
        )
    )
    for game_id, version in overdue:
        schedule(process_game, game_id, version, priority=LATER)
    # A processed running game waits for a human with a deadline; one without was started
    # and never processed (the broker lost the task): nobody would ever deal its cards.
    unprocessed = list(
        Game.objects.filter(
            status=GameStatus.RUNNING, deadline__isnull=True, started_at__lt=stale
        ).values_list("pk", flat=True)
    )
    for game_id in unprocessed:
        schedule(process_game, game_id, priority=LATER)
    expired = finish.expire_lobbies()
    return {
        "pending": len(pending_games),
        "overdue": len(overdue),
        "unprocessed": len(unprocessed),
        "expired": expired,
    }


def schedule(task, *args, priority: int | None = None) -> None:
    """Queue a task; a broker that is down only delays the work until the next sweep.
    ``priority``: ``LATER`` for work nobody is waiting on at this moment."""
    try:
        task.apply_async(args, priority=priority)
    except Exception:
        log.warning("could not queue %s%s; the sweep will retry", task.name, args, exc_info=True)


# A task run at the call site (eagerly: the tests, the demo) that queues a game's step must
# not run it inside its own, a chunk deeper for every chunk of a long game: the steps it
# queues wait here, in order, for the outermost ``enqueue`` to run them. Queued elsewhere
# (a broker, a background thread) a step never runs inside ``enqueue``, so this stays empty.
_local = threading.local()


def enqueue(game_id: int) -> None:
    """Queue the game's processor. A broker that is down loses nothing: the moves wait in
    the database and the periodic sweep queues them again."""
    run_later(process_game, game_id)


def run_later(task, *args) -> None:
    """Queue ``task``; at the call site (eagerly), after the task that queues it."""
    waiting = getattr(_local, "waiting", None)
    if waiting is not None:
        waiting.append((task, args))
        return
    _local.waiting = waiting = deque([(task, args)])
    try:
        while waiting:
            queued, queued_args = waiting.popleft()
            schedule(queued, *queued_args)
    finally:
        _local.waiting = None


@worker_init.connect
def load_games(**kwargs) -> list[str]:
    """Load every engine and computer player before the first task rather than in it:
    their tables take up to 50 ms to build, which the first moves of each game would wait
    for. A broken engine is logged here and fails only its own games, as it would lazily.
    Returns the games that loaded."""
    loaded = []
    for kind in catalog.all_games():
        try:
            kind.rules.check_players(kind.min_players)
            kind.strategies()
            loaded.append(kind.slug)
        except Exception:
            log.exception("could not load the %s engine", kind.slug)
    return loaded
