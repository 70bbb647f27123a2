"""Work done in a process of its own beside the site's, on the embedded default (issue 25).

There one process serves every request, runs every game step and holds Python's
interpreter lock for all of them: a second core stays idle while requests wait for the
lock. Work that is pure computation on what the database holds (a hard computer's search,
a table's render) is sent instead to a child process, which reads the database itself,
as a Celery worker does, and sends back only its small result.

A child is started on first use (``spawn``: the site's process has threads, which a fork
would not carry) and kept; it ends when the site does (``follow_parent``). If it dies, the
call that was waiting gets ``BrokenProcessPool`` and the next call starts another.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.db import connection

log = logging.getLogger(__name__)

__all__ = ["BrokenProcessPool", "ChildProcess", "follow_parent"]


class ChildProcess:
    """A pool of ``workers()`` child processes for ``name``, at ``niceness`` below the
    site's priority, started on first use."""

    def __init__(self, name: str, workers: Callable[[], int], niceness: int = 0):
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the child (both must pickle: a module's function and
        plain values), waiting for its result."""
        pool = self._started()
        try:
            return pool.submit(_run, function, *args).result()
        except BrokenProcessPool:
            self._forget(pool)
            raise

    def pids(self) -> set[int]:
        pool = self._pool
        return set(pool._processes or ()) if pool is not None else set()

    def stop(self) -> None:
        """End the children (tests: each starts with none)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers(),
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start,
                    # The site's database as this process opened it (a test's, under tests).
                    initargs=(connection.settings_dict["NAME"], self.niceness, os.getpid()),
                )
            return self._pool

    def _forget(self, pool: ProcessPoolExecutor) -> None:
        """The child died (killed, out of memory): the next call starts another."""
        log.warning("the %s process died; starting another", self.name)
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)


def _start(database: str, niceness: int, site: int) -> None:  # in the child
    if niceness:
        os.nice(niceness)
    follow_parent(site)
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = database
    import django

    django.setup()


def _run(function: Callable[..., Any], *args: Any) -> Any:  # in the child
    from django.db import close_old_connections

    # Outside any request nothing else drops a connection that broke or outlived
    # CONN_MAX_AGE: the child keeps one from one call to the next, as a worker does.
    close_old_connections()
    return function(*args)


def follow_parent(parent: int, every: float = 1.0) -> None:
    """End this process when ``parent``, the process that started it, is gone. The pool's
    child holds both ends of its own task pipe, so it never reads the end of it: a site
    killed outright, or stopped while it was starting a child, left the child behind for
    ever. ``parent`` comes from the site, not from ``os.getppid()`` here: a site that ended
    while the child was starting had already handed it to init, whose id the child then
    took for its parent's and watched for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="follow-parent").start()
