"""``manage.py runbot`` end to end: the real command, as a subprocess, long-polling the
tests' Bot API on loopback (``tests.bot.telegram_http``); it serves getUpdates with a /start
and a /new, records every call the bot makes, and the bot is then stopped."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bot.telegram_http import BotApiServer
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "424242:E2E-TEST-TOKEN"
GROUP = -100_777
ANNA = 9001


def updates() -> list[dict]:
    anna = {"id": ANNA, "is_bot": False, "first_name": "Anna", "language_code": "it"}
    private = {"id": ANNA, "type": "private", "first_name": "Anna"}
    group = {"id": GROUP, "type": "supergroup", "title": "Gattile"}

    def message(update_id, chat, text):
        return {
            "update_id": update_id,
            "message": {
                "message_id": update_id,
                "date": int(time.time()),
                "chat": chat,
                "from": anna,
                "text": text,
                "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
            },
        }

    return [message(1, private, "/start"), message(2, group, "/new felix")]


def sent(server: BotApiServer, chat_id: int) -> list[dict]:
    return [c.params for c in server.calls("sendMessage") if int(c.params["chat_id"]) == chat_id]


@pytest.fixture
def bot_api():
    server = BotApiServer(TOKEN).start()
    for update in updates():
        server.push_update(update)
    server.recorder.started.add(ANNA)  # her /start opens the private chat
    yield server
    server.stop()


def test_runbot_polls_updates_answers_and_stops(bot_api, tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        "REDIS_URL": "",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": bot_api.url,
        "TELEGRAM_BOT_USERNAME": "",
        "LOG_LEVEL": "WARNING",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v", "0"], env=env, cwd=ROOT, check=True, timeout=120)
    bot = subprocess.Popen(
        [*manage, "runbot", "--poll-timeout", "1"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_until(lambda: sent(bot_api, GROUP), 60, what="the lobby message in the group")
    finally:
        bot.send_signal(signal.SIGINT)
        output, _ = bot.communicate(timeout=30)
    assert bot.returncode == 0, output

    assert bot_api.calls()[0].method == "getMe"
    assert bot_api.polls and not bot_api.unconfirmed()
    languages = {c.params.get("language_code") for c in bot_api.calls("setMyCommands")}
    assert languages == {None, "en", "it", "pt"}

    welcome = sent(bot_api, ANNA)
    assert welcome and "Ciao Anna" in welcome[0]["text"]
    lobby = sent(bot_api, GROUP)[0]
    assert "Felix" in lobby["text"]
    markup = lobby["reply_markup"]
    markup = json.loads(markup) if isinstance(markup, str) else markup
    buttons = [b["callback_data"] for row in markup["inline_keyboard"] for b in row]
    assert any(data.endswith(":j") for data in buttons)  # Join
    assert "polling" in output
