"""Celery tasks of the Telegram front-end."""

from __future__ import annotations

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(acks_late=True)
def sync_game(game_id: int) -> None:
    """Bring the game's group and private messages up to date (coalesced: see bot.sync)."""
    from bot import sync

    sync.run(game_id)


@shared_task
def recover_syncs() -> int:
    """Periodic: sync the games whose sync was lost (see bot.sync.recover)."""
    from bot import sync, transport

    if not transport.configured():
        return 0
    return sync.recover()


@shared_task
def auto_flip(game_id: int, version: int) -> None:
    """Bon Appétit with automatic flipping: turn the card for the player who must, if the
    game is still where it was when this was scheduled."""
    from games import catalog, services
    from games.errors import GameError
    from games.models import Game, GameStatus

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != GameStatus.RUNNING or game.version != version:
        return
    rules = catalog.get(game.game_type).rules
    to_act = rules.to_act(rules.load(game.state))
    seat = game.seats.select_related("player").filter(number__in=to_act).first()
    if seat is None or seat.is_computer:
        return
    try:
        services.submit_move(game_id, seat.player, "flip", f"autoflip:{version}", version)
    except GameError as exc:
        log.info("auto flip of game %s at %s: %s", game_id, version, exc)
