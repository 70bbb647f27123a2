"""Tasks run in this process, without a broker, off their caller's thread: the embedded
default's "background" in-process mode (``TASKS_IN_PROCESS``, issue 25).

Celery's eager mode runs a task where it is queued. In the bot that is the one thread all
the handlers' database work shares (``sync_to_async(thread_sensitive=True)``), so a game
step, or a Telegram sync waiting for its chat's send window, held up every tap of every
group; in the web server it is the request's thread. Here each queue of
``CELERY_TASK_ROUTES`` (game work, the Telegram syncs) has one worker thread of its own and
runs its tasks in the order they were queued, as a solo worker does: one game step at a
time, a game's steps in order, and a slow sync never delays a step. The syncs' queue has a
few threads (``TASKS_IN_PROCESS_THREADS``), as it has a few workers with a broker: a sync
waits for its chat's send window, and one busy group must not hold back the others' tables
(a game is never synced by two at once: its sync holds a lock, ``bot/sync.py``).

Nothing is lost that a broker would keep: a task that fails is logged, and what it left
(pending moves, a game whose computers are still to act, a sync) is found again by the
periodic sweep and ``recover_syncs``, as after a lost task. At exit the queues are given a
few seconds to drain.
"""

from __future__ import annotations

import atexit
import contextlib
import fnmatch
import itertools
import json
import logging
import queue
import subprocess
import sys
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections

log = logging.getLogger(__name__)

# Seconds the queues are given to finish their tasks when the process exits.
DRAIN_SECONDS = 5.0
# How much lower a child process's priority is than the site's (see _in_child).
CHILD_NICENESS = 10
# How long a queue's thread keeps its database connection (then opens a fresh one).
KEEP_CONNECTION_SECONDS = 60.0

_local = threading.local()
_lock = threading.Lock()
_queues: dict[str, queue.PriorityQueue] = {}
_threads: list[threading.Thread] = []


@contextlib.contextmanager
def synchronous():
    """Run the tasks this thread queues at the call site meanwhile (for a command that
    plays games itself and reads their results at once, such as the demo's)."""
    before = getattr(_local, "synchronous", False)
    _local.synchronous = True
    try:
        yield
    finally:
        _local.synchronous = before


def wanted(app) -> bool:
    """Whether a task queued now goes to a background thread."""
    return (
        app.conf.task_always_eager
        and settings.TASKS_IN_PROCESS == "background"
        and not getattr(_local, "synchronous", False)
    )


def queue_of(task_name: str) -> str:
    """The queue a task is routed to (its worker thread), as a broker would route it."""
    for pattern, route in settings.CELERY_TASK_ROUTES.items():
        if fnmatch.fnmatchcase(task_name, pattern):
            return route["queue"]
    return settings.CELERY_TASK_DEFAULT_QUEUE


def submit(task, args, kwargs, countdown: float | None = None, priority: int | None = None) -> None:
    """Queue ``task`` on its queue's thread (after ``countdown`` seconds, if given). As on
    the broker, a lower ``priority`` runs first (None: 0, the highest), in order within one."""
    item = (priority or 0, next(_order), (task, tuple(args or ()), dict(kwargs or {})))
    target = _queue(queue_of(task.name))
    if countdown and countdown > 0:
        timer = threading.Timer(countdown, target.put, (item,))
        timer.daemon = True
        timer.start()
    else:
        target.put(item)


_order = itertools.count()  # queued first, run first, within one priority
# Last of all: a thread's stop.
STOP = (float("inf"), 0, None)


def _queue(name: str) -> queue.PriorityQueue:
    with _lock:
        found = _queues.get(name)
        if found is None:
            found = _queues[name] = queue.PriorityQueue()
            if not _threads:
                atexit.register(drain)
            for n in range(settings.TASKS_IN_PROCESS_THREADS.get(name, 1)):
                thread = threading.Thread(
                    target=_work, args=(name, found), name=f"tasks-{name}-{n}", daemon=True
                )
                thread.start()
                _threads.append(thread)
        return found


def _work(name: str, tasks: queue.PriorityQueue) -> None:
    while True:
        _priority, _n, item = tasks.get()
        try:
            if item is None:
                return
            task, args, kwargs = item
            try:
                if name in settings.TASKS_IN_CHILD_PROCESS:
                    _in_child(task, args, kwargs)
                else:
                    _here(task, args, kwargs)
            except Exception:
                # Whatever failed, the thread lives on: the queue's next task still runs.
                log.exception("in-process task %s%s failed; the sweep retries", task.name, args)
        finally:
            tasks.task_done()


def _here(task, args: tuple, kwargs: dict) -> None:
    _keep_connections()
    close_old_connections()  # as around a request: a broken one is dropped
    task.apply(args, kwargs)


def _in_child(task, args: tuple, kwargs: dict) -> None:
    """Run the task in a child process (``manage.py run_task``), niced: long CPU work
    that must not share this process's interpreter lock. Its time limit is the task's."""
    command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_task", task.name]
    given = json.dumps({"args": list(args), "kwargs": kwargs})
    subprocess.run(
        [*command, given, f"--nice={CHILD_NICENESS}"],
        check=True,
        timeout=task.time_limit or settings.CELERY_TASK_TIME_LIMIT,
        stdin=subprocess.DEVNULL,
    )


