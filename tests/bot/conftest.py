"""Fixtures of the Telegram front-end tests: a recording Bot API, simulated users, a fresh
cache namespace per test and virtual time for the rate limits."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from bot import cachekeys, ratelimit, sync, transport
from bot.application import build_application
from bot.bridge import Bridge
from bot.screens import GameScreens
from tests.bot.leaks import check_calls, context_of
from tests.bot.telegram_fake import BOT_USERNAME, FakeTelegram, Recorder


class VirtualClock(ratelimit.Clock):
    """Time that passes only when someone waits: limits are kept, tests stay fast."""

    def __init__(self):
        self.t = 1_700_000_000.0
        self.slept: list[float] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self.t

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.slept.append(seconds)
            self.t += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)


@pytest.fixture(autouse=True)
def bot_settings(settings, monkeypatch, tmp_path):
    settings.TELEGRAM_BOT_TOKEN = "123456:TEST-TOKEN"
    settings.TELEGRAM_BOT_USERNAME = BOT_USERNAME
    settings.TELEGRAM_WEBHOOK_SECRET = "s3cret-token"
    settings.TELEGRAM_API_URL = "https://api.telegram.invalid/bot"
    settings.SITE_URL = "https://catclub.example"
    settings.AUTO_PLAY_SECONDS = 0
    monkeypatch.setattr(cachekeys, "NAMESPACE", f"bot-test-{uuid.uuid4().hex[:12]}")
    # Without Redis the rate windows are a file: each test has its own.
    settings.TELEGRAM_RATE_FILE = tmp_path / "telegram-rate.json"
    monkeypatch.setattr(ratelimit, "_limiter", None)
    monkeypatch.setattr(sync, "RAISE_ERRORS", True)


@pytest.fixture(autouse=True)
def clock(monkeypatch) -> VirtualClock:
    virtual = VirtualClock()
    monkeypatch.setattr(ratelimit, "clock", virtual)
    return virtual


@pytest.fixture
def recorder(monkeypatch) -> Recorder:
    rec = Recorder()
    monkeypatch.setattr(transport, "default_request", lambda: rec)
    # Remember what each rendering was made from, for the leak checks.
    original = GameScreens.__init__

    def remembering(self, game):
        original(self, game)
        rec.context = context_of(game)

    monkeypatch.setattr(GameScreens, "__init__", remembering)
    return rec


def close_db_thread_connections() -> None:
    """Handlers use Django from asgiref's shared thread: close its connections too."""
    asyncio.run(sync_to_async(connections.close_all, thread_sensitive=True)())


@pytest.fixture
def bridge(recorder, transactional_db):
    runner = Bridge(lambda: build_application(request=recorder, updater=False))
    yield runner
    runner.close()
    close_db_thread_connections()


@pytest.fixture
def telegram(recorder, bridge):
    """Simulated users talking to the bot. Afterwards, every game message the bot sent in
    the test goes through the leak check."""
    yield FakeTelegram(recorder, bridge.process)
    check_calls(recorder.calls)
