"""Operational metrics: what the service does, counted where it happens, read by
Prometheus at ``/metrics`` (``server/metrics_page.py`` renders them).

Web, workers and bot run in many processes and containers, so the counts live in Redis
when it is configured (one hash; one round trip per event, made by the process's
writer thread: ``background_writes``), and every process adds to the
same numbers. Without Redis (the embedded default: the site and the bot are two processes
on one machine) they live in a file that both share (``METRICS_FILE``).
Counting never gets in the way of the work: a Redis that fails is left alone for a few
seconds and the events meanwhile are not counted.

Every metric is declared in ``METRICS``; the hooks below are the only writers.
"""

from __future__ import annotations

import atexit
import bisect
import functools
import json
import logging
import os
import threading
import time
from dataclasses import dataclass

from django.conf import settings

from server import background_writes, logcontext
from server.sharedfile import SharedJSON

log = logging.getLogger(__name__)

PREFIX = "catclub_"
# Seconds: a move from its submission to its application; a tap from its arrival to its
# answer. Both are usually well under 100 ms.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# After a Redis failure, events are not counted for this long (nothing waits on Redis).
PAUSE_AFTER_FAILURE = 5.0
# Without Redis: how long the events counted after a first one wait to be written with it.
WRITE_SECONDS = 0.5


@dataclass(frozen=True)
class Metric:
    kind: str  # counter, histogram or gauge
    help: str
    labels: tuple[str, ...] = ()


METRICS = {
    "moves_applied_total": Metric("counter", "Moves applied to a game (people and computers)."),
    "moves_rejected_total": Metric(
        "counter",
        "Moves refused: at submission (by the refusal's code) or by the processor.",
        ("reason",),
    ),
    "move_latency_seconds": Metric(
        "histogram", "A person's move, from its submission to its application."
    ),
    "telegram_calls_total": Metric(
        "counter", "Calls to the Bot API, by method and outcome.", ("method", "outcome")
    ),
    "syncs_coalesced_total": Metric(
        "counter", "Requests to sync a game's messages that rode on a sync already queued."
    ),
    "tap_answer_seconds": Metric(
        "histogram", "A button tap, from the update's arrival to its answer (count: taps)."
    ),
    "task_last_run_timestamp_seconds": Metric(
        "gauge", "When a periodic task last finished (Unix time).", ("task",)
    ),
}


def _field(name: str, labels: dict[str, str]) -> str:
    return json.dumps([name, sorted(labels.items())])


def parse_field(field: str | bytes) -> tuple[str, dict[str, str]]:
    name, labels = json.loads(field)
    return name, dict(labels)


class FileStore:
    """The counts in a file that every process of the machine shares (the embedded
    default, where the traffic is one club's, not a service's)."""

    def __init__(self, path):
        self._file = SharedJSON(path)
        self._lock = threading.Lock()
        self._forget_waiting()
        atexit.register(self._write)  # what still waits, at the process's end

    # Written by the process's writer thread, as Redis is: made inline, reading and
    # rewriting the file under its lock was a fifth of a game step on the embedded default.
    # What is counted within WRITE_SECONDS of a first event rides on one rewrite of the
    # file (under the abuse bench a rewrite per event took 3-4% of the embedded site's
    # process; a scrape comes every few seconds at most).
    def add(self, changes: list[tuple[str, str, float]]) -> None:
        with self._lock:
            self._in_this_process()
            for table, field, amount in changes:
                self._adds[table, field] = self._adds.get((table, field), 0) + amount
            queue = self._first_waiting()
        if queue:
            self._write_soon()

    def set(self, table: str, field: str, value: float) -> None:
        with self._lock:
            self._in_this_process()
            self._sets[table, field] = value
            queue = self._first_waiting()
        if queue:
            self._write_soon()

    def _forget_waiting(self) -> None:
        self._pid = os.getpid()
        self._adds: dict[tuple[str, str], float] = {}
        self._sets: dict[tuple[str, str], float] = {}
        self._queued = False

    def _in_this_process(self) -> None:
        """With _lock held: a forked child forgets what its parent had waiting (the
        parent writes it; the child's writer thread is a new one)."""
        if self._pid != os.getpid():
            self._forget_waiting()

    def _first_waiting(self) -> bool:
        """With _lock held: whether no write is queued for what waits (one is now)."""
        first, self._queued = not self._queued, True
        return first

    def _write_soon(self) -> None:
        if not settings.BACKGROUND_WRITES:
            self._write()
            return
        timer = threading.Timer(WRITE_SECONDS, background_writes.submit, (self._write,))
        timer.daemon = True
        timer.start()

    def _write(self) -> None:
        with self._lock:
            adds, sets = self._adds, self._sets
            self._adds, self._sets, self._queued = {}, {}, False
        if not (adds or sets):
            return
        with self._file.open() as tables:
            for (table, field), value in sets.items():  # gauges: the latest value
                tables.setdefault(table, {})[field] = value
            for (table, field), amount in adds.items():  # counters: the sum
                values = tables.setdefault(table, {})
                values[field] = values.get(field, 0) + amount

    def read(self, table: str) -> dict[str, float]:
        return dict(self._file.read().get(table, {}))


