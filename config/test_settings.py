"""Settings for the test suite: the real settings with a throwaway key and fast hashing.

The services are whatever the environment says (``DATABASE_URL``, ``REDIS_URL``): CI
points them at PostgreSQL and Redis, a newcomer's run uses SQLite and in-process tasks.
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-not-a-secret")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests run tasks in-process unless a test starts a real worker (see tests/conftest.py).
CELERY_TASK_ALWAYS_EAGER = True
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
