"""A spectator's page follows the game by server-sent events (issue 24): served over ASGI,
the page opens an EventSource to /events/, polls nothing, and shows each change."""

from __future__ import annotations

import re

from django.conf import settings
from django.test import Client
from django.urls import reverse

from admin_ui.public import notify
from games.play.models import Game
from tests.web.asgi import asgi_server  # noqa: F401  (fixture)
from tests.web.browser import PHONE

ACTION = re.compile(r'data-action="([^"]+)"')


def ann_moves(ann: Client, game: Game) -> None:
    html = ann.get(reverse("web:table-state", args=[game.pk]) + "?wait=0").json()["html"]
    version = Game.objects.get(pk=game.pk).version
    data = {"action": ACTION.findall(html)[0], "version": version, "key": f"k{version}"}
    assert ann.post(reverse("web:table-move", args=[game.pk]), data).json()["ok"]


def version_shown(page) -> int:
    return int(page.get_attribute("#table .tablebox", "data-version"))


def test_a_spectators_page_is_pushed_each_change(chromium, asgi_server):  # noqa: F811
    ann = Client()
    data = {"game": "felix", "name": "Ann", "computers": "2"}
    assert ann.post(reverse("web:play-create"), data).status_code == 302
    game = Game.objects.order_by("-pk").first()

    context = chromium.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    problems, asked = [], []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto(asgi_server + reverse("web:game", args=[game.pk]))
        page.wait_for_function(
            "() => performance.getEntriesByType('resource').some("
            "(e) => e.name.includes('/events/'))"
        )
        if settings.REDIS_URL:
            assert notify.hub.subscribed.wait(10)
        for _ in range(3):
            before = version_shown(page)
            ann_moves(ann, game)
            page.wait_for_function(
                "(v) => Number(document.querySelector('#table .tablebox').dataset.version) > v",
                arg=before,
                timeout=10000,
            )
        assert any("/events/" in url for url in asked)
        assert not any("/state/" in url for url in asked), "the page polled"
        assert not problems
    finally:
        context.close()
