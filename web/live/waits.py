"""Waiting for a table to change without a thread, a lock or a database connection: what
the stream (``stream``) and the long poll (``poll``) share.

Both wait on this process's hub (``notify``), woken once per change whatever number of
pages follow the game, and do their few synchronous parts (the session, the token, the
render) off the event loop, giving the database connection back after each.
"""

from __future__ import annotations

import asyncio
import time

from asgiref.sync import SyncToAsync, sync_to_async
from django.db import connection

from games.play.models import Player

from . import changes, notify, renders

# When a page whose poll or stream found no place to wait asks again: soon, so that a
# change shows within a fraction of a second; its next poll costs a cache read.
RETRY_MS = 250
# The longest change token a page may send (its table's, as the pages were given it).
MAX_TOKEN = 100


def release_connection() -> None:
    """A waiting page holds no database connection (on PostgreSQL it goes back to the
    pool): its next look at the database takes one again."""
    if not connection.in_atomic_block:  # a test's transaction: it stays
        connection.close()


def released(function, shared: bool = False):
    """``function`` off the event loop, which gives its database connection back when it
    returns: a page holds none while it waits, however long (Django closes a request's
    connection only at its end). In the request's own thread, or (``shared``, once the
    request waits) in the loop's shared pool of threads."""

    def call(*args):
        try:
            return function(*args)
        finally:
            release_connection()

    return sync_to_async(call, thread_sensitive=not shared)


async def changed_token(
    game_id: int, seen: str, deadline: float, shared: bool, language: str | None = None
) -> str | None:
    """The game's change token once it is no longer ``seen``, or as it is at ``deadline``
    (``time.monotonic``): None when the game is gone. ``shared``: as for ``released``;
    ``language``: a spectator's (``notify.Hub.join``)."""
    sub = notify.hub.join(game_id, language)  # before the look: no change falls between
    try:
        current = await released(changes.token, shared=shared)(game_id)
        while current == seen:
            given = await sub.next(deadline - time.monotonic())
            if given is None:
                break
            current = given
        return current
    finally:
        notify.hub.leave(sub)


async def payload(
    game_id: int, token: str, player: Player | None, language: str, shared: bool
) -> dict:
    """The table's render for ``player`` (None: a spectator) at ``token``, shared per
    audience (``renders``). A spectator's comes from memory when one was made for this
    change (no thread, no query); else the first of the loop's spectators to ask has it
    made and the others await that one (a hot table's thousands of pages, one thread)."""
    if player is not None:
        return await released(renders.payload, shared=shared)(game_id, token, player, language)
    if found := renders.peek(game_id, token, None, language):
        return found
    key = (asyncio.get_running_loop(), game_id, token, language)
    making = _making.get(key)
    if making is None:
        render = released(renders.payload, shared=shared)
        making = asyncio.ensure_future(render(game_id, token, None, language))
        _making[key] = making
        making.add_done_callback(lambda _done: _making.pop(key, None))
    return await asyncio.shield(making)  # one page leaving cancels nobody else's


_making: dict[tuple, asyncio.Future] = {}


def let_go_of_the_request_thread() -> None:
    """Under ASGI Django gives each request a thread of its own for its synchronous parts
    (the middleware, the viewer's check: asgiref's ``ThreadSensitiveContext``) and keeps it
    until the response ends: for a stream or a waiting poll, an idle thread per page (5000
    pages, 5000 threads, in ``bench watchers``). Once the page waits nothing of the request
    needs that thread: it ends now (a later synchronous part gets a new one), and the
    waits' reads use the loop's shared pool. Should asgiref's internals change, nothing
    is done: the thread merely lives on."""
    current = getattr(SyncToAsync, "thread_sensitive_context", None)
    executors = getattr(SyncToAsync, "context_to_thread_executor", None)
    if current is None or executors is None:
        return
    context = current.get(None)
    executor = executors.pop(context, None) if context is not None else None
    if executor is not None:
        executor.shutdown(wait=False)
