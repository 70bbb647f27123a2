"""Coarse timers for the live pages' many waits: one ticker per event loop, however many
pages wait (issue 24).

Each waiting page has a deadline (its next heartbeat, its poll's end) and each send a
limit (``LIVE_SEND_SECONDS``). As asyncio timers (``asyncio.timeout``, ``call_at``) that
was two timers made and cancelled per page for every change; under uvloop, making a timer
is a libuv handle, and with 5000 pages they were a quarter of the live process's loop.
Here a due time is an entry in a dict, and one ticker looks at them every ``TICK``
seconds: a wait ends up to ``TICK`` late, which no heartbeat or poll minds.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

TICK = 0.1


class Clock:
    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self._due: dict[int, tuple[float, Callable[[], object]]] = {}
        self._ids = itertools.count()
        self._ticking: asyncio.Task | None = None

    def after(self, seconds: float, callback: Callable[[], object]) -> int:
        """Calls ``callback`` in about ``seconds`` (up to ``TICK`` later); the handle
        cancels it (``cancel``)."""
        handle = next(self._ids)
        self._due[handle] = (self.loop.time() + seconds, callback)
        if self._ticking is None or self._ticking.done():
            self._ticking = self.loop.create_task(self._tick())
        return handle

    def cancel(self, handle: int) -> None:
        self._due.pop(handle, None)

    async def _tick(self) -> None:
        while self._due:
            await asyncio.sleep(TICK)
            now = self.loop.time()
            for handle, (when, callback) in list(self._due.items()):
                if when <= now and self._due.pop(handle, None) is not None:
                    callback()


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
