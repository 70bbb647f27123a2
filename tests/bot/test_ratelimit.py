"""Telegram's flood limits: 1 message/s per chat, 20/min per group, 30/s overall, shared
by every process: through Redis when it is configured, else through a file."""

import subprocess
import sys

import pytest

from bot import cachekeys, ratelimit
from bot.ratelimit import FileLimiter, RedisLimiter
from tests.workers import ROOT

T0 = 1_700_000_000.0


def take(limiter, chat_id, now):
    return limiter.try_acquire(chat_id, now)


@pytest.fixture(params=["file", "redis"])
def pair(request, tmp_path):
    """Two limiters sharing their windows, as two processes would."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        return RedisLimiter(url), RedisLimiter(url)
    return FileLimiter(tmp_path / "rate.json"), FileLimiter(tmp_path / "rate.json")


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
        assert take(limiter if i % 2 else other, group, T0 + i * 1.0) == 0
    wait = take(limiter, group, T0 + 20.0)
    assert wait == pytest.approx(40.0)
    assert take(limiter, group, T0 + 60.0) == 0


def test_thirty_messages_per_second_overall(pair):
    limiter, other = pair
    for chat in range(30):
        assert take(limiter if chat % 2 else other, 1000 + chat, T0) == 0
    assert take(limiter, 2000, T0 + 0.5) == pytest.approx(0.5)
    assert take(limiter, 2000, T0 + 1.0) == 0


def test_a_429_pause_holds_every_sender_of_that_chat_only(pair):
    """Issue 16: a 429 told one sender to wait; the others (another game in the chat, a
    sync queued again) wait it out too, and a shorter later pause does not cut it."""
    limiter, other = pair
    limiter.pause(42, T0 + 30)
    assert take(other, 42, T0) == pytest.approx(30.0)
    other.pause(42, T0 + 5)  # a later, shorter retry_after
    assert take(limiter, 42, T0 + 10) == pytest.approx(20.0)
    assert take(limiter, 43, T0 + 10) == 0  # another chat goes on
    assert take(other, 42, T0 + 30) == 0


def test_a_pause_longer_than_the_windows_is_kept(tmp_path):
    limiter = FileLimiter(tmp_path / "rate.json")
    limiter.pause(42, T0 + 600)
    assert take(limiter, 7, T0 + 100) == 0  # the file is rewritten meanwhile
    assert take(limiter, 42, T0 + 300) == pytest.approx(300.0)


def test_waiting_for_a_turn_sleeps_as_long_as_needed(clock):
    for _ in range(3):
        ratelimit.wait_turn(7)
    assert clock.slept == [pytest.approx(1.0), pytest.approx(1.0)]


def take_in_another_process(path, chat_id: int, now: float) -> float:
    code = (
        "import sys; from bot import cachekeys; from bot.ratelimit import FileLimiter;"
        "cachekeys.NAMESPACE = sys.argv[1];"
        "print(FileLimiter(sys.argv[2]).try_acquire(int(sys.argv[3]), float(sys.argv[4])))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, cachekeys.NAMESPACE, str(path), str(chat_id), repr(now)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout)


def test_without_redis_two_processes_share_the_windows(tmp_path):
    """Issue 16: on the embedded default the site and the bot are separate processes; a
    message one of them sent counts in the other's windows."""
    path = tmp_path / "rate.json"
    assert take(FileLimiter(path), 42, T0) == 0
    assert take_in_another_process(path, 42, T0 + 0.25) == pytest.approx(0.75)
    assert take_in_another_process(path, 42, T0 + 1.0) == 0
    assert take(FileLimiter(path), 42, T0 + 1.5) == pytest.approx(0.5)
