"""Telegram's pauses (429 ``retry_after``) kept in the database as well as the rate windows.

The windows (``bot.ratelimit``) are the fast, shared path; they may live in Redis, which
keeps nothing when it restarts. A sender reads the pauses still running here once, when
it starts, and waits them out too: a 429 is honoured even across a Redis restart.
"""

from __future__ import annotations

from bot.models import ChatPause


def record(chat_id: int, until: float, now: float) -> None:
    """Remember that ``chat_id`` may not be called before ``until`` (a later pause never
    shortens an earlier one); expired pauses are dropped on the way."""
    ChatPause.objects.filter(until__lte=now).delete()
    updated = ChatPause.objects.filter(chat_id=chat_id, until__lt=until).update(until=until)
    if not updated:
        ChatPause.objects.get_or_create(chat_id=chat_id, defaults={"until": until})


def running(now: float) -> dict[int, float]:
    """Every pause not yet over: chat id -> until."""
    return dict(ChatPause.objects.filter(until__gt=now).values_list("chat_id", "until"))
