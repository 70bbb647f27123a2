"""The spectators' pages of ``bench watchers``, in a process of their own.

Thousands of streams read by the bench's own event loop cost it more than the server's
sending them (py-spy: two thirds of a core, on a 2-core machine), and every probe of the
web waited behind that loop: the figures were the bench's, not the site's. Here each page
is an ``asyncio.Protocol`` on uvloop, reading its stream as it arrives and noting, per
event, only when it came and which table version it carried (read at the data's end,
where the server writes it); no page is parsed. The parent (``watchers.level``) talks to
this process over a pipe:

    -> ("open", port, paths)      <- ("open", refused)     every page has its first table
    -> ("mark",)                  <- ("mark", received)    bytes received so far
    -> ("stop",)                  <- ("pages", [(seen, received, refused)])  one per path

``seen``: [(time.time(), version)] per event received.
"""

from __future__ import annotations

import asyncio
import time
from multiprocessing.connection import Connection
from urllib.parse import quote

HOST = "127.0.0.1"
VERSION = b'"version": '
# A page whose stream ended, or was refused, connects again after this long.
AGAIN_SECONDS = 0.2
REFUSED_SECONDS = 1.0


def event_of(frame: bytes) -> tuple[str, int, bytes] | None:
    """A frame's change token, table version and data (``id: <token>\\ndata: <json>``);
    None for a comment or the retry line. The version is read at the data's end, where the
    server writes it: no table is scanned."""
    if not frame.startswith(b"id: "):
        # After the chunk's size line (uvicorn sends a stream chunked, even to HTTP/1.0).
        start = frame.find(b"\nid: ", 0, 32)
        if start < 0:
            return None
        frame = frame[start + 1 :]
    end = frame.index(b"\n")
    data = frame[end + len(b"\ndata: ") :]
    at = data.rfind(VERSION)
    version = int(data[at + len(VERSION) : -1]) if at >= 0 else -1
    return frame[4:end].decode(), version, data


class Page(asyncio.Protocol):
    """One spectator's EventSource: reconnects with its last table's token, as the
    browser's does."""

    def __init__(self, port: int, path: str, opened: asyncio.Event, counter: list[int]):
        self.port, self.path = port, path
        self.opened, self.waiting = opened, counter  # the pages without a table yet
        self.seen: list[tuple[float, int]] = []
        self.received = self.refused = 0
        self.token = ""
        self.stopped = False
        self._head: bytes | None = b""  # None once the response's head was read
        self._tail = b""
        self._transport: asyncio.Transport | None = None
        self._connecting: asyncio.Future | None = None

    def start(self) -> None:
        self._connecting = asyncio.ensure_future(self.connect())

    async def connect(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.stopped:
            try:
                await loop.create_connection(lambda: self, HOST, self.port)
                return
            except OSError:
                await asyncio.sleep(0.5)

    def connection_made(self, transport) -> None:
        self._transport = transport
        self._head, self._tail = b"", b""
        transport.write(
            f"GET {self.path}events/?token={quote(self.token)} HTTP/1.0\r\nHost: {HOST}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        if self._head is not None:
            head = self._head + data
            end = head.find(b"\r\n\r\n")
            if end < 0:
                self._head = head
                return
            self._head, data = None, head[end + 4 :]
            if b" 200 " not in head[: head.find(b"\r\n")]:
                self.refused += 1
                self._transport.close()
                return
        data = self._tail + data
        end = data.rfind(b"\n\n")
        if end < 0:
            self._tail = data  # a table arrives in several reads: scanned once, when whole
            return
        self._tail = data[end + 2 :]
        self._events(data[: end + 2])

    def _events(self, frames: bytes) -> None:
        now = time.time()
        for frame in frames.split(b"\n\n"):
            found = event_of(frame)
            if found is None:
                continue
            self.token, version, _data = found
            if not self.seen and self.waiting:
                self.waiting[0] -= 1
                if self.waiting[0] == 0:
                    self.opened.set()
            self.seen.append((now, version))

    def connection_lost(self, exc) -> None:
        self._transport = None
        if not self.stopped:
            delay = REFUSED_SECONDS if self._head is not None else AGAIN_SECONDS
            asyncio.get_running_loop().call_later(delay, self.start)

    def stop(self) -> None:
        self.stopped = True
        if self._transport is not None:
            self._transport.close()


async def serve(pipe: Connection) -> None:
    loop = asyncio.get_running_loop()
    pages: list[Page] = []
    while True:
        message = await loop.run_in_executor(None, pipe.recv)
        if message[0] == "open":
            _kind, port, paths = message
            opened, waiting = asyncio.Event(), [len(paths)]
            pages = [Page(port, path, opened, waiting) for path in paths]
            for page in pages:
                page.start()
                await asyncio.sleep(0)  # the connections open a few at a time, as pages load
            if pages:
                await opened.wait()
            pipe.send(("open", sum(p.refused for p in pages)))
        elif message[0] == "mark":
            pipe.send(("mark", sum(p.received for p in pages)))
        else:
            for page in pages:
                page.stop()
            pipe.send(("pages", [(p.seen, p.received, p.refused) for p in pages]))
            return


def main(pipe: Connection) -> None:
    """The process's entry (``multiprocessing``, spawned)."""
    import uvloop

    uvloop.run(serve(pipe))
