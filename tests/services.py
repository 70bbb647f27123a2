"""Access to the real services for tests that need them.

In CI (``CI`` set) the services must be there: a test that needs one fails loudly when it
is missing. Elsewhere such a test skips and says what to set.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.db import connection

IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI must run this test: {reason}")
    pytest.skip(reason)


def redis_url() -> str:
    if not settings.REDIS_URL:
        unavailable("needs Redis: set REDIS_URL, e.g. redis://127.0.0.1:6379/0 (CI does)")
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping()
    except redis.RedisError as exc:
        unavailable(f"Redis at REDIS_URL is unreachable: {exc}")
    return settings.REDIS_URL


def require_postgres() -> None:
    if connection.vendor != "postgresql":
        unavailable(
            "needs PostgreSQL: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test"
            " (CI does)"
        )
