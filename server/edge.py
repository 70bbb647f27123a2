"""The embedded server's edge (issue 46): what uvicorn, facing the internet with no proxy in
front (``manage.py start``), refuses before the site sees it.

- A request's line and headers over ``MAX_HEADER_BYTES``: refused (h11's limit on an
  incomplete event, a 400), never buffered further.
- A connection that has not sent a whole request's headers ``HEADER_SECONDS`` after it
  opened, or after its previous answer, is closed (``EdgeProtocol``): uvicorn's own
  keep-alive timeout starts only after a first answer and stops at the first byte, so a
  connection that says nothing, or a byte a minute, was held for ever.
- An idle kept-alive connection is closed after ``IDLE_SECONDS``.
- At most ``connection_limit()`` connections at once, sized to the process's open-files
  limit with room left for the database, the logs and the child processes: past it
  uvicorn answers 503, and a connection that cannot even be counted is closed at once,
  so that a flood of silent connections never takes the files the database needs. The
  flood's connections go within ``HEADER_SECONDS``, and ``/healthz`` answers again.
- A request's body over ``MAX_BODY_BYTES``: 413, by its Content-Length before a byte of it
  is read, or (chunked) as soon as what was read passes the limit (``BodyLimit``); the body
  is held in memory below that, never spooled to a file. No page of the site takes more
  (Telegram's updates, the forms and the moves are a few KiB).
"""

from __future__ import annotations

import asyncio
import resource

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_HEADER_BYTES = 64 * 1024
HEADER_SECONDS = 10.0
IDLE_SECONDS = 5
MAX_BODY_BYTES = 1024 * 1024
# Seconds for a whole body to arrive once its headers have.
BODY_SECONDS = 30.0
# Open files kept for the rest of the process: the database (SQLite's file, its WAL and
# shared memory, per connection), the logs, the child processes' pipes, Redis.
FILES_KEPT = 256
# Without a finite open-files limit, a figure far above a club's needs.
FILES_UNLIMITED = 65536


def connection_limit() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = FILES_UNLIMITED
    return max(16, soft - FILES_KEPT)


class EdgeProtocol(H11Protocol):
    """uvicorn's h11 protocol whose connections must send a request's headers in time, and
    which closes at once a connection past the limit."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.limit_concurrency is not None and len(self.connections) > self.limit_concurrency:
            transport.close()
            return
        self._await_headers()

    def _await_headers(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(HEADER_SECONDS, self._headers_late, self.cycle)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self, cycle) -> None:
        self._header_timer = None
        # A request that began since (a new cycle), or one still answered, is no late one.
        waiting = self.cycle is cycle and (cycle is None or cycle.response_complete)
        if waiting and not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)


def uvicorn_options() -> dict:
    """uvicorn's settings for the embedded server's edge."""
    return {
        "http": EdgeProtocol,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "timeout_keep_alive": IDLE_SECONDS,
        "limit_concurrency": connection_limit(),
    }


class TooLarge(Exception):
    pass


class Gone(Exception):
    pass


async def _refuse(send, status: int, text: bytes) -> None:
    # "Connection: close": the client's unread body is not read on for the next request.
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(text)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": text})


class BodyLimit:
    """ASGI middleware: a request's body, read here up to ``max_bytes`` (413 past it) within
    ``BODY_SECONDS`` (408 after), then handed to the site in one message. A request
    without a body goes straight through."""

    def __init__(self, app, max_bytes: int = MAX_BODY_BYTES):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is None and b"transfer-encoding" not in headers:
            return await self.app(scope, receive, send)
        if length is not None and (not length.strip().isdigit() or int(length) > self.max_bytes):
            return await _refuse(send, 413, b"Request body too large.")
        try:
            body = await asyncio.wait_for(self._read(receive), BODY_SECONDS)
        except TooLarge:
            return await _refuse(send, 413, b"Request body too large.")
        except TimeoutError:
            return await _refuse(send, 408, b"Request body too slow.")
        except Gone:
            return None
        given = False

        async def replay():
            nonlocal given
            if given:  # after the body: what the server says next (a disconnect)
                return await receive()
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        return await self.app(scope, replay, send)

    async def _read(self, receive) -> bytes:
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Gone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise TooLarge
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)
