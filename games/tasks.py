"""Celery tasks: process a game, sweep for overdue deadlines and what a lost task left.

The database is the source of truth. A lost task (a worker killed, Redis restarted) loses
nothing: pending moves and overdue deadlines are found again by ``sweep``.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games import processing, services
from games.models import Game, GameStatus, Move, MoveStatus

log = logging.getLogger(__name__)


@shared_task(ignore_result=False)
def ping(payload: str = "pong") -> str:
    """A no-op round trip, used by health checks and the worker tests."""
    return payload


@shared_task(acks_late=True)
def process_game(game_id: int, timeout_version: int | None = None) -> int | None:
    outcome = processing.process(game_id, timeout_version=timeout_version)
    return outcome.version if outcome else None


@shared_task
def game_finished(game_id: int) -> None:
    """Rate a finished game. The leagues code connects to ``games.signals.game_finished``;
    this task is where the rating update runs in a worker."""
    from games import ratings_hook

    ratings_hook.run(game_id)


@shared_task
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
        schedule(process_game, game_id)
    overdue = list(
        Game.objects.filter(status=GameStatus.RUNNING, deadline__lt=now).values_list(
            "pk", "version"
        )
    )
    for game_id, version in overdue:
        schedule(process_game, game_id, version)
    expired = services.expire_lobbies()
    return {"pending": len(pending_games), "overdue": len(overdue), "expired": expired}


def schedule(task, *args) -> None:
    """Queue a task; a broker that is down only delays the work until the next sweep."""
    try:
        task.delay(*args)
    except Exception:
        log.warning("could not queue %s%s; the sweep will retry", task.name, args, exc_info=True)
