"""The Celery app as ``python -m bench pipeline`` runs it: the same app, plus a count of
every database query its tasks make, added up in Redis for the benchmark to read."""

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
