"""The live requests served straight from ASGI (``web.live.app``, issues 24 and 25): the
same answers as through Django's handler (the views' checks, the middleware's headers,
Django's error pages), without its thread hops; a page that goes away or stops reading is
let go of."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from asgiref.sync import async_to_sync
from django.core.signals import request_started
from django.test import AsyncClient, Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from games.play.models import Game
from tests.web.asgi import asgi_server  # noqa: F401  (fixture)
from web.live import app as live_app
from web.live import notify, slots

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def open_limits(settings):
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 0
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0


def running_table() -> Game:
    data = {"game": "felix", "name": "Ann", "computers": "2"}
    assert Client().post(reverse("web:play-create"), data).status_code == 302
    return Game.objects.order_by("-pk").first()


def test_live_requests_answer_without_djangos_handler(asgi_server):  # noqa: F811
    game = running_table()
    handled = []

    def started(**kwargs):
        handled.append(kwargs)

    request_started.connect(started)
    try:
        state = httpx.get(
            f"{asgi_server}/play/{game.pk}/state/?wait=0", headers={"Accept-Language": "it"}
        )
        page = httpx.get(f"{asgi_server}/play/{game.pk}/")
    finally:
        request_started.disconnect(started)
    assert state.status_code == 200 and state.json()["token"]
    assert page.status_code == 200
    assert len(handled) == 1  # the page only: the poll never reached Django's handler
    # The middleware's work, done inline: the language, the security headers.
    assert state.headers["Content-Language"] == "it"
    assert state.headers["X-Content-Type-Options"] == "nosniff"
    assert "Cookie" in state.headers["Vary"]


def test_live_requests_get_djangos_refusals(asgi_server, settings):  # noqa: F811
    game = running_table()
    missing = httpx.get(f"{asgi_server}/play/{game.pk + 1000}/state/?wait=0")
    assert missing.status_code == 404
    bad = httpx.get(f"{asgi_server}/play/{game.pk}/state/?wait=nan")
    assert bad.status_code == 400 and "wait" in bad.json()["message"]
    huge = httpx.get(f"{asgi_server}/play/{'9' * 19}/events/")
    assert huge.status_code == 404  # beyond any id: Django's own 404
    host = httpx.get(
        f"{asgi_server}/play/{game.pk}/state/?wait=0", headers={"Host": "evil.example"}
    )
    assert host.status_code == 400  # ALLOWED_HOSTS, as everywhere
    settings.REQUESTS_PER_SECOND_PER_ADDRESS = 1
    settings.REQUEST_BURST_PER_ADDRESS = 2
    answers = [httpx.get(f"{asgi_server}/play/{game.pk}/state/?wait=0") for _ in range(4)]
    # A refusal is answered once its client may ask again (LIVE_REFUSAL_SECONDS at most).
    assert [a.status_code for a in answers[:3]] == [200, 200, 429]
    assert answers[2].headers["Retry-After"] == "1"


def test_a_stream_whose_page_left_gives_everything_back(asgi_server, settings):  # noqa: F811
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 3
    game = running_table()
    url = f"{asgi_server}/play/{game.pk}/events/"

    async def open_and_leave() -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            for _ in range(5):  # more than the address may hold at once: each gave its slot back
                async with client.stream("GET", url) as response:
                    assert response.status_code == 200
                    async for line in response.aiter_lines():
                        if line.startswith("id: "):
                            break
                    # This game's: a page of an earlier test may still be leaving.
                    assert notify.hub.connections(game.pk) == 1

    asyncio.run(open_and_leave())
    for _ in range(100):
        if notify.hub.connections(game.pk) == 0 and slots.live_here.open("127.0.0.1") == 0:
            break
        asyncio.run(asyncio.sleep(0.05))
    assert notify.hub.connections(game.pk) == 0
    assert slots.live_here.open("127.0.0.1") == 0


def test_a_live_request_past_its_address_limit_is_refused_on_arrival(asgi_server, settings):  # noqa: F811
    """Issue 25: a script reopening refused polls in a loop filled the server's accept
    queue while each refusal took the session, the middleware and two threads. Past the
    address's live connections in this process, a script is refused before any of that,
    in the language its browser asks for; a page navigating there gets the page."""
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 2
    game = running_table()
    handled = []

    def started(**kwargs):
        handled.append(kwargs)

    held = [slots.live_here.enter("127.0.0.1") for _ in range(2)]  # two pages follow it
    assert held == [True, True]
    request_started.connect(started)
    try:
        third = httpx.get(
            f"{asgi_server}/play/{game.pk}/state/?wait=0", headers={"Accept-Language": "it"}
        )
        page = httpx.get(f"{asgi_server}/play/{game.pk}/events/", headers={"Accept": "text/html"})
    finally:
        request_started.disconnect(started)
        for _ in held:
            slots.live_here.leave("127.0.0.1")
    assert third.status_code == 429 and "set-cookie" not in third.headers
    with translation.override("it"):
        assert third.json() == {"ok": False, "message": str(slots.TOO_MANY_LIVE)}
    assert third.json()["message"] != str(slots.TOO_MANY_LIVE)  # the Italian one
    assert handled == [], "it never reached Django's handler"
    assert page.status_code == 429 and "<html" in page.text, "a browser gets a page"
    assert slots.live_here.open("127.0.0.1") == 0
    after = httpx.get(f"{asgi_server}/play/{game.pk}/state/?wait=0")
    assert after.status_code == 200, "a place given back is taken again"
    assert slots.live_here.open("127.0.0.1") == 0, "and given back when the poll ends"


def test_a_page_that_stops_reading_is_dropped(settings):
    """Issue 24 item 5: a reader that takes nothing is let go of after LIVE_SEND_SECONDS,
    not buffered for: its stream's ``finally`` runs (the hub and the slot given back)."""
    settings.LIVE_SEND_SECONDS = 0.2
    ended = []

    async def stream():
        try:
            while True:
                yield b"data: x\n\n"
        finally:
            ended.append(True)

    async def stalled(message):
        if message["type"] == "http.response.body" and message["body"]:
            await asyncio.sleep(3600)  # the socket's buffers are full: the page reads nothing

    async def run() -> str:
        from django.http import StreamingHttpResponse

        request = live_app.Ended()  # of this task, as ``serve`` makes it
        try:
            await live_app._send(StreamingHttpResponse(stream()), stalled, request)
        except asyncio.CancelledError:
            asyncio.current_task().uncancel()
        await asyncio.sleep(0.05)  # asyncio finalizes the stream it let go of
        return request.why

    assert asyncio.run(asyncio.wait_for(run(), 5)) == "stalled"
    assert ended == [True]


