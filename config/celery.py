"""The Celery app. Configured from Django settings under the ``CELERY_`` namespace."""

import contextvars
import os

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun, worker_init, worker_process_init
from django.db.backends.signals import connection_created

from server import background, logcontext, metrics, niceness

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class InProcessTask(Task):
    """A task that, without a broker, runs on a background thread of its queue rather than
    at the call site when ``TASKS_IN_PROCESS`` says so (``server/background.py``). A task
    whose result is awaited (the health ping) still runs at the call site."""

    def apply_async(self, args=None, kwargs=None, task_id=None, **options):
        if self.ignore_result and background.wanted(self.app):
            background.submit(self, args, kwargs, options.get("countdown"), options.get("priority"))
            return None
        return super().apply_async(args, kwargs, task_id=task_id, **options)


app = Celery("catclub", task_cls=InProcessTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
def drop_unusable_connections(task=None, **kwargs) -> None:
    """What Django does at the start of every request, for tasks: connections reused across
    tasks are dropped when they are past their age or no longer work. Not for a task run
    in-process (eagerly): its caller's connection, maybe mid-transaction, is not ours."""
    from django.db import connections  # here: Celery loads this module before Django

    if task is not None and getattr(task.request, "is_eager", False):
        return
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


# The log context of each running task about a game, to restore when it ends (a task run
# in-process must give its caller's context back).
_game_tokens: dict[str, contextvars.Token[int | None]] = {}


@task_prerun.connect
def note_the_game(task_id=None, task=None, args=None, kwargs=None, **extra) -> None:
    """Every line a task about a game logs carries the game's id (the processor's and the
    sync's first argument is the game)."""
    game = (kwargs or {}).get("game_id", args[0] if args else None)
    if task is not None and task.name in GAME_TASKS and isinstance(game, int):
        _game_tokens[task_id] = logcontext.game_id.set(game)


@task_postrun.connect
def task_done(task_id=None, task=None, state=None, **extra) -> None:
    token = _game_tokens.pop(task_id, None)
    if token is not None:
        logcontext.game_id.reset(token)
    # Periodic tasks leave a trace, so that an alert sees when they stop (docs/runbook.md).
    periodic = {entry["task"] for entry in app.conf.beat_schedule.values()}
    if task is not None and task.name in periodic and state == "SUCCESS":
        metrics.periodic_task_ran(task.name)


@worker_init.connect
def niced_against_every_service(**kwargs) -> None:
    """A worker started niced (the computers' and the reviews', docker-compose.yml) is
    niced against the web and the other workers too (``server/niceness.py``)."""
    niceness.share_with_session()


@worker_process_init.connect  # sent by the solo pool too (not by the tests' thread pools)
def bound_database_statements(**kwargs) -> None:
    """In a worker, no database statement waits forever (WORKER_STATEMENT_TIMEOUT)."""
    connection_created.connect(set_statement_timeout, dispatch_uid="worker-statement-timeout")


def set_statement_timeout(sender=None, connection=None, **kwargs) -> None:
    from django.conf import settings  # here: Celery loads this module before Django

    if connection is not None and connection.vendor == "postgresql":
        milliseconds = int(settings.WORKER_STATEMENT_TIMEOUT * 1000)
        with connection.cursor() as cursor:
            cursor.execute(f"SET statement_timeout = {milliseconds}")


GAME_TASKS = {
    "games.tasks.process_game",
    "games.tasks.decide_game",
    "bot.tasks.sync_game",
    "games.tasks.game_finished",
}
