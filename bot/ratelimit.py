"""Telegram's flood limits, kept across processes.

Telegram allows about one message per second in a chat, twenty per minute in a group and
thirty per second overall. Each limit is a sliding window ("at most N calls in any W
seconds"); a call takes a slot in every window that applies, or learns how long to wait.
With ``REDIS_URL`` the windows live in Redis (sorted sets, updated by one Lua script, so
every worker and bot process shares them); without it (the embedded default: the site and
the bot in separate processes on one machine) in a small file that each process locks in
turn (``TELEGRAM_RATE_FILE``).

A 429 from Telegram pauses a chat for its ``retry_after``: ``pause`` records it beside the
windows, so that every sender (another game's sync in the same chat, a sync queued again
by the sweep) waits it out, not only the one that was told.

The clock is swappable so that tests can run a whole game on virtual time.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from pathlib import Path

from django.conf import settings

from bot import cachekeys
from server.sharedfile import SharedJSON

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


def pause_key(chat_id: int | str) -> str:  # "": the prefix of every chat's
    return cachekeys.key("rate", "pause", chat_id)


def windows(chat_id: int) -> list[tuple[str, int, float]]:
    """(key, limit, seconds) of every window a message to ``chat_id`` counts in."""
    found = [(cachekeys.key("rate", "all"), *OVERALL)]
    found.append((cachekeys.key("rate", "chat", chat_id), *PER_CHAT))
    if chat_id < 0:  # groups and channels have negative ids
        found.append((cachekeys.key("rate", "group", chat_id), *PER_GROUP))
    return found


class FileLimiter:
    """The windows in a JSON file that every process of the machine shares
    (``server.sharedfile``)."""

    # The longest window: older calls (or calls on another clock) are dropped.
    KEEP = max(span for _limit, span in (PER_CHAT, PER_GROUP, OVERALL))

    def __init__(self, path: Path):
        self._file = SharedJSON(path)

    def try_acquire(self, chat_id: int, now: float) -> float:
        with self._file.open() as calls:
            for key, times in list(calls.items()):
                if not (kept := self._live(key, times, now)):
                    del calls[key]
                else:
                    calls[key] = kept
            wait = max(0.0, max(calls.get(pause_key(chat_id), [0.0])) - now)
            spans = windows(chat_id)
            for key, limit, span in spans:
                recent = [t for t in calls.get(key, []) if t > now - span]
                if len(recent) >= limit:
                    wait = max(wait, min(recent) + span - now)
            if wait == 0:
                for key, _limit, _span in spans:
                    calls.setdefault(key, []).append(now)
            return wait

    def _live(self, key: str, times: list[float], now: float) -> list[float]:
        if key.startswith(pause_key("")):  # a pause lasts as long as Telegram said
            return [t for t in times if t > now]
        return [t for t in times if now - self.KEEP < t <= now + self.KEEP]

    def pause(self, chat_id: int, until: float) -> None:
        with self._file.open() as calls:
            key = pause_key(chat_id)
            calls[key] = [max([until, *calls.get(key, [])])]


_SCRIPT = """
local now = tonumber(ARGV[1])
local member = ARGV[2]
local wait = 0
local paused = tonumber(redis.call('GET', KEYS[1]) or '0')
if paused > now then wait = paused - now end
for i = 2, #KEYS do
  local key = KEYS[i]
  local limit = tonumber(ARGV[2 * i - 1])
  local span = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  if redis.call('ZCARD', key) >= limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local w = tonumber(oldest[2]) + span - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return tostring(wait) end
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], now, member)
  redis.call('PEXPIRE', KEYS[i], math.ceil(tonumber(ARGV[2 * i]) * 1000) + 1000)
end
return '0'
"""

# A later pause never shortens an earlier one.
_PAUSE = """
local till = tonumber(ARGV[1])
local old = tonumber(redis.call('GET', KEYS[1]) or '0')
if till > old then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', math.ceil(tonumber(ARGV[2]) * 1000) + 1000)
end
"""


class RedisLimiter:
    """The same windows in Redis, checked and taken atomically by a Lua script."""

    def __init__(self, url: str):
        import redis  # here, not at the top: only a process with Redis configured needs it

        self._redis = redis.Redis.from_url(url, socket_timeout=5)
        self._script = self._redis.register_script(_SCRIPT)
        self._pause = self._redis.register_script(_PAUSE)

    @staticmethod
    def _site(key: str) -> str:
        # This site's windows (issue 46: SITE_PREFIX): another site on the same Redis
        # counts its own bot's messages, not this one's.
        return f"{settings.SITE_PREFIX}{key}"

    def try_acquire(self, chat_id: int, now: float) -> float:
        spans = windows(chat_id)
        args: list = [repr(now), f"{now}:{uuid.uuid4().hex}"]
        for _key, limit, span in spans:
            args += [limit, span]
        keys = [self._site(key) for key in (pause_key(chat_id), *(k for k, _l, _s in spans))]
        return float(self._script(keys=keys, args=args))

    def pause(self, chat_id: int, until: float) -> None:
        key = self._site(pause_key(chat_id))
        self._pause(keys=[key], args=[repr(until), max(until - clock.now(), 0)])


_limiter = None
_limiter_lock = threading.Lock()


def get_limiter():
    global _limiter
    with _limiter_lock:
        if _limiter is None:
            _limiter = (
                RedisLimiter(settings.REDIS_URL)
                if settings.REDIS_URL
                else FileLimiter(settings.TELEGRAM_RATE_FILE)
            )
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
