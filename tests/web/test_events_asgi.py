"""The push served as production serves it, over ASGI (uvicorn): a waiting stream holds
no thread of its own (issue 24), and a page that goes away leaves nothing behind."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time

import pytest
from django.test import Client
from django.urls import reverse

from games import catalog
from games.play.models import Game, GameStatus
from games.play.replay import applied_moves, views
from tests.web.asgi import asgi_server  # noqa: F401  (fixture)
from tests.web.sse import EventReader
from tests.web.test_play import ACTION, CODE, move, new_table, strings
from web.live import notify
from web.live import stream as events
from web.tables import change_token


def test_waiting_streams_hold_no_thread_each(asgi_server, settings):  # noqa: F811
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 0
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0
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


def test_waiting_long_polls_hold_no_thread_each(asgi_server, settings):  # noqa: F811
    """The Mini App's long poll waits on the hub as a stream does (issue 25's abuse bench:
    parked polls, a thread each, starved the people playing): neither the middleware nor
    the wait takes a thread of its own."""
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 0
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0
    settings.TABLE_WAIT_SECONDS = 30
    data = {"game": "felix", "name": "Ann", "computers": "2"}
    assert Client().post(reverse("web:play-create"), data).status_code == 302
    game = Game.objects.order_by("-pk").first()
    state = reverse("web:table-state", args=[game.pk])
    token = Client().get(state + "?wait=0").json()["token"]
    before = threading.active_count()
    pages = 20
    host, port = asgi_server.removeprefix("http://").split(":")
    sockets = []
    try:
        for _ in range(pages):
            sock = socket.create_connection((host, int(port)), timeout=10)
            request = f"GET {state}?token={token}&wait=30 HTTP/1.1\r\nHost: {host}\r\n\r\n"
            sock.sendall(request.encode())
            sockets.append(sock)
        deadline = time.monotonic() + 10
        while notify.hub.connections() < pages and time.monotonic() < deadline:
            time.sleep(0.05)
        assert notify.hub.connections() == pages
        assert threading.active_count() - before < pages // 2
        game.refresh_from_db()
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)
        notify._send(game.pk)  # as the change's process would
        for sock in sockets:
            received = b""
            while b"\r\n\r\n{" not in received:
                received += sock.recv(65536)
            assert received.startswith(b"HTTP/1.1 200")
    finally:
        for sock in sockets:
            sock.close()


# -- hidden information over the stream -----------------------------------------------------
@pytest.mark.parametrize("slug", catalog.slugs())
def test_no_event_shows_a_seat_or_a_spectator_a_card_private_to_another(
    asgi_server,  # noqa: F811
    settings,
    monkeypatch,
    slug,
):
    """Whole games with people in two browsers (and computers where the game needs more
    seats), each following the table by its stream over a real connection, a spectator's
    stream beside them; each person plays what their own stream offers. Every event any
    of them received is checked against the views of its moment (the game replayed to the
    event's version): a card shown to a seat is in that seat's own view or the public one,
    never only in another's; a spectator is shown the public view's cards alone, and no
    choice."""
    settings.LIVE_HEARTBEAT_SECONDS = 0.5  # a reader told to stop hears so soon
    # Streams end and reconnect several times a game, saying which table they have.
    settings.LIVE_STREAM_SECONDS = 0.3  # a short game takes about a second
    monkeypatch.setattr(events, "RECONNECT_MS", 100)
    kind = catalog.get(slug)
    ann, bob = Client(), Client()
    game = new_table(ann, slug, computers=max(0, kind.min_players - 2), friends=True)
    bob.post(reverse("web:table-join", args=[game.pk]), {"name": "Bob", "invite": game.invite})
    ann.post(reverse("web:table-start", args=[game.pk]))
    people = {"Ann": ann, "Bob": bob}
    seat = {name: game.seats.get(player__display_name=name).number for name in people}
    url = asgi_server + reverse("web:table-events", args=[game.pk])

    def reader(client: Client | None) -> EventReader:
        cookies = {k: m.value for k, m in client.cookies.items()} if client else None
        return EventReader(url, cookies)

    readers = {name: reader(client) for name, client in people.items()} | {None: reader(None)}
    rng = random.Random(3)
    with contextlib.ExitStack() as stack:
        for r in readers.values():
            stack.enter_context(r)
        for step in range(5000):
            game = Game.objects.get(pk=game.pk)
            token = change_token(game, game.seats.count())
            # Every stream brings the table as it is now, whatever came between.
            now = {
                who: r.wait_for(lambda e, t=token: e["token"] == t) for who, r in readers.items()
            }
            if game.status != GameStatus.RUNNING:
                break
            offered = [(name, ACTION.findall(now[name]["html"])) for name in people]
            name, actions = next(((n, a) for n, a in offered if a), (None, []))
            assert actions, f"{slug} v{game.version}: nobody is offered anything"
            answer = move(people[name], game, rng.choice(actions), f"{name}-{step}", game.version)
            assert answer.json()["ok"], answer.content
    assert game.status == GameStatus.FINISHED, (game.version, game.status)

    # The views of each version of the game, as its seats and the public had them.
    history = list(views(game, applied_moves(game), seats=True))
    assert len(history) == game.version + 1
    checked, secret = 0, 0
    for who, r in readers.items():
        me = seat.get(who)
        assert r.events and r.events[-1]["token"] == token
        assert r.connections >= 2, "streams end and reconnect during a game"
        for event in r.events:
            _move, public, private = history[event["version"]]
            mine = strings(public) | (strings(private[me]) if me is not None else set())
            others = set().union(*(strings(v) for n, v in enumerate(private) if n != me))
            secret += bool(others - mine)
            leaked = set(CODE.findall(event["html"])) & (others - mine)
            assert not leaked, f"{slug} v{event['version']}: {who or 'a spectator'} sees {leaked}"
            if me is None:
                assert not ACTION.findall(event["html"]), "a spectator is offered a choice"
            checked += 1
    assert checked > 3 * 10, checked
    if kind.private_hands:
        assert secret, "nothing was secret: the check proved nothing"
