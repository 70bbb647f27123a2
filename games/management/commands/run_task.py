"""``manage.py run_task <name> '{"args": [...], "kwargs": {...}}'``: one task, here and now.

The embedded default runs the tasks of some queues this way, each in a child process of
its own (``TASKS_IN_CHILD_PROCESS``, ``server/background.py``); an operator may run one by
hand the same way.
"""

from __future__ import annotations

import json
import os

from celery import current_app
from django.core.management.base import BaseCommand, CommandError

from server import background


class Command(BaseCommand):
    help = "Runs one registered Celery task in this process, with JSON arguments."

    def add_arguments(self, parser):
        parser.add_argument("name", help="the task's registered name, e.g. games.tasks.review_game")
        parser.add_argument("arguments", nargs="?", default="{}", help='{"args": [], "kwargs": {}}')
        parser.add_argument("--nice", type=int, default=0, help="lower this process's priority")

    def handle(self, name, arguments, nice, **options):
        if nice > 0:
            os.nice(nice)
        task = current_app.tasks.get(name)
        if task is None:
            raise CommandError(f"There is no task named {name!r}.")
        try:
            given = json.loads(arguments)
            args, kwargs = list(given.get("args", [])), dict(given.get("kwargs", {}))
        except (ValueError, AttributeError, TypeError) as exc:
            raise CommandError(
                f'Arguments must be {{"args": [...], "kwargs": {{...}}}}: {exc}'
            ) from exc
        # What the task queues in turn runs here too, before the process ends.
        with background.synchronous():
            result = task.apply(args, kwargs)
        if result.failed():
            raise CommandError(f"{name} failed: {result.result!r}")
