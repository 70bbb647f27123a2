"""``manage.py runbot`` end to end: the real command, as a subprocess, long-polling a small
Bot API server on loopback written here; the server serves getUpdates with a /start and a
/new, records every call the bot makes, and the bot is then stopped."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs

import pytest

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


class FakeBotApi(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.calls: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        self.pending = updates()
        self.ids = itertools.count(100)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/bot"

    def methods(self) -> list[str]:
        with self.lock:
            return [m for m, _ in self.calls]

    def sent(self, chat_id: int) -> list[dict]:
        with self.lock:
            return [p for m, p in self.calls if m == "sendMessage" and int(p["chat_id"]) == chat_id]


class Handler(BaseHTTPRequestHandler):
    server: FakeBotApi

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode()
        if self.headers.get("Content-Type", "").startswith("application/json"):
            params = json.loads(body or "{}")
        else:
            params = {k: v[0] for k, v in parse_qs(body).items()}
        token, _, method = self.path.removeprefix("/bot").partition("/")
        if token != TOKEN:
            return self.reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        with self.server.lock:
            self.server.calls.append((method, params))
        self.reply(200, {"ok": True, "result": self.result(method, params)})

    def result(self, method: str, params: dict):
        if method == "getMe":
            return {
                "id": 4242,
                "is_bot": True,
                "first_name": "catclub",
                "username": "catclub_e2e_bot",
            }
        if method == "getUpdates":
            offset = int(params.get("offset") or 0)
            with self.server.lock:
                due = [u for u in self.server.pending if u["update_id"] >= offset]
            if not due:
                time.sleep(min(float(params.get("timeout") or 0), 0.5))
            return due
        if method in ("sendMessage", "editMessageText"):
            chat_id = int(params["chat_id"])
            chat = {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"}
            markup = params.get("reply_markup")
            message = {
                "message_id": next(self.server.ids),
                "date": int(time.time()),
                "chat": chat,
                "text": params.get("text", ""),
            }
            if markup:
                message["reply_markup"] = json.loads(markup) if isinstance(markup, str) else markup
            return message
        return True

    def reply(self, status: int, payload: dict):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def bot_api():
    server = FakeBotApi()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_runbot_polls_updates_answers_and_stops(bot_api, tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": "e2e-test-key",
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
        wait_until(lambda: bot_api.sent(GROUP), 60, what="the lobby message in the group")
    finally:
        bot.send_signal(signal.SIGINT)
        output, _ = bot.communicate(timeout=30)
    assert bot.returncode == 0, output

    methods = bot_api.methods()
    assert methods[0] == "getMe"
    assert "getUpdates" in methods
    languages = {p.get("language_code") for m, p in bot_api.calls if m == "setMyCommands"}
    assert languages == {None, "en", "it", "pt"}

    welcome = bot_api.sent(ANNA)
    assert welcome and "Ciao Anna" in welcome[0]["text"]
    lobby = bot_api.sent(GROUP)[0]
    assert "Felix" in lobby["text"]
    markup = lobby["reply_markup"]
    markup = json.loads(markup) if isinstance(markup, str) else markup
    buttons = [b["callback_data"] for row in markup["inline_keyboard"] for b in row]
    assert any(data.endswith(":j") for data in buttons)  # Join
    assert "polling" in output
