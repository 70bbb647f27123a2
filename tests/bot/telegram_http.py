"""The recording Bot API (``telegram_fake.Recorder``, with Telegram's limits) served over
HTTP on loopback, for processes that talk to Telegram as they would to api.telegram.org,
through ``TELEGRAM_API_URL``: the bot's long polling, the workers' syncs, the soak.

It serves ``getUpdates`` from a queue (``push_update``) and answers every other method
through the recorder. Subclasses answer some calls their own way by overriding ``call``
(a storm of 429s, a 5xx burst), and record calls of their own kind (``new_call``).

A process may name the state a call was made from in the ``CONTEXT_HEADER`` header (JSON):
it becomes the call's ``context``, for the leak checks.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from tests.bot.telegram_fake import Call, Recorder

CONTEXT_HEADER = "X-Test-Context"
LONGEST_POLL = 10.0  # seconds a getUpdates call may wait for updates


class BotApiServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, token: str, recorder: Recorder | None = None):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.token = token
        self.recorder = recorder or Recorder()
        self.lock = threading.Lock()
        self.new_update = threading.Condition(self.lock)
        self.updates: list[dict] = []  # for getUpdates, in the order they arrived
        self.forced: list[dict] = []  # served whatever the offset (duplicate deliveries)
        self.polls = 0  # getUpdates calls

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/bot"

    def start(self) -> BotApiServer:
        threading.Thread(target=self.serve_forever, name="bot-api", daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()

    def handle_error(self, request, client_address) -> None:
        # A client that hung up (a process stopped mid-call) is not this server's failure.
        pass

    # -- updates ---------------------------------------------------------------------------
    def push_update(self, update: dict, force: bool = False) -> None:
        with self.new_update:
            (self.forced if force else self.updates).append(update)
            self.new_update.notify_all()

    def unconfirmed(self) -> int:
        """Updates the polling process has not confirmed by a later poll."""
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

    # -- calls -----------------------------------------------------------------------------
    def call(self, method: str, params: dict, context) -> tuple[int, dict]:
        """Answer one call: (HTTP status, JSON body)."""
        if method == "getUpdates":
            self.polls += 1
            offset = int(params.get("offset") or 0)
            timeout = min(float(params.get("timeout") or 0), LONGEST_POLL)
            return 200, {"ok": True, "result": self.get_updates(offset, timeout)}
        return self.record(method, params, context)

    def record(
        self, method: str, params: dict, context, answer: tuple[int, dict] | None = None
    ) -> tuple[int, dict]:
        """Record the call with ``answer``, or with the recorder's own answer."""
        rec = self.recorder
        with rec.lock:
            status, payload = answer or rec._handle(method, params)
            result = payload.get("result") if status == 200 else payload
            rec.calls.append(self.new_call(method, params, status, result, context))
        return status, payload

    def new_call(self, method: str, params: dict, status: int, result, context) -> Call:
        return Call(method, params, status, result, context)

    def calls(self, method: str | None = None) -> list[Call]:
        with self.recorder.lock:
            return [c for c in self.recorder.calls if method in (None, c.method)]


def too_many_requests(retry_after: int) -> tuple[int, dict]:
    """Telegram's 429 answer."""
    return 429, {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {retry_after}",
        "parameters": {"retry_after": retry_after},
    }


class _Handler(BaseHTTPRequestHandler):
    server: BotApiServer
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
