"""The searching computers' decisions made in a process of their own, beside the site, on
the embedded default (``SEARCH_IN_CHILD_PROCESS``; issue 25).

There one process serves every request and runs every game step. A hard computer's
search is seconds of pure Python: in that process it held the interpreter lock from the
event loop and from every request's thread, and a person's click took seconds to reach
their screen while a hostile visitor's tables of hard computers played (bench abuse,
``--kinds hard_tables``). A child process searches instead, at a lower priority, on the
other core: only the decision, a small dict, comes back. The step that applies it, and
the notification of the change to the pages, stay in the site's process.

The child is started once (``spawn``: the site's process has threads, which a fork would
not carry) and kept; it reads the game from the database itself, as a Celery worker does.
If it dies, the next decision starts another. With a broker the computers' Celery worker is
a process of its own already: the decision is made where the task runs.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

# How much lower the child's priority is than the site's: a person's request comes first.
NICENESS = 10

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def decide(game_id: int, timeout_version: int | None) -> dict | None:
    """``processing.decide``, in the child process when the settings ask for one."""
    if not settings.SEARCH_IN_CHILD_PROCESS:
        return _decide(game_id, timeout_version)
    pool = _child()
    try:
        return pool.submit(_decide_in_child, game_id, timeout_version).result()
    except BrokenProcessPool:
        _forget(pool)
        raise


def _child() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=settings.TASKS_IN_PROCESS_THREADS[settings.COMPUTERS_QUEUE],
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                # The site's database as this process opened it (a test's, under tests).
                initargs=(connection.settings_dict["NAME"],),
            )
        return _pool


def _forget(pool: ProcessPoolExecutor) -> None:
    """The child died (killed, out of memory): the next decision starts another; the task
    that asked fails and the sweep queues its game again."""
    global _pool
    log.warning("the computers' search process died; starting another")
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def _start(database: str) -> None:  # in the child
    os.nice(NICENESS)
    follow_parent()
    settings.DATABASES["default"]["NAME"] = database
    import django

    django.setup()


def follow_parent(every: float = 1.0) -> None:
    """End this process when the one that started it is gone. The pool's child holds both
    ends of its own task pipe, so it never reads the end of it: a site killed outright, or
    stopped while it was starting a child, left the child behind for ever."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="follow-parent").start()


def _decide_in_child(game_id: int, timeout_version: int | None) -> dict | None:
    from django.db import close_old_connections

    # Outside any request nothing else drops a connection that broke or outlived
    # CONN_MAX_AGE: the child keeps one from one decision to the next, as a worker does.
    close_old_connections()
    return _decide(game_id, timeout_version)


def _decide(game_id: int, timeout_version: int | None) -> dict | None:
    # Imported here: the child imports this module before Django is set up (``_start``).
    from . import processing

    return processing.decide(game_id, timeout_version)
