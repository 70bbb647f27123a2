"""Sending and editing messages from the worker, inside Telegram's limits.

A ``Sender`` is used by one sync run: it owns a private event loop and a Bot, waits for a
slot in the shared rate windows (``bot.ratelimit``) before each call, retries a 429 after
its ``retry_after`` (and tells every other sender: the pause is recorded in the windows and
in the database, ``bot.pauses``) and a network hiccup a few times, and turns Telegram's
answers into a
small ``Result``: "message is not modified" is a success, a message that cannot be edited
any more is ``gone`` (the caller sends a new one), a user who blocked the bot is
``blocked``. A group that became a supergroup (``ChatMigrated``) is reported as
``migrated_to`` its new id: moving the chat's games is the caller's business
(``bot.chats.migrate``), not the sender's.

In a worker a sender never sleeps long: a wait above ``defer_after`` seconds (a long 429,
a full group window, a long network back-off) raises ``Deferred`` instead, and the sync
queues itself again for then (``bot.sync``), freeing the worker for other chats.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from telegram import Bot, LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
)

from bot import pauses, ratelimit, transport
from bot.keyboard import Rows, check, to_markup

log = logging.getLogger(__name__)

MAX_TRIES = 5
# The longest wait a sender in a worker sleeps through; longer ones are deferred.
DEFER_AFTER = 3.0
# A long wait (a 429's retry_after, a full rate window) is slept in slices, calling
# ``keepalive`` between them.
KEEPALIVE_SECONDS = 20
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


class Deferred(Exception):
    """Telegram (or our own rate window) asks for a wait longer than the sender sleeps:
    try again in ``seconds``. Nothing was sent by the call that raised it."""

    def __init__(self, chat_id: int, seconds: float):
        self.chat_id, self.seconds = chat_id, seconds
        super().__init__(f"chat {chat_id}: wait {seconds:.1f} s")


@dataclass
class Result:
    ok: bool = True
    message_id: int | None = None
    gone: bool = False
    blocked: bool = False
    migrated_to: int | None = None  # the chat became this supergroup; nothing was sent


def retry_seconds(exc: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22 announces a timedelta here; both are handled
        warnings.simplefilter("ignore")
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _is_not_modified(exc: BadRequest) -> bool:
    return "message is not modified" in exc.message.lower()


def _is_gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return "message to edit not found" in text or "message can't be edited" in text


def _is_unreachable(chat_id: int, exc: Exception) -> bool:
    if isinstance(exc, Forbidden):
        return True
    return chat_id > 0 and isinstance(exc, BadRequest) and "chat not found" in exc.message.lower()


class Sender:
    """``keepalive`` is called before every call to Telegram and during long waits: the
    sync uses it to keep its lock while it is alive, so a dead worker's lock soon lapses.
    ``defer_after``: waits longer than this raise ``Deferred`` (None: every wait is
    slept, as an in-process sync on the embedded default must)."""

    def __init__(self, request=None, keepalive=None, defer_after: float | None = None):
        self._keepalive = keepalive or (lambda: None)
        self._defer_after = defer_after
        self._chat_id = 0  # the chat of the call in progress, for ``Deferred``
        # The client and its loop are made for the first call: most syncs find nothing to
        # send, and an HTTP client (its TLS context) costs more CPU than the sync itself.
        self._request = request
        self._bot: Bot | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = False
        self._pauses: dict[int, float] | None = None  # the database's, read once

    @property
    def bot(self) -> Bot:
        self._client()
        return cast(Bot, self._bot)

    def _client(self):
        """The Bot API client of this sender's calls, made (with its ``bot``) when first
        needed."""
        if self._bot is None:
            self._request = self._request or transport.default_request()
            self._bot = transport.make_bot(self._request)
        return self._request

    def __enter__(self) -> Sender:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._loop is None:
            return
        try:
            if self._started:
                self._loop.run_until_complete(self._request.shutdown())
        finally:
            self._loop.close()

    def _run(self, coro):
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        if not self._started:
            self._loop.run_until_complete(self._client().initialize())
            self._started = True
        return self._loop.run_until_complete(coro)

    def _attempt(self, chat_id: int, make):
        """Run one Bot API call within the limits, retrying 429s and network errors."""
        self._chat_id = chat_id
        for attempt in range(1, MAX_TRIES + 1):
            self._wait_out_pause(chat_id)
            ratelimit.wait_turn(chat_id, sleep=self._sleep)
            self._keepalive()
            try:
                return self._run(make())
            except RetryAfter as exc:
                wait = retry_seconds(exc)
                log.info("429 for chat %s: retrying after %s s", chat_id, wait)
                self._pause(chat_id, ratelimit.clock.now() + wait)
                self._sleep(wait)
            except (TimedOut, NetworkError) as exc:
                if isinstance(exc, BadRequest | Forbidden) or attempt == MAX_TRIES:
                    raise
                log.info("network error for chat %s (%s); retrying", chat_id, exc)
                self._sleep(min(2**attempt, 10))
        raise NetworkError(f"gave up after {MAX_TRIES} tries")

    def _pause(self, chat_id: int, until: float) -> None:
        """Every sender waits until ``until`` before calling ``chat_id`` again."""
        ratelimit.get_limiter().pause(chat_id, until)
        pauses.record(chat_id, until, ratelimit.clock.now())
        if self._pauses is not None:
            self._pauses[chat_id] = max(until, self._pauses.get(chat_id, 0.0))

    def _wait_out_pause(self, chat_id: int) -> None:
        """A pause the windows may have lost (a restarted Redis) but the database kept."""
        if self._pauses is None:
            self._pauses = pauses.running(ratelimit.clock.now())
        left = self._pauses.get(chat_id, 0.0) - ratelimit.clock.now()
        if left > 0:
            self._sleep(left)

    def _sleep(self, seconds: float) -> None:
        if self._defer_after is not None and seconds > self._defer_after:
            raise Deferred(self._chat_id, seconds)
        while seconds > 0:
            step = min(seconds, KEEPALIVE_SECONDS)
            ratelimit.clock.sleep(step)
            self._keepalive()
            seconds -= step

    def send(self, chat_id: int, text: str, rows: Rows | None = None, quiet=False) -> Result:
        check(rows)
        try:
            message = self._attempt(
                chat_id,
                lambda: self.bot.send_message(
                    chat_id,
                    text,
                    parse_mode=ParseMode.HTML,
                    reply_markup=to_markup(rows),
                    link_preview_options=NO_PREVIEW,
                    disable_notification=quiet,
                ),
            )
        except ChatMigrated as exc:
            return Result(ok=False, migrated_to=exc.new_chat_id)
        except (BadRequest, Forbidden) as exc:
            if _is_unreachable(chat_id, exc):
                return Result(ok=False, blocked=True)
            raise
        return Result(message_id=message.message_id)

    def edit(self, chat_id: int, message_id: int, text: str, rows: Rows | None = None) -> Result:
        check(rows)
        try:
            self._attempt(
                chat_id,
                lambda: self.bot.edit_message_text(
                    text,
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=to_markup(rows),
                    link_preview_options=NO_PREVIEW,
                ),
            )
        except ChatMigrated as exc:
            return Result(ok=False, gone=True, migrated_to=exc.new_chat_id)
        except (BadRequest, Forbidden) as exc:
            if isinstance(exc, BadRequest) and _is_not_modified(exc):
                return Result(message_id=message_id)
            if isinstance(exc, BadRequest) and _is_gone(exc):
                return Result(ok=False, gone=True)
            if _is_unreachable(chat_id, exc):
                return Result(ok=False, blocked=True)
            raise
        return Result(message_id=message_id)

    def delete(self, chat_id: int, message_id: int) -> bool:
        try:
            return bool(
                self._attempt(
                    chat_id,
                    lambda: self.bot.delete_message(chat_id=chat_id, message_id=message_id),
                )
            )
        except (BadRequest, Forbidden, ChatMigrated):
            return False  # too old to delete, or already gone: a new message follows anyway
