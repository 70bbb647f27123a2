"""The soak's Telegram: the tests' recording Bot API (``tests.bot.telegram_fake.Recorder``,
with Telegram's limits) served over HTTP on loopback, so that real bot, web and worker
processes talk to it through ``TELEGRAM_API_URL`` as they would to api.telegram.org.

On top of the recorder it serves ``getUpdates`` from a queue (the bot process long-polls
it), times every call, and injects faults on demand: a 429 storm (every message call is
refused with ``retry_after``) and a 5xx burst. It checks that 429s are honoured: after a
429 for a chat, the next call to that chat must come after ``retry_after``.

The worker sends the state a message was rendered from in a header
(``bench.soak_worker``); it becomes the call's ``context`` for the leak check.
"""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from tests.bot.telegram_fake import Call, Recorder, Shown

CONTEXT_HEADER = "X-Soak-Context"
# The calls a flood limit or an outage refuses: the messages. Answers to taps and polling
# are left alone (Telegram limits messages, not answers).
MESSAGE_METHODS = {"sendMessage", "editMessageText", "deleteMessage"}
# A call may come this much before ``retry_after`` passed and still count as honouring it:
# the sender's sleep starts when it reads the answer, a little after the server sent it.
RETRY_TOLERANCE = 0.05


@dataclass
class TimedCall(Call):
    at: float = 0.0  # time.monotonic() when the call arrived


class ByChat(dict):
    """The recorder's messages, also listed per chat: hundreds of simulated users look at
    their chats ten times a second."""

    def __init__(self):
        super().__init__()
        self.chats: dict[int, list[Shown]] = {}

    def __setitem__(self, key, shown):
        super().__setitem__(key, shown)
        self.chats.setdefault(key[0], []).append(shown)


class SoakTelegram(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, token: str, seed: int = 0):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.token = token
        self.recorder = Recorder()
        self.recorder.messages = ByChat()
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.updates: list[dict] = []  # for getUpdates, in the order they arrived
        self.forced: list[dict] = []  # replays served whatever the offset (duplicates)
        self.new_update = threading.Condition(self.lock)
        self.mode = ""  # "", "429" or "5xx"
        self.mode_until = 0.0
        self.retry_until: dict[int, float] = {}  # chat -> when its last 429 lapses
        self.sent_429 = 0
        self.honoured_429 = 0
        self.early: list[tuple[int, str, float]] = []  # (chat, method, seconds too early)
        self.sent_5xx = 0
        self.polls = 0  # getUpdates calls

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/bot"

    def handle_error(self, request, client_address) -> None:
        # A client that hung up (a process killed mid-call) is part of the soak, not news.
        pass

    def start(self) -> SoakTelegram:
        threading.Thread(target=self.serve_forever, name="soak-telegram", daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()

    # -- faults --------------------------------------------------------------------------
    def storm(self, mode: str, seconds: float) -> None:
        with self.lock:
            self.mode, self.mode_until = mode, time.monotonic() + seconds

    def _fault(self, method: str, chat_id: int | None, now: float) -> tuple[int, dict] | None:
        """Checks the 429 discipline and answers with the current fault, if any."""
        if chat_id is not None and chat_id in self.retry_until:
            until = self.retry_until.pop(chat_id)
            if now < until - RETRY_TOLERANCE:
                self.early.append((chat_id, method, until - now))
            else:
                self.honoured_429 += 1
        if method not in MESSAGE_METHODS or now >= self.mode_until:
            return None
        if self.mode == "429":
            retry_after = self.rng.randint(1, 3)
            self.sent_429 += 1
            if chat_id is not None:
                self.retry_until[chat_id] = now + retry_after
            return 429, {
                "ok": False,
                "error_code": 429,
                "description": f"Too Many Requests: retry after {retry_after}",
                "parameters": {"retry_after": retry_after},
            }
        if self.mode == "5xx":
            self.sent_5xx += 1
            status = self.rng.choice([500, 502])
            return status, {"ok": False, "error_code": status, "description": "Bad Gateway"}
        return None

    # -- updates for the bot process -----------------------------------------------------
    def push_update(self, update: dict, force: bool = False) -> None:
        with self.new_update:
            (self.forced if force else self.updates).append(update)
            self.new_update.notify_all()

    def unconfirmed(self) -> int:
        """Updates for the bot process that it has not confirmed by a later poll."""
        with self.lock:
            return len(self.updates) + len(self.forced)

    def get_updates(self, offset: int, timeout: float) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self.new_update:
            while True:
                # Confirmed updates (below the offset) are forgotten, as Telegram does.
                self.updates = [u for u in self.updates if u["update_id"] >= offset]
                due = self.forced + self.updates[:100]
                if due or time.monotonic() >= deadline:
                    self.forced = []
                    return due
                self.new_update.wait(max(0.0, deadline - time.monotonic()))

    # -- one call ------------------------------------------------------------------------
    def call(self, method: str, params: dict, context) -> tuple[int, dict]:
        now = time.monotonic()
        if method == "getUpdates":
            self.polls += 1
            offset = int(params.get("offset") or 0)
            timeout = min(float(params.get("timeout") or 0), 10.0)
            return 200, {"ok": True, "result": self.get_updates(offset, timeout)}
        chat = params.get("chat_id")
        chat_id = int(chat) if chat is not None else None
        with self.lock:
            fault = self._fault(method, chat_id, now)
        rec = self.recorder
        with rec.lock:
            status, payload = fault or rec._handle(method, params)
            result = payload.get("result") if status == 200 else payload
            rec.calls.append(TimedCall(method, params, status, result, context, at=now))
        return status, payload

    def screen(self, chat_id: int) -> list[Shown]:
        """The live messages of a chat, oldest first."""
        with self.recorder.lock:
            return [m for m in self.recorder.messages.chats.get(chat_id, []) if not m.deleted]

    def calls(self) -> list[TimedCall]:
        with self.recorder.lock:
            return list(self.recorder.calls)


class _Handler(BaseHTTPRequestHandler):
    server: SoakTelegram
    protocol_version = "HTTP/1.1"  # keep-alive, as the bot's HTTP client expects

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
        if token != self.server.token:
            return self._reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        header = self.headers.get(CONTEXT_HEADER)
        context = json.loads(header) if header else None
        self._reply(*self.server.call(method, params, context))

    def _reply(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
