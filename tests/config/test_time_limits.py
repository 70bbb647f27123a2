"""Issue 16: the task time limits are enforced where tasks may block. The sync workers
run a prefork pool (docker-compose.yml), which kills a task past CELERY_TASK_TIME_LIMIT
and goes on with the next; proven here against a real worker process and Redis.

The limits travel in each task's message, from the settings of whoever queued it (Celery
binds CELERY_TASK_TIME_LIMIT to every task), so the test shortens them on its messages."""

import time

import pytest
from celery.exceptions import TimeLimitExceeded
from django.conf import settings

from games.play.tasks import ping
from tests.hanging_worker import hang
from tests.waiting import wait_until
from tests.workers import WorkerProcess

pytestmark = [pytest.mark.services]


@pytest.fixture
def sync_worker(postgres, redis_url, transactional_db, tmp_path):
    """A worker like compose's sync-worker: prefork, the Telegram queue."""
    from config.celery import app

    app.conf.task_always_eager = False
    worker = WorkerProcess(
        "tests.hanging_worker",
        log_dir=tmp_path,
        queues=[settings.TELEGRAM_QUEUE],
        pool="prefork",
        concurrency=1,
    ).start()
    yield worker
    worker.stop()
    app.conf.task_always_eager = True


def test_a_task_past_its_hard_time_limit_is_killed_and_the_worker_goes_on(sync_worker, tmp_path):
    started = tmp_path / "started"
    stuck = hang.apply_async(
        (60, str(started)), queue=settings.TELEGRAM_QUEUE, soft_time_limit=1, time_limit=2
    )
    wait_until(started.exists, timeout=20, what="the worker busy with the hanging task")
    since = time.monotonic()
    following = ping.apply_async(("next",), queue=settings.TELEGRAM_QUEUE)
    assert following.get(timeout=20) == "next", sync_worker.log()
    waited = time.monotonic() - since
    # The one process was busy: the next task ran once the hard limit (2 s) freed it.
    assert 1.5 < waited < 10, waited
    assert isinstance(stuck.get(timeout=5, propagate=False), TimeLimitExceeded)
    assert "Hard time limit (2" in sync_worker.log()


def test_every_task_carries_the_configured_time_limits(settings):
    from bot.sync import sync_game

    assert (sync_game.soft_time_limit, sync_game.time_limit) == (
        settings.CELERY_TASK_SOFT_TIME_LIMIT,
        settings.CELERY_TASK_TIME_LIMIT,
    )


def test_a_game_task_waiting_on_a_lock_gives_up_and_the_solo_worker_goes_on(
    postgres, redis_url, transactional_db, tmp_path
):
    """The game workers' solo pool cannot kill a task: there, no database statement may
    wait longer than WORKER_STATEMENT_TIMEOUT. A processor stuck on a game's row lock
    fails after it; the worker takes the next task."""
    import threading

    import psycopg

    from config.celery import app
    from games.play.tasks import process_game
    from tests.config.test_metrics import a_person_and_a_computer
    from tests.workers import test_database_url

    game, _anna = a_person_and_a_computer()
    app.conf.task_always_eager = False
    worker = WorkerProcess(
        log_dir=tmp_path, queues=[settings.GAMES_QUEUE], WORKER_STATEMENT_TIMEOUT="1"
    ).start()
    locked, release = threading.Event(), threading.Event()

    def hold_the_game() -> None:  # a transaction that never ends, elsewhere
        with psycopg.connect(test_database_url()) as other, other.transaction():
            other.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
            locked.set()
            release.wait(60)

    holder = threading.Thread(target=hold_the_game)
    holder.start()
    try:
        assert locked.wait(10)
        stuck = process_game.apply_async((game.pk,), ignore_result=False)
        since = time.monotonic()
        assert ping.delay("next").get(timeout=20) == "next", worker.log()
        assert time.monotonic() - since < 10
        stuck.get(timeout=5, propagate=False)
        assert stuck.failed()
        assert "statement timeout" in worker.log()
    finally:
        release.set()
        holder.join(10)
        worker.stop()
        app.conf.task_always_eager = True
