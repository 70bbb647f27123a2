"""Telegram's flood limits: 1 message/s per chat, 20/min per group, 30/s overall, shared
by every process through Redis when it is configured."""

import pytest

from bot import ratelimit
from bot.ratelimit import LocalLimiter, RedisLimiter

T0 = 1_700_000_000.0


def take(limiter, chat_id, now):
    return limiter.try_acquire(chat_id, now)


def limiters(kind: str, redis_url=None):
    if kind == "local":
        return LocalLimiter(), None
    first = RedisLimiter(redis_url)
    return first, RedisLimiter(redis_url)  # two "processes" sharing one Redis


@pytest.fixture(params=["local", "redis"])
def pair(request):
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        return limiters("redis", url)
    return limiters("local")


def test_one_message_per_second_in_a_chat(pair):
    limiter, other = pair
    assert take(limiter, 42, T0) == 0
    wait = take(other or limiter, 42, T0 + 0.25)
    assert wait == pytest.approx(0.75)
    assert take(limiter, 43, T0 + 0.25) == 0  # another chat is not held up
    assert take(other or limiter, 42, T0 + 1.0) == 0


def test_twenty_messages_per_minute_in_a_group(pair):
    limiter, other = pair
    group = -100_5
    for i in range(20):
        assert take(limiter if i % 2 else (other or limiter), group, T0 + i * 1.0) == 0
    wait = take(limiter, group, T0 + 20.0)
    assert wait == pytest.approx(40.0)
    assert take(limiter, group, T0 + 60.0) == 0


def test_thirty_messages_per_second_overall(pair):
    limiter, other = pair
    for chat in range(30):
        assert take(limiter if chat % 2 else (other or limiter), 1000 + chat, T0) == 0
    assert take(limiter, 2000, T0 + 0.5) == pytest.approx(0.5)
    assert take(limiter, 2000, T0 + 1.0) == 0


def test_waiting_for_a_turn_sleeps_as_long_as_needed(clock):
    for _ in range(3):
        ratelimit.wait_turn(7)
    assert clock.slept == [pytest.approx(1.0), pytest.approx(1.0)]
