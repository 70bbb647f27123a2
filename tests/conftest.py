import pytest

from tests import services


@pytest.fixture
def redis_url() -> str:
    """The Redis URL of the running service (skips outside CI when there is none)."""
    return services.redis_url()


@pytest.fixture
def postgres() -> None:
    """Requires the test database to be PostgreSQL (skips outside CI otherwise)."""
    services.require_postgres()


@pytest.fixture
def celery_worker(redis_url, transactional_db):
    """A real Celery worker (threads, in this process) consuming from Redis."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    app.conf.task_always_eager = False
    try:
        with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False):
            yield app
    finally:
        app.conf.task_always_eager = True


@pytest.fixture
def quick_hard(monkeypatch):
    """Hard (searching) computers think a few playouts only, so a test with hard seats
    stays fast; the games' players are changed for this test alone."""
    from games import catalog

    for kind in catalog.all_games():
        found = kind.strategies()
        if hasattr(found.get("hard"), "with_budget"):
            monkeypatch.setitem(found, "hard", found["hard"].with_budget(0.05, iterations=4))
