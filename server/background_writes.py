"""Writes that the work making them need not wait for: a table's change marker, the
operational metrics. One thread per process sends them, in the order they were made.

Each of them is a round trip to Redis. Made inline they were the two slowest calls of a
game's step after the database's own (about a fifth of it), paid by every move while the
game's lock or the worker was held. Nothing waits on them: a page that misses a marker
sees the change at its next look at the database (``web.live.changes``), a metric
that is lost is a count a little low.

A queue that fills up (Redis far slower than the work) drops the newest writes, counted
in the log, rather than grow without bound. ``BACKGROUND_WRITES = False`` (the tests)
makes every write at the call site, so that its effect is there when the call returns.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable

from django.conf import settings

log = logging.getLogger(__name__)

# Writes waiting at most: far more than a process makes in the seconds Redis may stall.
MAX_WAITING = 10_000
# At exit, how long the writes still waiting may take.
EXIT_SECONDS = 1.0

_lock = threading.Lock()
_queue: queue.Queue | None = None
_pid: int | None = None
_dropped = 0


def submit(write: Callable, *args) -> None:
    """Make ``write(*args)`` soon, in this process's writer thread (or now, see above)."""
    global _dropped
    if not settings.BACKGROUND_WRITES:
        _make(write, args)
        return
    try:
        _writes().put_nowait((write, args))
    except queue.Full:
        with _lock:
            _dropped += 1
            dropped = _dropped
        if dropped == 1 or dropped % 1000 == 0:
            log.warning("background writes: the queue is full; %s writes dropped", dropped)


def flush(seconds: float = EXIT_SECONDS) -> bool:
    """Wait until the writes made so far are sent, at most ``seconds``. Whether they were."""
    writes = _queue if _pid == os.getpid() else None
    deadline = time.monotonic() + seconds
    while writes is not None and writes.unfinished_tasks:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.005)
    return True


def _writes() -> queue.Queue:
    """This process's queue, with its thread: a forked child (a prefork worker, a web
    worker) starts its own, since threads do not survive a fork."""
    global _queue, _pid
    if _pid == os.getpid() and _queue is not None:
        return _queue
    with _lock:
        if _pid != os.getpid() or _queue is None:
            _queue = queue.Queue(maxsize=MAX_WAITING)
            threading.Thread(
                target=_send, args=(_queue,), name="background-writes", daemon=True
            ).start()
            _pid = os.getpid()
        return _queue


def _send(writes: queue.Queue) -> None:
    while True:
        write, args = writes.get()
        try:
            _make(write, args)
        finally:
            writes.task_done()


def _make(write: Callable, args: tuple) -> None:
    try:
        write(*args)
    except Exception:  # never worth failing the work that made it
        log.warning("background write %s failed", getattr(write, "__name__", write), exc_info=True)


atexit.register(flush)
