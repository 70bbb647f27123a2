"""The live requests' limits (README: "Limits"): long polls and streams of the table
(``/play/<id>/state/``, ``/play/<id>/events/``) open at once per client address
(``LIVE_CONNECTIONS_PER_ADDRESS``: slots in Django's default cache, shared by every web
process, ``take_live_slot``; and counted in this process on arrival, ``live_here``), and
long polls waiting at once in one WSGI process of the site (``LONG_POLLS_PER_PROCESS``:
there each holds a thread while it waits; under ASGI none does, and the hub's
``LIVE_STREAMS_PER_PROCESS`` bounds them). A live request refused for its address's limits
under ASGI is answered a moment later (``hold_refusal``). The site's other limits (tables
created, hard computers) are ``web.limits``'s, whose ``LimitReached`` these raise too.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import threading
import uuid
from collections.abc import Iterator

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.utils.translation import gettext_lazy

from web import clients
from web.limits import LimitReached

__all__ = ["LimitReached"]

# A live connection's slot outlives the longest poll by this much, so that a slot whose
# process died with it frees itself soon after.
LIVE_GRACE_SECONDS = 30
# Refusals held back at once per client network in one process (``hold_refusal``); past
# them a refusal is answered at once.
REFUSALS_HELD_PER_ADDRESS = 16


@contextlib.contextmanager
def live_connection(request) -> Iterator[None]:
    """One of the client address's ``LIVE_CONNECTIONS_PER_ADDRESS`` slots for the length
    of a long poll, refused when all are taken. The slot is freed when the block ends,
    whatever happens in it, and expires by itself if its process dies."""
    slot = take_live_slot(request, settings.TABLE_WAIT_SECONDS)
    try:
        yield
    finally:
        give_back_live_slot(slot)


def take_live_slot(request, seconds: float) -> tuple[str, str] | None:
    """One of the client address's live-connection slots, for at most ``seconds`` (a long
    poll's wait, a stream's lifetime): LimitReached when all are taken. Give it back with
    ``give_back_live_slot``; it expires by itself if its process dies. None: no limit."""
    limit = settings.LIVE_CONNECTIONS_PER_ADDRESS
    if not limit:
        return None
    network = clients.client_network(request)
    keys = [f"limits:live:{network}:{n}" for n in range(limit)]
    mine = uuid.uuid4().hex
    # Whole seconds: Redis expiries are, and a fraction cut to 0 would keep no slot at all.
    timeout = math.ceil(seconds + LIVE_GRACE_SECONDS)
    taken = cache.get_many(keys)
    # add() is atomic on every cache backend: two requests never hold one slot.
    slot = next((k for k in keys if k not in taken and cache.add(k, mine, timeout)), None)
    if slot is None:
        raise LimitReached(str(TOO_MANY_LIVE))
    return slot, mine


TOO_MANY_LIVE = gettext_lazy(
    "Too many pages of tables are open from your connection. Close some, please."
)


class LiveHere:
    """This process's live requests (streams and long polls) by client network, counted
    on arrival, before anything else is done for them (``web.live.app``): one past
    ``LIVE_CONNECTIONS_PER_ADDRESS`` here would be refused by the address's slots too
    (``take_live_slot``, which counts every process's), so a script is refused at once."""

    def __init__(self):
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def enter(self, network: str, limit: int | None = None) -> bool:
        """One more of ``network``'s, unless it has ``limit`` already (by default
        ``LIVE_CONNECTIONS_PER_ADDRESS``; 0: no limit)."""
        if limit is None:
            limit = settings.LIVE_CONNECTIONS_PER_ADDRESS
        with self._lock:
            count = self._open.get(network, 0)
            if limit and count >= limit:
                return False
            self._open[network] = count + 1
            return True

    def leave(self, network: str) -> None:
        with self._lock:
            count = self._open.pop(network, 0) - 1
            if count > 0:
                self._open[network] = count

    def open(self, network: str) -> int:
        with self._lock:
            return self._open.get(network, 0)


live_here = LiveHere()
refusals_held = LiveHere()


async def hold_refusal(request, seconds: float | None = None) -> None:
    """Waits before a live request refused for its address's limits (its rate, its live
    connections) is answered: ``LIVE_REFUSAL_SECONDS``, or ``seconds`` (the rate's own
    wait) when shorter, on the event loop (a socket and a coroutine, no thread, nothing
    read). A script that reopens its refused polls at once, whatever Retry-After says,
    then asks once per wait instead of several times a second: under the abuse bench such
    refusals were most of the ``live`` service's requests, each a connection, a parse and
    an answer, on both sides of the same two cores. ``REFUSALS_HELD_PER_ADDRESS`` at most
    per address and process: past them a refusal is answered at once. Under WSGI (a thread
    held) it is answered at once. A person's page refused so (many tabs from one address)
    shows the same message, a moment later."""
    limit = settings.LIVE_REFUSAL_SECONDS
    seconds = limit if seconds is None else min(seconds, limit)
    if seconds <= 0 or not isinstance(request, ASGIRequest):
        return
    network = clients.client_network(request)
    if not refusals_held.enter(network, REFUSALS_HELD_PER_ADDRESS):
        return
    try:
        await asyncio.sleep(seconds)
    finally:
        refusals_held.leave(network)


def give_back_live_slot(slot: tuple[str, str] | None) -> None:
    if slot is None:
        return
    key, mine = slot
    if cache.get(key) == mine:  # not a later request's, after this one's expired
        cache.delete(key)


_parked_lock = threading.Lock()
_parked = 0


@contextlib.contextmanager
def parked_poll() -> Iterator[bool]:
    """A place for one long poll to wait in this process: True while it holds one, False
    when ``LONG_POLLS_PER_PROCESS`` polls already wait here (the caller answers at once
    instead of waiting). The rest of the process's threads stay free for moves, the
    webhook, the admin and the health check, whoever holds the polls."""
    global _parked
    limit = settings.LONG_POLLS_PER_PROCESS
    with _parked_lock:
        placed = not limit or _parked < limit
        if placed:
            _parked += 1
    try:
        yield placed
    finally:
        if placed:
            with _parked_lock:
                _parked -= 1
