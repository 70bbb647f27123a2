"""The production stack of docker-compose.yml without Docker (bench/stack.py): each
service's own command on loopback, this machine's PostgreSQL and Redis, Debian's caddy with
deploy/Caddyfile in front. Started once per module: it takes one to two minutes."""

from __future__ import annotations

import os
import shutil

import pytest

from tests import services


@pytest.fixture(scope="module")
def stack():
    from bench import stack as runner

    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith("postgres") or not redis_url:
        services.unavailable("the stack needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    # Not a skip: CI installs caddy and Chromium, and a stack test that did not run must
    # not pass for one that did.
    assert shutil.which("caddy"), "needs Debian's caddy (apt-get install caddy)"
    assert os.path.exists(runner.CHROMIUM), "needs Debian's Chromium (apt-get install chromium)"
    # Two web and two live nodes behind the proxy, as the runbook's scaling section has it.
    with runner.running(database_url, redis_url, nodes=2) as up:
        yield up


@pytest.fixture(scope="module")
def driven(stack):
    """The short run with the rolling restart (``python -m bench stack --short --nodes 2
    --rolling``), once for the module's tests."""
    from bench import stack as runner

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop in this thread
    try:
        result = runner.drive(stack, short=True, api=stack.api, rolling=True)
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
    print(runner.report(result))
    return result
