"""Coarse timers for the live pages' many waits: one ticker per event loop, however many
pages wait (issue 24).

Each waiting page has a deadline (its next heartbeat, its poll's end) and each send a
limit (``LIVE_SEND_SECONDS``). As asyncio timers (``asyncio.timeout``, ``call_at``) that
was two timers made and cancelled per page for every change; under uvloop, making a timer
is a libuv handle, and with 5000 pages they were a quarter of the live process's loop.
Here a due time is an entry in a dict, in a slot of ``TICK`` seconds, and one ticker runs
the slots as they come due: a wait ends up to ``TICK`` late, which no heartbeat or poll
minds.
"""

from __future__ import annotations

import asyncio
import itertools
import math
from collections.abc import Callable

TICK = 0.1


class Clock:
    """Due callbacks in slots of ``TICK`` seconds: making and cancelling one is a dict
    entry, and a tick looks at the slots come due, not at every entry."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self._slots: dict[int, dict[int, Callable[[], object]]] = {}
        self._ids = itertools.count()
        self._done = self._slot(0.0) - 1  # the slots already run
        self._ticking: asyncio.Task | None = None

    def _slot(self, seconds: float) -> int:
        return math.ceil((self.loop.time() + seconds) / TICK)

    def after(self, seconds: float, callback: Callable[[], object]) -> tuple[int, int]:
        """Calls ``callback`` in about ``seconds`` (up to ``TICK`` later); the handle
        cancels it (``cancel``)."""
        handle = (max(self._slot(seconds), self._done + 1), next(self._ids))
        self._slots.setdefault(handle[0], {})[handle[1]] = callback
        if self._ticking is None or self._ticking.done():
            self._ticking = self.loop.create_task(self._tick())
        return handle

    def cancel(self, handle: tuple[int, int]) -> None:
        slot = self._slots.get(handle[0])
        if slot is not None:
            slot.pop(handle[1], None)
            if not slot:
                del self._slots[handle[0]]

    async def _tick(self) -> None:
        while self._slots:
            await asyncio.sleep(TICK)
            now = self._slot(0.0) - 1
            for number in range(self._done + 1, now + 1):
                for callback in self._slots.pop(number, {}).values():
                    callback()
            self._done = max(self._done, now)


_clocks: dict[asyncio.AbstractEventLoop, Clock] = {}


def of(loop: asyncio.AbstractEventLoop | None = None) -> Clock:
    """The clock of ``loop`` (the running one by default)."""
    loop = loop or asyncio.get_running_loop()
    found = _clocks.get(loop)
    if found is None:
        for closed in [other for other in _clocks if other.is_closed()]:
            del _clocks[closed]  # each test's loop, or a restarted server's
        found = _clocks[loop] = Clock(loop)
    return found