def _keep_connections() -> None:
    """A queue's thread lives as long as the process: its database connection is kept
    from one task to the next for ``KEEP_CONNECTION_SECONDS`` (``CONN_MAX_AGE`` is 0 on the
    embedded default, where a request's thread is its own and ends with it). Closing and
    opening SQLite around every task was an eighth of a game step."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and getattr(conn, "_kept", None) is not conn.connection:
            # The connection object this process keeps (an attribute of our own on Django's).
            conn._kept = conn.connection  # type: ignore[attr-defined]
            conn.close_at = time.monotonic() + KEEP_CONNECTION_SECONDS


def idle(timeout: float) -> bool:
    """Wait until every queue is empty and its thread idle (at most ``timeout`` s).
    True if they are."""
    done = threading.Event()

    def join_all() -> None:
        for tasks in list(_queues.values()):
            tasks.join()
        done.set()

    threading.Thread(target=join_all, daemon=True).start()
    return done.wait(timeout)


def drain() -> None:
    """At exit: let the queued tasks finish (for a while), then stop the threads."""
    idle(DRAIN_SECONDS)
    for name, tasks in list(_queues.items()):
        for _n in range(settings.TASKS_IN_PROCESS_THREADS.get(name, 1)):
            tasks.put(STOP)
    for thread in _threads:
        thread.join(1.0)


# --- The schedule (Celery beat's part) ------------------------------------------------------
class Beat:
    """Celery beat's part on the embedded default (no broker, no beat process): every entry
    of ``CELERY_BEAT_SCHEDULE``, each at its own period, read from the schedule itself, so
    an entry added there runs on every backend (issue 45: a stand-in that ran the sweep
    alone never started a tournament at its time).

    A due entry runs on the schedule's thread, one after the other, as a queue's thread
    runs its tasks (the task's signals and its metric, a broken connection dropped): an
    entry that overran is not queued again behind itself, which is what each entry's
    ``expires`` asks of a broker. ``tick`` runs what is due at ``now`` (``clock`` by
    default); ``run`` ticks until ``stop`` is set."""

    def __init__(self, schedule: dict | None = None, clock=time.monotonic) -> None:
        self.schedule = dict(settings.CELERY_BEAT_SCHEDULE if schedule is None else schedule)
        self.clock = clock
        start = clock()
        # An entry first runs one period after the start, as beat's first round does.
        self.due = {name: start + _period(entry) for name, entry in self.schedule.items()}
        self.tasks: dict[str, Any] = {}  # each entry's task, found at its first run

    def tick(self, now: float | None = None) -> list[str]:
        """Run every entry that is due; the names of those that ran (failed ones too: the
        failure is logged, the next period runs it again)."""
        now = self.clock() if now is None else now
        ran = []
        for name, entry in self.schedule.items():
            if self.due[name] > now:
                continue
            # The next run is a period after this one, not after each missed one: a long
            # pause runs an entry once, not once per period missed.
            self.due[name] = now + _period(entry)
            ran.append(name)
            try:
                task = self.tasks.get(name) or self.tasks.setdefault(name, _task(entry["task"]))
                _keep_connections()
                for conn in connections.all(initialized_only=True):
                    # As around a request, a broken connection is dropped; not one its
                    # thread is in a transaction with (a caller's, or a test's).
                    if not conn.in_atomic_block:
                        conn.close_if_unusable_or_obsolete()
                task.apply(tuple(entry.get("args", ())), dict(entry.get("kwargs", {})))
            except Exception:
                log.exception("scheduled task %s (%s) failed", name, entry["task"])
        return ran

    def next_due(self) -> float:
        return min(self.due.values(), default=self.clock() + 1.0)

    def run(self, stop: threading.Event | None = None) -> None:
        stop = stop or threading.Event()
        try:
            while not stop.is_set():
                stop.wait(max(0.0, self.next_due() - self.clock()))
                if not stop.is_set():
                    self.tick()
        finally:
            connections.close_all()  # this thread's own


def run_schedule() -> None:
    """The embedded server's schedule thread (``manage.py start``)."""
    Beat().run()


def _period(entry: dict) -> float:
    schedule = entry["schedule"]
    if isinstance(schedule, (int, float)):
        return float(schedule)
    if isinstance(schedule, timedelta):
        return schedule.total_seconds()
    # A celery schedule object (a crontab): the seconds until it is next due (at least one,
    # so that an entry due at once is not run again in the same second).
    return max(1.0, schedule.remaining_estimate(schedule.now()).total_seconds())


def _task(name: str):
    # The project's app, the current one once config.celery has run (as the start command
    # and the workers have it); not imported, since config.celery imports this module.
    from celery import current_app as app

    app.loader.import_default_modules()  # the autodiscovered tasks, as a worker has them
    return app.tasks[name]
