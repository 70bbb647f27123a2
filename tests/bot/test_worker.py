"""With a real Celery worker (Redis): taps are answered at once by the bot, and the
messages are brought up to date afterwards by the worker."""

import functools
import time

import pytest

from bot import ratelimit
from bot.sender import DEFER_AFTER
from games.play.models import Game, GameStatus
from games.play.tasks import ping
from tests.bot.conftest import VirtualClock
from tests.bot.play import felix_table
from tests.waiting import wait_until
from tests.workers import worker_in_this_process

wait_for = functools.partial(wait_until, timeout=20.0, interval=0.05)


def test_the_worker_sends_the_messages_and_taps_are_answered_at_once(
    celery_worker, telegram, recorder
):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    anna.say(group, "/new bon_appetit")
    wait_for(lambda: recorder.with_button(group["id"], "l"))
    game = Game.objects.get()
    lobby = recorder.with_button(group["id"], f"l{game.pk}:")

    joined = telegram.tap(bruno, lobby, f"l{game.pk}:j")
    assert telegram.toast(joined) == "You joined the game."  # answered by the bot itself
    wait_for(lambda: "Bruno" in lobby.text)
    telegram.tap(anna, lobby, f"l{game.pk}:s")
    wait_for(lambda: recorder.with_button(group["id"], f"g{game.pk}:"))
    assert Game.objects.get().status == GameStatus.RUNNING

    table = recorder.with_button(group["id"], f"g{game.pk}:")
    mover = anna if "Anna" in table.buttons[0]["text"] else bruno
    flip = telegram.tap(mover, table, table.buttons[0]["callback_data"])
    assert telegram.toast(flip) == "Flipped!"
    wait_for(lambda: Game.objects.get().version >= 1)
    wait_for(lambda: "turns up" in recorder.with_button(group["id"], f"g{game.pk}:").text)


class WallClock(VirtualClock):
    """Virtual sleeps on top of real time: the sync's countdown is Celery's, in real time,
    so the pause Telegram asked for must lapse in real time too."""

    def __init__(self):
        super().__init__()
        self.start = self.t

    def now(self) -> float:
        with self._lock:
            return time.time() + (self.t - self.start)


@pytest.fixture
def wall_clock(monkeypatch) -> WallClock:
    clock = WallClock()
    monkeypatch.setattr(ratelimit, "clock", clock)
    return clock


@pytest.mark.filterwarnings("ignore:.*retry_after.*")  # PTB 22's own notice about int/timedelta
def test_a_long_429_frees_the_worker_and_the_sync_runs_after_its_countdown(
    redis_url, telegram, recorder, wall_clock
):
    """Issue 16, against a real worker with a single thread: a 429 with retry_after=4 (above
    the sender's DEFER_AFTER) does not hold the worker, which answers a ping at once; the
    sync comes back by itself after the countdown and edits the table."""
    table, _game, (anna, *_rest) = felix_table(telegram, recorder)  # set up in-process
    edits = len(recorder.sent(table.chat_id, "editMessageText"))
    with worker_in_this_process(concurrency=1):
        recorder.fail_next("editMessageText", retry_after=4)
        table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
        wait_for(lambda: any(c.status == 429 for c in recorder.calls))
        refused_at = time.monotonic()
        assert ping.delay("free").get(timeout=2) == "free", "the worker is not asleep"
        wait_for(lambda: len(recorder.sent(table.chat_id, "editMessageText")) > edits)
        assert time.monotonic() - refused_at >= 3.5, "not before Telegram's retry_after"
        assert "Anna" in recorder.last(table.chat_id).text
    assert not [s for s in wall_clock.slept if s > DEFER_AFTER]
