"""The Redis cache holds one connection pool per process (``server/cache.py``): requests
served concurrently under ASGI, each in an asyncio context of its own, share its
connections instead of each opening one to Redis."""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import caches

from tests import services

pytestmark = pytest.mark.services


def connected_clients(url: str) -> int:
    return int(redis.Redis.from_url(url).info("clients")["connected_clients"])


def test_concurrent_requests_share_one_redis_pool(settings):
    url = services.redis_url()
    settings.CACHES = {"default": {"BACKEND": "server.cache.RedisCache", "LOCATION": url}}

    async def requests() -> set[int]:
        # As uvicorn serves them: each request a task, so a context, of its own, copied
        # from a server's that never used the cache.
        def read() -> int:
            caches["default"].set("cache-test:key", "value", 30)
            assert caches["default"].get("cache-test:key") == "value"
            return id(caches["default"]._cache)

        reads = [
            asyncio.create_task(sync_to_async(read, thread_sensitive=False)()) for _ in range(40)
        ]
        return set(await asyncio.gather(*reads))

    before = connected_clients(url)
    clients = asyncio.run(requests())
    # Django's own backend made 40 clients here, and opened a connection for each.
    assert len(clients) == 1
    assert connected_clients(url) - before <= 8  # at most one per thread of the pool
