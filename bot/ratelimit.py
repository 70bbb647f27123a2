"""Telegram's flood limits, kept across processes.

Telegram allows about one message per second in a chat, twenty per minute in a group and
thirty per second overall. Each limit is a sliding window ("at most N calls in any W
seconds"); a call takes a slot in every window that applies, or learns how long to wait.
With ``REDIS_URL`` the windows live in Redis (sorted sets, updated by one Lua script, so
every worker and bot process shares them); without it, in this process.

The clock is swappable so that tests can run a whole game on virtual time.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections import defaultdict, deque

from django.conf import settings

from bot import cachekeys

PER_CHAT = (1, 1.0)
PER_GROUP = (20, 60.0)
OVERALL = (30, 1.0)


class Clock:
    def now(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


clock = Clock()


def windows(chat_id: int) -> list[tuple[str, int, float]]:
    """(key, limit, seconds) of every window a message to ``chat_id`` counts in."""
    found = [(cachekeys.key("rate", "all"), *OVERALL)]
    found.append((cachekeys.key("rate", "chat", chat_id), *PER_CHAT))
    if chat_id < 0:  # groups and channels have negative ids
        found.append((cachekeys.key("rate", "group", chat_id), *PER_GROUP))
    return found


class LocalLimiter:
    """The windows of one process."""

    def __init__(self):
        self._lock = threading.Lock()
        self._calls: dict[str, deque[float]] = defaultdict(deque)

    def try_acquire(self, chat_id: int, now: float) -> float:
        with self._lock:
            wait = 0.0
            spans = windows(chat_id)
            for key, limit, span in spans:
                calls = self._calls[key]
                while calls and calls[0] <= now - span:
                    calls.popleft()
                if len(calls) >= limit:
                    wait = max(wait, calls[0] + span - now)
            if wait > 0:
                return wait
            for key, _limit, _span in spans:
                self._calls[key].append(now)
            return 0.0


_SCRIPT = """
local now = tonumber(ARGV[1])
local member = ARGV[2]
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[1 + 2 * i])
  local span = tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  if redis.call('ZCARD', key) >= limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local w = tonumber(oldest[2]) + span - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return tostring(wait) end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, math.ceil(tonumber(ARGV[2 + 2 * i]) * 1000) + 1000)
end
return '0'
"""


class RedisLimiter:
    """The same windows in Redis, checked and taken atomically by a Lua script."""

    def __init__(self, url: str):
        import redis

        self._redis = redis.Redis.from_url(url, socket_timeout=5)
        self._script = self._redis.register_script(_SCRIPT)

    def try_acquire(self, chat_id: int, now: float) -> float:
        spans = windows(chat_id)
        args: list = [repr(now), f"{now}:{uuid.uuid4().hex}"]
        for _key, limit, span in spans:
            args += [limit, span]
        return float(self._script(keys=[key for key, _l, _s in spans], args=args))


_limiter = None
_limiter_lock = threading.Lock()


def get_limiter():
    global _limiter
    with _limiter_lock:
        if _limiter is None:
            _limiter = RedisLimiter(settings.REDIS_URL) if settings.REDIS_URL else LocalLimiter()
        return _limiter


def wait_turn(chat_id: int, sleep=None) -> float:
    """Block until a message to ``chat_id`` is within the limits; returns the time waited.
    ``sleep`` (default: the clock's) lets a caller do its own chores while it waits."""
    waited = 0.0
    limiter = get_limiter()
    sleep = sleep or clock.sleep
    while (wait := limiter.try_acquire(chat_id, clock.now())) > 0:
        sleep(wait)
        waited += wait
    return waited


async def async_wait_turn(chat_id: int) -> float:
    waited = 0.0
    limiter = get_limiter()
    while (wait := limiter.try_acquire(chat_id, clock.now())) > 0:
        await clock.asleep(wait)
        waited += wait
    return waited
