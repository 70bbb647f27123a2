"""Settings for the test suite: the real settings with a throwaway key and fast hashing.

The services are whatever the environment says (``DATABASE_URL``, ``REDIS_URL``): CI
points them at PostgreSQL and Redis, a newcomer's run uses SQLite and in-process tasks.
"""

import os
import tempfile

# Long enough for production settings (DEBUG is off here too), and public: tests only.
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-not-a-secret-" * 3)
# Each test run has its own queue (worker processes started by tests inherit it), so runs
# sharing one Redis never take each other's tasks.
os.environ.setdefault("CELERY_QUEUE", f"catclub-test-{os.getpid()}")
# And its own keys and channels in Redis (issue 46: SITE_PREFIX), its workers with it.
os.environ.setdefault("SITE_PREFIX", f"catclub-test-{os.getpid()}:")

from config.settings import *  # noqa: F403

if DB_VENDOR == "postgresql":  # noqa: F405
    # Likewise its own test database on a shared PostgreSQL server.
    _name = DATABASES["default"]["NAME"]  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": f"test_{_name}_{os.getpid()}"}  # noqa: F405
else:
    # A file, as the embedded default has, not SQLite's shared in-memory database: there,
    # two connections (a page's long poll and a move, in the browser tests) lock each
    # other's tables at once instead of waiting their turn.
    _file = os.path.join(tempfile.gettempdir(), f"catclub-test-{os.getpid()}.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": _file}  # noqa: F405
# The web table's long polls answer sooner, so no request outlives its browser test.
TABLE_WAIT_SECONDS = 3.0
LIVE_STREAM_SECONDS = 5.0
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests run tasks in-process, at the call site, unless a test starts a real worker (see
# tests/conftest.py) or proves the background threads (tests/config/test_background.py).
CELERY_TASK_ALWAYS_EAGER = True
TASKS_IN_PROCESS = "eager"
SEARCH_IN_CHILD_PROCESS = False
RENDER_IN_CHILD_PROCESS = False
# Likewise the writes nothing waits on: made at once, so that a test sees them
# (tests/games/test_background_writes.py proves the thread).
BACKGROUND_WRITES = False
# No post-game review after every test's game (half a minute each): the review's own
# tests turn it on.
REVIEWS = False
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
# Every test client comes from one address and asks as fast as Python can: the request
# rate is tested where it is proven (tests/web/test_request_rate.py).
REQUESTS_PER_SECOND_PER_ADDRESS = 0