def test_the_site_routes_live_paths_only():
    seen = []

    async def django(scope, receive, send):
        seen.append(scope["path"])

    app = live_app.route(django)
    for path in ("/play/12/", "/play/12/move/", "/play/x/state/", "/healthz"):
        asyncio.run(app({"type": "http", "method": "GET", "path": path}, None, None))
    asyncio.run(app({"type": "http", "method": "POST", "path": "/play/12/state/"}, None, None))
    assert seen == ["/play/12/", "/play/12/move/", "/play/x/state/", "/healthz", "/play/12/state/"]


def quiet_lobby() -> Game:
    data = {"game": "felix", "name": "Ann", "computers": "1", "friends": "1"}
    assert Client().post(reverse("web:play-create"), data).status_code == 302
    return Game.objects.order_by("-pk").first()


def test_a_poll_past_the_addresss_limit_is_refused_a_moment_later(
    asgi_server,  # noqa: F811
    settings,
    monkeypatch,
):
    """LIVE_REFUSAL_SECONDS (issue 25): a live request refused for its address's limits
    is answered after that wait, on the event loop, so that a script reopening its refused
    polls at once asks once per wait; REFUSALS_HELD_PER_ADDRESS at most are held, the
    rest answered at once, and at 0 every refusal is."""
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 1
    settings.LIVE_REFUSAL_SECONDS = 2.0
    settings.TABLE_WAIT_SECONDS = 10.0
    monkeypatch.setattr(slots, "REFUSALS_HELD_PER_ADDRESS", 1)
    game = quiet_lobby()
    url = f"{asgi_server}/play/{game.pk}/state/"
    token = httpx.get(f"{url}?wait=0").json()["token"]

    async def refusals() -> list[tuple[int, float]]:
        async with httpx.AsyncClient(timeout=20) as client:
            waiting = asyncio.create_task(client.get(url, params={"token": token, "wait": 6}))
            for _ in range(100):  # the address's one place taken
                if slots.live_here.open("127.0.0.1") == 1:
                    break
                await asyncio.sleep(0.02)

            async def refused() -> tuple[int, float]:
                started = time.monotonic()
                response = await client.get(url, params={"token": token, "wait": 6})
                return response.status_code, time.monotonic() - started

            held = asyncio.create_task(refused())
            await asyncio.sleep(0.3)
            at_once = await refused()  # one is held already: answered at once
            answers = [await held, at_once]
            settings.LIVE_REFUSAL_SECONDS = 0
            answers.append(await refused())
            waiting.cancel()
            return answers

    (held, held_for), (second, second_for), (off, off_for) = asyncio.run(refusals())
    assert held == second == off == 429
    assert held_for >= 2.0
    assert second_for < 1.5 and off_for < 1.5


def test_a_poll_refused_for_the_addresss_places_elsewhere_is_held_too(settings):
    """The address's places are counted across processes (``take_live_slot``): a poll
    this process let in but the address has no place for is held back the same way."""
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 1
    settings.LIVE_REFUSAL_SECONDS = 1.0
    game = quiet_lobby()
    taken = slots.take_live_slot(RequestFactory().get("/", REMOTE_ADDR="127.0.0.1"), 10)
    try:
        started = time.monotonic()
        get = async_to_sync(AsyncClient().get)
        response = get(reverse("web:table-state", args=[game.pk]), REMOTE_ADDR="127.0.0.1")
        assert response.status_code == 429
        assert time.monotonic() - started >= 1.0
    finally:
        slots.give_back_live_slot(taken)
