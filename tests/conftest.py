import pytest

from tests import services
from tests.workers import worker_in_this_process


@pytest.fixture(autouse=True)
def own_metrics_file(settings, tmp_path):
    """Without Redis the metrics live in a file of the machine: each test counts in its
    own (as each test's rate windows do)."""
    from server import metrics

    settings.METRICS_FILE = tmp_path / "metrics.json"
    metrics.reset_store()
    yield
    metrics.reset_store()


@pytest.fixture(autouse=True)
def not_a_worker():
    """A test starts in a process that is not a Celery worker: an in-process worker of an
    earlier test (``tests.workers.worker_in_this_process``) marks the process as one where
    waiting for a result would block, and on a loaded machine a pool thread it left may
    set that mark again after the worker stopped."""
    from celery.result import _set_task_join_will_block

    _set_task_join_will_block(False)


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
    with worker_in_this_process(concurrency=2) as app:
        yield app


@pytest.fixture
def quick_hard(monkeypatch):
    """Hard (searching) computers think a few playouts only, so a test with hard seats
    stays fast; the games' players are changed for this test alone."""
    from games import catalog

    for kind in catalog.all_games():
        found = kind.strategies()
        if hasattr(found.get("hard"), "with_budget"):
            monkeypatch.setitem(found, "hard", found["hard"].with_budget(0.05, iterations=4))
