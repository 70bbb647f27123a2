"""The push served as production serves it, over ASGI (uvicorn): a waiting stream holds
no thread of its own (issue 24), and a page that goes away leaves nothing behind."""

from __future__ import annotations

import socket
import threading
import time

from django.test import Client
from django.urls import reverse

from admin_ui.public import notify
from games.play.models import Game
from tests.web.asgi import asgi_server  # noqa: F401  (fixture)


def test_waiting_streams_hold_no_thread_each(asgi_server, settings):  # noqa: F811
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 0
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    data = {"game": "felix", "name": "Ann", "computers": "2"}
    assert Client().post(reverse("web:play-create"), data).status_code == 302
    game = Game.objects.order_by("-pk").first()
    before = threading.active_count()
    pages = 20
    host, port = asgi_server.removeprefix("http://").split(":")
    path = reverse("web:table-events", args=[game.pk])
    sockets = []
    try:
        for _ in range(pages):
            sock = socket.create_connection((host, int(port)), timeout=10)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            sockets.append(sock)
        for sock in sockets:
            received = b""
            while b"\nid: " not in received:
                received += sock.recv(65536)
            assert received.startswith(b"HTTP/1.1 200")
        assert notify.hub.connections() == pages
        # The hub's threads, the loop's shared pool: a few, not one per page.
        assert threading.active_count() - before < pages // 2
    finally:
        for sock in sockets:
            sock.close()
    deadline = time.monotonic() + 10
    while notify.hub.connections() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert notify.hub.connections() == 0, "a page that went away still waits"
