"""gunicorn's worker for the ``web`` service in production: gunicorn's threads (gthread),
except that a connection its response closes is closed without waiting for the client on
the worker's main thread.

gthread closes such a connection gracefully (RFC 9112, section 9.6): it half-closes it,
then reads on its main thread until the client closes its end too, for up to 2 s. That
thread is the one that accepts connections and hands them to the request threads: while it
waits for one client's close, nobody's request reaches the worker. A visitor who reads
their answer and keeps the socket open stops the worker 2 s per request; under the abuse
bench (issue 25) the waits for the bench's own closes were the web's largest single cost,
and every person's click queued behind them. Here the main thread half-closes and leaves
the rest to its poller, as it does for kept-alive connections: the client's close (or the
same 2 s deadline, or a lingering socket too many) ends it.
"""

from __future__ import annotations

import selectors
import socket
import time
from collections import deque

from gunicorn.workers.gthread import ThreadWorker

LINGER_SECONDS = 2.0  # as gunicorn's own graceful close (gunicorn.util.close_graceful)
DRAIN_BYTES = 65536  # read at most this of what a closing client still sends
# Sockets left waiting for their client's close at once; past it, closed at once: the
# file descriptors a flood of clients that never close can take are bounded.
MAX_LINGERING = 1024


class Worker(ThreadWorker):
    def init_process(self):
        self.lingering: deque[tuple[float, socket.socket]] = deque()
        super().init_process()

    def finish_request(self, conn, fs):
        if fs.cancelled() or fs.exception() is not None or fs.result() is not False:
            super().finish_request(conn, fs)  # kept alive, deferred, or failed
            return
        self.nr_conns -= 1
        self.linger(conn.sock)

    def linger(self, sock: socket.socket) -> None:
        """Half-close ``sock``; close it once the client has closed its end."""
        try:
            sock.shutdown(socket.SHUT_WR)
            sock.setblocking(False)
        except OSError:
            sock.close()
            return
        if drained(sock) or len(self.lingering) >= MAX_LINGERING:
            sock.close()
        else:
            self.lingering.append((time.monotonic() + LINGER_SECONDS, sock))
            self.poller.register(sock, selectors.EVENT_READ, self.on_lingering_readable)

    def on_lingering_readable(self, sock: socket.socket) -> None:
        if drained(sock):
            self.poller.unregister(sock)
            sock.close()  # its entry in ``lingering`` goes at its deadline

    def murder_pending(self):
        """Called on every turn of the main loop: also closes the lingering sockets whose
        client has not closed by their deadline."""
        super().murder_pending()
        now = time.monotonic()
        while self.lingering and self.lingering[0][0] <= now:
            _deadline, sock = self.lingering.popleft()
            if sock.fileno() != -1:  # not closed by its client's close meanwhile
                self.poller.unregister(sock)
                sock.close()


def drained(sock: socket.socket) -> bool:
    """Whether the client has closed its end (or broke the connection, or sent too much):
    reads what is waiting, without blocking."""
    received = 0
    while received < DRAIN_BYTES:
        try:
            data = sock.recv(4096)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True
        if not data:
            return True
        received += len(data)
    return True
