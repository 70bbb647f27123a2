"""A task round-trips through a real worker and Redis."""

from games.play.tasks import ping


def test_task_round_trips_through_a_real_worker(celery_worker):
    result = ping.delay("meow")
    assert result.get(timeout=20) == "meow"
    assert result.successful()


def test_tasks_run_in_process_without_a_broker(settings):
    # The embedded default (no REDIS_URL): tasks run eagerly at the call site.
    assert ping.delay("purr").get(timeout=1) == "purr"
