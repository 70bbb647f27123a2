"""The site served as production serves it, over ASGI (uvicorn, in a thread of the test's
process, on the test database; the live requests by ``web.live.app``, the rest by
``server.asgi_handler``, as in ``config.asgi``): pytest-django's live server is WSGI,
under which a stream is read to its end before any of it is sent.

``asgi_server`` is the site's address; ``asgi_site`` the server itself, which a test may
stop (as a server that goes down: every connection dropped at once) and start again on
the same port."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from server.asgi_handler import Handler
from web.live.app import route


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server(uvicorn.Server):
    """uvicorn's server, telling which event loop it runs in."""

    loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets=None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)


class Site:
    """The site on one port of 127.0.0.1, served while started."""

    def __init__(self):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        assert self._server is None, "already serving"
        # Static files from the apps' folders, as the live server serves them (no
        # collectstatic).
        application = ASGIStaticFilesHandler(route(Handler()))
        config = uvicorn.Config(
            application,
            host="127.0.0.1",
            port=self.port,
            lifespan="off",
            proxy_headers=False,
            log_level="warning",
        )
        self._server = _Server(config)
        self._thread = threading.Thread(target=self._server.run, name="asgi-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            assert self._thread.is_alive(), "uvicorn stopped as it started (the port in use?)"
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        """Down at once, as a server whose process ended: its connections (the pages'
        streams among them) are cut, not waited for. Streams end within
        LIVE_STREAM_SECONDS anyway, but a server that waited for them would outlive the
        test's database."""
        server, thread = self._server, self._thread
        if server is None or thread is None:
            return
        self._server = self._thread = None

        def cut() -> None:
            for connection in list(server.server_state.connections):
                transport = getattr(connection, "transport", None)
                if transport is not None:
                    transport.abort()

        if server.loop is not None:
            with contextlib.suppress(RuntimeError):  # its loop is closed: nothing to cut
                server.loop.call_soon_threadsafe(cut)
        server.should_exit = True
        server.force_exit = True
        thread.join(10)
        assert not thread.is_alive(), "the server outlived its test"


@contextlib.contextmanager
def served(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    # No persistent connections while served, as Django asks under ASGI (production's
    # PostgreSQL has its pool, and 0): a request's thread ends with its request, and a
    # connection it kept would hold the test database open past the test run.
    database = settings.DATABASES["default"]
    kept = database.get("CONN_MAX_AGE", 0)
    database["CONN_MAX_AGE"] = 0
    site = Site()
    site.start()
    try:
        yield site
    finally:
        site.stop()
        database["CONN_MAX_AGE"] = kept


@pytest.fixture
def asgi_server(transactional_db, settings):
    with served(settings) as site:
        yield site.url


@pytest.fixture
def asgi_site(transactional_db, settings):
    with served(settings) as site:
        yield site
