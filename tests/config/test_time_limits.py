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
