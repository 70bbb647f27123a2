"""The Celery app. Configured from Django settings under the ``CELERY_`` namespace."""

import os

from celery import Celery
from celery.signals import task_prerun

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
