"""The Celery app. Configured from Django settings under the ``CELERY_`` namespace."""

import os

from celery import Celery
from celery.signals import task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("catclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
def drop_unusable_connections(**kwargs) -> None:
    """What Django does at the start of every request, for tasks: connections reused across
    tasks are dropped when they are past their age or no longer work."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()
