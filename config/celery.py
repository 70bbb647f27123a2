"""The Celery app. Configured from Django settings under the ``CELERY_`` namespace."""

import logging
import os

from celery import Celery
from celery.signals import task_prerun, worker_init

from games import catalog

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("catclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
def drop_unusable_connections(task=None, **kwargs) -> None:
    """What Django does at the start of every request, for tasks: connections reused across
    tasks are dropped when they are past their age or no longer work. Not for a task run
    in-process (eagerly): its caller's connection, maybe mid-transaction, is not ours."""
    from django.db import connections

    if task is not None and getattr(task.request, "is_eager", False):
        return
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


@worker_init.connect
def load_engines(**kwargs) -> None:
    """Load every engine and computer player before the first task rather than in it: their
    tables take up to 50 ms to build, which the first moves of each game type would wait
    for. A broken engine is logged here and fails only its own games, as it would lazily."""

    for slug in catalog.slugs():
        try:
            kind = catalog.get(slug)
            assert kind.rules is not None
            kind.strategies()
        except Exception:
            logging.getLogger(__name__).exception("could not load the %s engine", slug)
