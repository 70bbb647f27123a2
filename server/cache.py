"""Django's Redis cache with one client, so one connection pool, per process.

Django keeps its cache objects per asyncio context (``caches`` is a context-local), so
under ASGI every request made its own ``RedisCache``, its own connection pool, and a new
TCP connection to Redis, with its handshake, for its first cache read: the session, the
request rate, the change token. ``bench watchers`` saw thousands of connections a minute
for the live pages alone, and the handshakes were most of the threads' work. redis-py's
pool is thread-safe and starts afresh in a forked child (a Celery worker), so one client
per process, per configuration, serves every request.
"""

from __future__ import annotations

import threading
from functools import cached_property

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_clients: dict[tuple, RedisCacheClient] = {}
_lock = threading.Lock()


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), tuple(sorted((k, repr(v)) for k, v in self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
