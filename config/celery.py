"""The Celery app. Configured from Django settings under the ``CELERY_`` namespace."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("catclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
