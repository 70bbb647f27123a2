"""The embedded server's edge (issue 46, ``server/edge.py``): a real uvicorn on a free
port with the settings ``manage.py start`` gives it, serving the site's application as
``config.asgi`` puts it together."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import httpx
import pytest
import uvicorn

from server import edge
from server.asgi_handler import Handler
from tests.web.asgi import _Server, free_port
from web import request_rate
from web.live.app import route


@contextlib.contextmanager
def edge_server(settings, **overrides):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    database = settings.DATABASES["default"]
    kept = database.get("CONN_MAX_AGE", 0)
    database["CONN_MAX_AGE"] = 0
    port = free_port()
    options = {**edge.uvicorn_options(), **overrides}
    config = uvicorn.Config(
        edge.BodyLimit(route(Handler())),
        host="127.0.0.1",
        port=port,
        lifespan="off",
        proxy_headers=False,
        log_level="error",
        **options,
    )
    server = _Server(config)
    thread = threading.Thread(target=server.run, name="edge-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = server.force_exit = True
        thread.join(10)
        database["CONN_MAX_AGE"] = kept


@pytest.fixture
def quick(monkeypatch):
    """Short waits, so that the test sees them end."""
    monkeypatch.setattr(edge, "HEADER_SECONDS", 1.0)


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    return sock


def answer(sock: socket.socket) -> bytes:
    """What the server sends until it closes or goes quiet for a moment."""
    got = b""
    sock.settimeout(5)
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := sock.recv(65536):
            got += chunk
            if b"\r\n\r\n" in got:
                sock.settimeout(0.5)
    return got


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def healthz(port: int) -> int:
    return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code


def test_issue_46_a_single_8_mib_header_is_refused(transactional_db, settings):
    with edge_server(settings) as port, connect(port) as sock:
        head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Cat: "
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(head + b"m" * (8 * 1024 * 1024) + b"\r\n\r\n")
        got = answer(sock)
        assert got == b"" or got.startswith(b"HTTP/1.1 4"), got[:80]
        assert not got.startswith(b"HTTP/1.1 200")
        assert healthz(port) == 200, "the server goes on"


def test_issue_46_an_idle_connection_is_closed_after_the_idle_timeout(
    transactional_db, settings, quick
):
    with edge_server(settings, timeout_keep_alive=1) as port:
        with connect(port) as silent:  # says nothing at all
            started = time.monotonic()
            assert closed_within(silent, 5)
            assert time.monotonic() - started < 3
        with connect(port) as trickle:  # a byte now and then, never a whole request
            trickle.sendall(b"GET /healthz HTTP/1.1\r\n")
            time.sleep(0.6)
            trickle.sendall(b"Host: 127")
            assert closed_within(trickle, 5)
        with connect(port) as kept:  # one answer, then idle on a kept-alive connection
            kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            kept.settimeout(5)
            assert kept.recv(65536).startswith(b"HTTP/1.1 200")
            assert closed_within(kept, 5)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_issue_46_a_body_over_the_limit_gets_413_before_it_is_all_read(
    transactional_db, settings, chunked
):
    over = edge.MAX_BODY_BYTES + 64 * 1024
    with edge_server(settings) as port, connect(port) as sock:
        if chunked:
            sock.sendall(
                b"POST /telegram/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            piece = b"x" * 65536
            sent = 0
            while sent <= edge.MAX_BODY_BYTES:  # past the limit, and never the last chunk
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                sent += len(piece)
        else:  # the headers alone: the answer comes before any of the body
            sock.sendall(
                b"POST /telegram/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Length: %d\r\n\r\n" % over
            )
        got = answer(sock)
        assert got.startswith(b"HTTP/1.1 413"), got[:80]
        assert closed_within(sock, 5), "the rest of the body is not read on"


def test_issue_46_near_paths_of_the_exempt_ones_are_counted(transactional_db, settings):
    settings.REQUESTS_PER_SECOND_PER_ADDRESS = 20
    settings.REQUEST_BURST_PER_ADDRESS = 120
    request_rate.buckets.clear()
    with edge_server(settings) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}") as c:
        near = [c.get("/healthzX").status_code for _ in range(250)]
        assert 429 in near, "/healthzX is no exempt path"
        request_rate.buckets.clear()
        exact = [c.get("/healthz").status_code for _ in range(250)]
        assert set(exact) == {200}, "the health check itself is never counted"


def test_issue_46_a_connection_flood_beyond_the_limit_stops_healthz_briefly(
    transactional_db, settings, quick
):
    limit = 20
    with edge_server(settings, limit_concurrency=limit) as port:
        flood = []
        for _ in range(limit * 3):
            with contextlib.suppress(OSError):
                flood.append(connect(port))
        try:
            started = time.monotonic()
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if healthz(port) == 200:
                        break
                assert time.monotonic() - started < 5, "/healthz stopped by the flood"
                time.sleep(0.1)
        finally:
            for sock in flood:
                sock.close()
