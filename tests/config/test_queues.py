"""Issue 16, no starving: game work and Telegram syncs go to queues of their own, by task
name, each consumed by its own workers (docker-compose.yml: worker, sync-worker)."""

import pytest
import redis
from django.conf import settings

from config.celery import app
from games.play.tasks import ping
from tests.workers import WorkerProcess


def queue_of(task_name: str) -> str:
    return app.amqp.router.route({}, task_name)["queue"].name


def test_each_task_goes_to_its_own_queue():
    for name in ("games.tasks.process_game", "games.tasks.sweep", "games.tasks.game_finished"):
        assert queue_of(name) == settings.GAMES_QUEUE, name
    for name in ("bot.tasks.sync_game", "bot.tasks.recover_syncs"):
        assert queue_of(name) == settings.TELEGRAM_QUEUE, name
    # A test run owns both queues (CELERY_QUEUE), so runs sharing a Redis never mix.
    assert settings.GAMES_QUEUE.startswith("catclub-test-")


@pytest.mark.services
def test_a_backlog_of_syncs_does_not_hold_up_game_work(
    postgres, redis_url, transactional_db, tmp_path
):
    """Two hundred syncs wait in their queue; a game task still goes through, and
    the game worker took none of the syncs."""
    from bot.sync import sync_game

    app.conf.task_always_eager = False
    client = redis.Redis.from_url(redis_url)
    worker = WorkerProcess(log_dir=tmp_path, queues=[settings.GAMES_QUEUE]).start()
    try:
        for game_id in range(200):
            sync_game.apply_async((10**9 + game_id,))
        assert ping.delay("through").get(timeout=30) == "through"
        assert client.llen(settings.SITE_PREFIX + settings.TELEGRAM_QUEUE) == 200
    finally:
        worker.stop()
        client.delete(settings.SITE_PREFIX + settings.TELEGRAM_QUEUE)
        app.conf.task_always_eager = True
