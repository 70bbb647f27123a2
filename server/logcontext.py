"""What a log line is about: the game and the Telegram update being handled, kept in
context variables so that every line logged meanwhile carries them (the JSON log format,
``server/logformat.py``). Set by the worker around each task about a game
(``config/celery.py``) and by the bot for each update (``bot/handlers``)."""

from __future__ import annotations

import time
from contextvars import ContextVar

game_id: ContextVar[int | None] = ContextVar("game_id", default=None)
update_id: ContextVar[int | None] = ContextVar("update_id", default=None)
# When the update being handled arrived (time.monotonic()), for the tap→answer latency.
update_arrived: ContextVar[float | None] = ContextVar("update_arrived", default=None)


def current() -> dict[str, int]:
    """The known ids, for a log record."""
    found = {"game_id": game_id.get(), "update_id": update_id.get()}
    return {k: v for k, v in found.items() if v is not None}


def update_started(update_id_: int | None) -> None:
    """A new update is being handled (in its own asyncio task: the values stay in it)."""
    update_id.set(update_id_)
    update_arrived.set(time.monotonic())


def since_update_arrived() -> float | None:
    arrived = update_arrived.get()
    return None if arrived is None else time.monotonic() - arrived
