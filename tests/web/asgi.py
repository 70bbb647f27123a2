"""The site served as production serves it, over ASGI (uvicorn, in a thread of the test's
process, on the test database): pytest-django's live server is WSGI, under which a stream
is read to its end before any of it is sent."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_server(transactional_db, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    port = free_port()
    # Static files from the apps' folders, as the live server serves them (no collectstatic).
    application = ASGIStaticFilesHandler(get_asgi_application())
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        lifespan="off",
        proxy_headers=False,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    # Streams end within LIVE_STREAM_SECONDS; a server that waits for them would outlive
    # the test's database.
    server.should_exit = True
    server.force_exit = True
    thread.join(10)
    assert not thread.is_alive(), "the server outlived its test"