class RedisStore:
    """The same counts in Redis hashes, shared by every process."""

    def __init__(self, url: str):
        import redis  # here, not at the top: only a process with Redis configured needs it

        # Short timeouts: a metric must never hold a move or a tap for long.
        self._redis = redis.Redis.from_url(url, socket_timeout=0.25, socket_connect_timeout=0.25)
        self._paused_until = 0.0

    def _key(self, table: str) -> str:
        return f"{settings.SITE_PREFIX}{PREFIX}metrics:{table}"

    def _run(self, work) -> None:
        background_writes.submit(self._guarded, work)

    def _guarded(self, work) -> None:
        if time.monotonic() < self._paused_until:
            return
        try:
            work()
        except Exception as exc:  # counting is never worth failing the work for
            self._paused_until = time.monotonic() + PAUSE_AFTER_FAILURE
            log.warning("metrics not counted for %s s: %s", PAUSE_AFTER_FAILURE, exc)

    def add(self, changes: list[tuple[str, str, float]]) -> None:
        def work():
            pipe = self._redis.pipeline(transaction=False)
            for table, field, amount in changes:
                if float(amount).is_integer():
                    pipe.hincrby(self._key(table), field, int(amount))
                else:
                    pipe.hincrbyfloat(self._key(table), field, amount)
            pipe.execute()

        self._run(work)

    def set(self, table: str, field: str, value: float) -> None:
        self._run(lambda: self._redis.hset(self._key(table), field, value))

    def read(self, table: str) -> dict[str, float]:
        """Raises when Redis is down: the scrape says so rather than showing zeros."""
        # Bytes: the client decodes no responses (the stubs allow either).
        raw: dict[bytes, bytes] = self._redis.hgetall(self._key(table))  # type: ignore[assignment]
        return {k.decode(): float(v) for k, v in raw.items()}


_store: RedisStore | FileStore | None = None
_store_lock = threading.Lock()


def store():
    global _store
    with _store_lock:
        if _store is None:
            if settings.REDIS_URL:
                _store = RedisStore(settings.REDIS_URL)
            else:
                _store = FileStore(settings.METRICS_FILE)
        return _store


def reset_store() -> None:
    """Forget the store (the settings changed: tests)."""
    global _store
    with _store_lock:
        _store = None


# -- recording -------------------------------------------------------------------------
def inc(name: str, amount: float = 1, **labels: str) -> None:
    if changes := _counted(name, amount, **labels):
        store().add(changes)


def observe(name: str, seconds: float, **labels: str) -> None:
    """One observation of a histogram: its bucket, its sum and its count in one go."""
    store().add(_observed(name, seconds, **labels))


def _check_kind(name: str, kind: str) -> None:
    # Not an assert: a counter recorded as a gauge would corrupt the store under -O too.
    if METRICS[name].kind != kind:
        raise ValueError(f"{name} is a {METRICS[name].kind}, not a {kind}")


def _counted(name: str, amount: float, **labels: str) -> list[tuple[str, str, float]]:
    _check_kind(name, "counter")
    return [("counters", _field(name, labels), amount)] if amount else []


def _observed(name: str, seconds: float, **labels: str) -> list[tuple[str, str, float]]:
    _check_kind(name, "histogram")
    index = bisect.bisect_left(LATENCY_BUCKETS, seconds)
    bucket = str(LATENCY_BUCKETS[index]) if index < len(LATENCY_BUCKETS) else "+Inf"
    return [
        ("buckets", _field(name, {**labels, "le": bucket}), 1),
        ("sums", _field(name, labels), seconds),
    ]


def set_gauge(name: str, value: float, **labels: str) -> None:
    _check_kind(name, "gauge")
    store().set("gauges", _field(name, labels), value)


# -- the hooks, one call where each thing happens --------------------------------------
def moves_processed(report, pending) -> None:
    """After the processor committed: what it applied and refused, and how long each
    person's move waited since its submission (one round trip to the store)."""
    late = sum(1 for move in pending if move.status != "applied")
    changes = _counted("moves_applied_total", report.applied)
    changes += _counted("moves_rejected_total", late, reason="processor")
    for move in pending:
        if move.status == "applied" and move.processed_at and move.created_at:
            seconds = (move.processed_at - move.created_at).total_seconds()
            changes += _observed("move_latency_seconds", max(seconds, 0.0))
    if changes:
        store().add(changes)


def counts_refusals(submit):
    """Decorates the submission service: each refusal is counted by its code
    (``games.play.errors``: not_your_turn, stale_button, …) and raised on."""

    @functools.wraps(submit)
    def counted(*args, **kwargs):
        try:
            return submit(*args, **kwargs)
        except Exception as exc:
            if code := getattr(exc, "code", None):
                inc("moves_rejected_total", reason=code)
            raise

    return counted


def tap_answered() -> None:
    """A button tap was answered: how long since its update arrived."""
    if (seconds := logcontext.since_update_arrived()) is not None:
        observe("tap_answer_seconds", seconds)


def periodic_task_ran(task_name: str) -> None:
    set_gauge("task_last_run_timestamp_seconds", time.time(), task=task_name)
