"""The web's gunicorn worker (``server/wsgi_worker.py``, issue 25): a client that keeps its
socket open after its answer holds back nobody else's request, and its socket is closed
by the deadline all the same. Run against real gunicorn processes serving the tiny
application below; the stock gthread worker is run too, to show why ours exists."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.harness.ports import free_port, wait_for_port
from server import wsgi_worker

ROOT = Path(__file__).resolve().parents[2]
REQUEST = b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"


def app(environ, start_response):  # served by the gunicorn processes below
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]


@pytest.fixture
def serve(tmp_path):
    started = []

    def serve(worker_class: str) -> int:
        port = free_port()
        command = [sys.executable, "-m", "gunicorn", "tests.config.test_wsgi_worker:app"]
        command += ["--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "4"]
        command += ["--worker-class", worker_class, "--no-control-socket"]
        log = (tmp_path / f"{len(started)}.log").open("wb")
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        started.append(process)
        assert wait_for_port(port, 30), (tmp_path / f"{len(started) - 1}.log").read_text()
        answer_of(connected(port))  # the worker is up and serving
        return port

    yield serve
    for process in started:
        process.terminate()
        process.wait(10)


def connected(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(REQUEST)
    return sock


def answer_of(sock: socket.socket) -> bytes:
    """The whole answer, up to the server's end of the connection; the socket stays open
    unless the caller closes it."""
    chunks = []
    while chunk := sock.recv(4096):
        chunks.append(chunk)
    return b"".join(chunks)


def seconds_for_a_request_after_a_client_that_does_not_close(port: int) -> float:
    holder = connected(port)
    try:
        assert answer_of(holder).endswith(b"ok")  # read, and the socket left open
        started = time.monotonic()
        other = connected(port)
        with other:
            assert answer_of(other).endswith(b"ok")
        return time.monotonic() - started
    finally:
        holder.close()


def test_a_client_that_keeps_its_socket_open_holds_back_nobody(serve):
    """Issue 25: gunicorn's own gthread worker waits on its main thread, up to 2 s, for
    each client to close after its answer, and accepts nobody meanwhile."""
    stock = seconds_for_a_request_after_a_client_that_does_not_close(serve("gthread"))
    ours = seconds_for_a_request_after_a_client_that_does_not_close(
        serve("server.wsgi_worker.Worker")
    )
    assert stock >= wsgi_worker.LINGER_SECONDS * 0.75, "gthread no longer waits: drop ours"
    assert ours < wsgi_worker.LINGER_SECONDS / 2


def test_a_socket_its_client_never_closes_is_closed_at_the_deadline(serve):
    """Until the deadline the worker still reads (what a closing client sends is drained:
    no reset); after it the socket is gone, and the client's next bytes meet a reset,
    seen by its send after that."""
    port = serve("server.wsgi_worker.Worker")
    with connected(port) as holder:
        assert answer_of(holder).endswith(b"ok")
        holder.sendall(b"late bytes")
        time.sleep(0.3)
        holder.sendall(b"still read")  # no reset came
        time.sleep(wsgi_worker.LINGER_SECONDS + 1.5)  # the deadline, and a turn of the loop
        holder.sendall(b"after the deadline")
        time.sleep(0.3)
        with pytest.raises((ConnectionResetError, BrokenPipeError)):
            holder.sendall(b"again")
