"""Pages follow the game by server-sent events (issue 24): served over ASGI, a page opens an
EventSource to /events/, polls nothing, and shows each change: a spectator's, a person's
who plays each game to its end against computers, and a spectator's whose server went
down and came back, which catches up without a reload."""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.play.models import Game, GameStatus
from tests.web.asgi import asgi_server, asgi_site  # noqa: F401  (fixtures)
from tests.web.browser import beside_the_browser, phone_page
from tests.web.tables import play_by_clicking, start_from_home
from web.live import changes, notify

ACTION = re.compile(r'data-action="([^"]+)"')


def ann_moves(ann: Client, game: Game) -> None:
    url = reverse("web:table-state", args=[game.pk]) + "?wait=0"
    html = beside_the_browser(ann.get, url).json()["html"]
    version = Game.objects.get(pk=game.pk).version
    data = {"action": ACTION.findall(html)[0], "version": version, "key": f"k{version}"}
    assert ann.post(reverse("web:table-move", args=[game.pk]), data).json()["ok"]


def version_shown(page) -> int:
    return int(page.get_attribute("#table .tablebox", "data-version"))


def streams(page) -> list[str]:
    return [url for url in page.asked if "/events/" in url]


def streaming(page) -> None:
    """Until the page has asked for its stream (and, with Redis, the hub hears changes).
    (Not the stream's resource timing: that is written when the stream ends.)"""
    deadline = time.monotonic() + 10
    while not streams(page):
        assert time.monotonic() < deadline, "the page opened no stream"
        page.wait_for_timeout(20)
    if settings.REDIS_URL:
        assert notify.hub.subscribed.wait(10)


def shows_a_version_past(page, version: int, timeout: int = 10_000) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('#table .tablebox').dataset.version) > v",
        arg=version,
        timeout=timeout,
    )


def polls(page) -> list[str]:
    """The long polls the page made (the first load brings the table: none are needed)."""
    return [url for url in page.asked if "/state/" in url]


def test_a_spectators_page_is_pushed_each_change(chromium, asgi_server):  # noqa: F811
    ann = Client()
    data = {"game": "felix", "name": "Ann", "computers": "2"}
    assert ann.post(reverse("web:play-create"), data).status_code == 302
    game = Game.objects.order_by("-pk").first()
    with phone_page(chromium, asgi_server) as page:
        page.goto(asgi_server + reverse("web:game", args=[game.pk]))
        streaming(page)
        for _ in range(3):
            before = version_shown(page)
            ann_moves(ann, game)
            shows_a_version_past(page, before)
        assert not polls(page), "the page polled"
        assert not page.problems, page.problems


# (game, computers, clicks at most): each game as its browser test plays it.
GAMES = [
    ("felix", 2, 400),
    ("smoking_cat", 3, 1500),
    ("bon_appetit", 1, 600),
    ("cats_and_dogs", 1, 2000),
]


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.parametrize(("slug", "computers", "max_clicks"), GAMES)
def test_each_game_is_played_to_the_end_over_the_push(
    chromium,
    asgi_server,  # noqa: F811
    slug,
    computers,
    max_clicks,
):
    """From the home page, a person plays a whole game against computers by clicking; the
    page follows the table by its stream alone, every change (the person's own moves and
    the computers') pushed to it, up to the final screen."""
    with phone_page(chromium, asgi_server) as page:
        start_from_home(page, asgi_server, slug, computers=computers)
        streaming(page)
        play_by_clicking(page, max_clicks=max_clicks)
        assert Game.objects.get().status == GameStatus.FINISHED
        assert page.locator(".final .ranking li").count() == computers + 1
        assert not polls(page), f"the page polled: {polls(page)[:3]}"
        assert not page.problems, page.problems


