"""The sender: 429 retried after retry_after, "not modified" is no error, gone messages
are reported, a blocked user is reported."""

import asyncio

import pytest

from bot.sender import Sender

pytestmark = pytest.mark.django_db


@pytest.fixture
def sender(recorder):
    with Sender() as s:
        yield s


@pytest.mark.filterwarnings("ignore:.*retry_after.*")  # PTB 22's own notice about int/timedelta
def test_a_429_is_retried_after_retry_after(sender, recorder, clock):
    recorder.started.add(5)
    recorder.fail_next("sendMessage", retry_after=7)
    result = sender.send(5, "hello")
    assert result.ok and result.message_id
    statuses = [c.status for c in recorder.sent(5, "sendMessage", ok=None)]
    assert statuses == [429, 200]
    assert 7 in clock.slept


def test_message_is_not_modified_counts_as_success(sender, recorder):
    recorder.started.add(5)
    sent = sender.send(5, "<b>same</b>")
    result = sender.edit(5, sent.message_id, "<b>same</b>")
    assert result.ok
    assert recorder.sent(5, "editMessageText", ok=False)[0].status == 400


def test_an_edit_of_a_vanished_message_is_reported_gone(sender, recorder):
    recorder.started.add(5)
    result = sender.edit(5, 999, "new")
    assert result.gone and not result.ok


def test_a_user_who_blocked_the_bot_is_reported(sender, recorder):
    recorder.started.add(5)
    recorder.blocked.add(5)
    assert sender.send(5, "hello").blocked
    assert sender.send(6, "never started").blocked


def test_other_errors_are_raised(sender, recorder):
    from telegram.error import BadRequest

    with pytest.raises(BadRequest):
        sender.send(-100, "<b>unclosed")


def test_a_full_rate_window_is_waited_in_slices_that_keep_the_caller_alive(
    recorder, clock, monkeypatch
):
    from bot import ratelimit

    waits = iter([45.0, 0.0])

    class FullWindow:
        def try_acquire(self, chat_id, now):
            return next(waits)

    monkeypatch.setattr(ratelimit, "get_limiter", FullWindow)
    recorder.started.add(5)
    kept = []
    with Sender(keepalive=lambda: kept.append(clock.now())) as sender:
        assert sender.send(5, "hello").ok
    assert clock.slept == [20, 20, 5]
    assert len(kept) == 4  # after each slice, and just before the call


@pytest.mark.filterwarnings("ignore:.*retry_after.*")
def test_in_a_worker_a_long_wait_is_deferred_not_slept(recorder, clock, monkeypatch):
    """Issue 16: a 429 with retry_after=30 or a full window of 45 s raises ``Deferred``
    with the wait, having slept nothing; a short 429 is still slept and retried."""
    from bot import ratelimit
    from bot.sender import DEFER_AFTER, Deferred

    recorder.started.add(5)
    with Sender(defer_after=DEFER_AFTER) as sender:
        recorder.fail_next("sendMessage", retry_after=2)
        assert sender.send(5, "short wait").ok
        recorder.fail_next("sendMessage", retry_after=30)
        with pytest.raises(Deferred) as deferred:
            sender.send(5, "long wait")
        assert deferred.value.seconds == 30 and deferred.value.chat_id == 5

        class FullWindow:
            def try_acquire(self, chat_id, now):
                return 45.0

        monkeypatch.setattr(ratelimit, "get_limiter", FullWindow)
        with pytest.raises(Deferred):
            sender.send(5, "window full")
    assert all(s <= DEFER_AFTER for s in clock.slept)


@pytest.mark.filterwarnings("ignore:.*retry_after.*")
def test_a_429_is_honoured_by_the_next_sender_even_after_redis_forgot_it(
    recorder, clock, monkeypatch, tmp_path
):
    """Issue 16 (found by the long soak): after a 429 the sync that got it may be gone and
    Redis restarted empty; the next sender to that chat still waits out retry_after (the
    pause is kept in the database too), and other chats are not held up."""
    from bot import ratelimit
    from bot.sender import DEFER_AFTER, Deferred

    recorder.started.update({5, 6})
    with Sender(defer_after=DEFER_AFTER) as first:
        recorder.fail_next("sendMessage", retry_after=30)
        with pytest.raises(Deferred):
            first.send(5, "refused")
    forgetful = ratelimit.FileLimiter(tmp_path / "after-restart.json")
    monkeypatch.setattr(ratelimit, "get_limiter", lambda: forgetful)  # Redis came back empty
    clock.t += 10
    with Sender(defer_after=DEFER_AFTER) as second:
        assert second.send(6, "another chat").ok
        with pytest.raises(Deferred) as deferred:
            second.send(5, "too early")
        assert deferred.value.seconds == pytest.approx(20)
    clock.t += 20
    with Sender(defer_after=DEFER_AFTER) as third:
        assert third.send(5, "in time").ok
    assert [c.status for c in recorder.sent(5, "sendMessage", ok=None)] == [429, 200]


def test_a_sender_that_calls_nobody_makes_no_client(monkeypatch):
    """Issue 25: most syncs find nothing to send; each built a Bot API client (its TLS
    context), the Telegram worker's largest cost under the abuse bench."""
    from bot import transport

    made = []
    monkeypatch.setattr(transport, "default_request", lambda: made.append(1))
    with Sender():
        pass
    assert made == []


def test_a_sender_whose_first_call_made_no_bot_yet_starts_its_client(recorder):
    """The client is made on the first call, whatever that call touched first (issue
    25): a call that does not go through ``bot`` still finds it started."""
    with Sender() as sender:
        assert sender._run(asyncio.sleep(0, result="done")) == "done"
        assert sender._started
