"""The Celery app as ``python -m bench pipeline`` runs it: the same app, plus a count of
every database query its tasks make, added up in Redis for the benchmark to read."""

import os
import signal
import subprocess
import sys
import time

import redis
from celery.signals import task_postrun, task_prerun, worker_process_init
from django.conf import settings
from django.db import connection

from config.celery import app
from games.play.signals import game_updated

__all__ = ["app"]

COUNTER_KEY = "bench_pipeline:worker_queries"
UPDATES_CHANNEL = "bench_pipeline:updated"
_count = {"n": 0}
_redis = {}


def _counting(execute, sql, params, many, context):
    _count["n"] += 1
    return execute(sql, params, many, context)


@worker_process_init.connect
def install_counter(**kwargs):
    # The wrapper list belongs to the connection object, which outlives reconnects.
    connection.execute_wrappers.append(_counting)
    # The simulated players wait for this, as the bot waits for Telegram updates.
    game_updated.connect(_announce, dispatch_uid="bench_pipeline")


def _client():
    if "client" not in _redis:
        _redis["client"] = redis.Redis.from_url(settings.REDIS_URL)
    return _redis["client"]


def _announce(sender, game_id, **kwargs):
    _client().publish(UPDATES_CHANNEL, game_id)


@task_prerun.connect
def reset(**kwargs):
    _count["n"] = 0


@task_postrun.connect
def report(**kwargs):
    if _count["n"]:
        _client().incrby(COUNTER_KEY, _count["n"])


def start_workers(
    count: int, pool: str = "solo", concurrency: int = 1, label: str = "bench", quiet: bool = False
) -> list[subprocess.Popen]:
    """``count`` Celery worker processes of this app, as production runs its game,
    computer and sync workers, each in a process group of its own; returns once they all
    answer a ping (RuntimeError after a minute). ``quiet``: without their banners on the
    standard output (their warnings and errors still show)."""
    procs = []
    for i in range(count):
        command = [
            *(sys.executable, "-m", "celery", "-A", "bench.harness.workers", "worker"),
            *(f"--pool={pool}", f"--concurrency={concurrency}"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
            *("--loglevel=WARNING", "-n", f"{label}{i}-{os.getpid()}@%h"),
            # The queues of production's game, computer and sync workers; the reviews'
            # own worker is not part of the move pipeline.
            "-Q",
            ",".join((settings.GAMES_QUEUE, settings.COMPUTERS_QUEUE, settings.TELEGRAM_QUEUE)),
        ]
        procs.append(
            subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                # No post-game reviews: production gives them a niced worker of their
                # own, and half a minute of search per finished game is not the
                # pipeline's figure.
                env={**os.environ, "CELERY_TASK_ALWAYS_EAGER": "0", "REVIEWS": "0"},
                start_new_session=True,
                stdout=subprocess.DEVNULL if quiet else None,
            )
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if len(app.control.ping(timeout=0.5)) >= count:
            return procs
    stop_workers(procs)
    raise RuntimeError("the workers did not start")


def stop_workers(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        proc.wait(30)