def test_a_spectators_page_catches_up_after_the_server_comes_back(chromium, asgi_site):  # noqa: F811
    """The server goes down under a spectator's page (its stream cut), the game goes on
    meanwhile, the server comes back on the same address: the page's EventSource
    reconnects, saying which table it has, and the page shows the game as it is now, in
    the same document (no reload), still without polling."""
    ann = Client()
    data = {"game": "felix", "name": "Ann", "computers": "2"}
    assert ann.post(reverse("web:play-create"), data).status_code == 302
    game = Game.objects.order_by("-pk").first()
    with phone_page(chromium, asgi_site.url) as page:
        loads, said = [], []
        page.on("load", lambda loaded: loads.append(loaded.url))
        page.on("request", lambda asked: "/events/" in asked.url and said.append(asked))
        page.goto(asgi_site.url + reverse("web:game", args=[game.pk]))
        streaming(page)
        first = version_shown(page)
        ann_moves(ann, game)  # pushed while the server is up
        shows_a_version_past(page, first)
        page.evaluate("() => { window.sameDocument = true; }")
        before, had = version_shown(page), changes.token(game.pk)
        assert before == Game.objects.get(pk=game.pk).version
        opened = len(said)

        asgi_site.stop()
        for _ in range(2):
            ann_moves(ann, game)
        now = Game.objects.get(pk=game.pk).version
        assert now > before
        page.wait_for_timeout(1500)  # the page tries (and fails) to reconnect meanwhile
        assert version_shown(page) == before
        asgi_site.start()

        shows_a_version_past(page, before, timeout=15_000)
        assert version_shown(page) == now
        assert page.evaluate("() => window.sameDocument === true"), "the page was reloaded"
        assert len(loads) == 1, f"the page was loaded again: {loads}"
        # Its stream again, saying which table it had: the one pushed before the server
        # went down.
        answered = [asked for asked in said[opened:] if asked.response() is not None]
        assert answered, "the page did not open its stream again"
        told = answered[0].all_headers().get("last-event-id")
        assert told == had, (told, had)
        assert not polls(page), f"the page polled: {polls(page)[:3]}"
        # The browser logs the stream cut and each reconnection refused while the server was
        # down; nothing else.
        cut = ("ERR_INCOMPLETE_CHUNKED_ENCODING", "ERR_CONNECTION_REFUSED")
        problems = [p for p in page.problems if not any(c in p for c in cut)]
        assert not problems, problems


def test_a_page_whose_stream_was_refused_polls_then_streams_again(chromium, asgi_server):  # noqa: F811
    """A stream answered with an error status (a proxy's 502 while the site restarts, a
    429) is closed by the browser for good: the page follows by polling meanwhile, then
    opens its stream again, and later changes are pushed, not polled."""
    ann = Client()
    data = {"game": "felix", "name": "Ann", "computers": "2"}
    assert ann.post(reverse("web:play-create"), data).status_code == 302
    game = Game.objects.order_by("-pk").first()
    with phone_page(chromium, asgi_server) as page:
        refused: list[str] = []

        def first_refused(route):
            if refused:
                route.continue_()
            else:
                refused.append(route.request.url)
                route.fulfill(status=502, body="Bad gateway")

        page.route(re.compile(r"/events/"), first_refused)
        page.goto(asgi_server + reverse("web:game", args=[game.pk]))
        before = version_shown(page)
        ann_moves(ann, game)
        shows_a_version_past(page, before)
        assert refused and polls(page), "the change did not come by polling"

        deadline = time.monotonic() + 25  # the first retry: 10 s ± 25 %, after a poll ends
        while len(streams(page)) < 2:
            assert time.monotonic() < deadline, "the page never tried its stream again"
            page.wait_for_timeout(100)
        if settings.REDIS_URL:
            assert notify.hub.subscribed.wait(10)
        page.wait_for_timeout(500)
        polled = len(polls(page))
        for _ in range(2):
            before = version_shown(page)
            ann_moves(ann, game)
            shows_a_version_past(page, before)
        assert len(polls(page)) == polled, "the page still polls beside its stream"
        problems = [p for p in page.problems if "502" not in p]
        assert not problems, problems
