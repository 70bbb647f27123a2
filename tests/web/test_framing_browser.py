"""Telegram's web clients open a Mini App in an iframe of their own page: the Mini App's
entry loads there, and a page of any other origin that frames it gets nothing (CSP
frame-ancestors, enforced by a real browser).

Nothing leaves the machine: the parent pages are served by the test in place of the real
sites, and the site is reached at a public https address (``SITE``) whose requests the
test hands to the live server, headers and all, as a TLS proxy would. (Framed straight from
the live server's loopback address, the page would be stopped by Chromium's local network
access checks before its own headers were read.)"""

import random
import time

import pytest

from tests.web.tables import OFFERED, click_one, start_from_home

pytestmark = [pytest.mark.services, pytest.mark.slow]
SITE = "https://catclub.example"


def frame(page, live_server, parent: str, path: str):
    """Open a page of ``parent`` that frames the site's ``path``; the frame once loaded,
    and the console's messages."""
    messages = []
    page.on("console", lambda msg: messages.append(msg.text))

    def proxy(route):
        upstream = route.fetch(url=live_server.url + route.request.url.removeprefix(SITE))
        route.fulfill(response=upstream)

    page.route(f"{SITE}/**", proxy)
    page.route(
        f"{parent}/**",
        lambda route: route.fulfill(
            content_type="text/html",
            body=f'<!doctype html><title>parent</title><iframe src="{SITE}{path}"></iframe>',
        ),
    )
    page.goto(f"{parent}/k/")
    page.wait_for_load_state("load")
    (child,) = page.main_frame.child_frames
    return child, messages


@pytest.mark.parametrize("parent", ["https://web.telegram.org", "https://webk.telegram.org"])
def test_the_mini_app_loads_in_a_telegram_web_clients_iframe(page, live_server, parent):
    child, messages = frame(page, live_server, parent, "/play/tg/")
    child.wait_for_selector("#signin", state="attached", timeout=10_000)
    assert child.url == f"{SITE}/play/tg/"
    assert not [m for m in messages if "Content Security Policy" in m], messages


@pytest.mark.parametrize(
    "parent", ["https://evil.example", "https://web.telegram.org.evil.example"]
)
def test_any_other_origin_is_refused_framing(page, live_server, parent):
    child, messages = frame(page, live_server, parent, "/play/tg/")
    page.wait_for_timeout(300)
    assert child.query_selector("#signin") is None
    assert any("frame-ancestors" in m for m in messages), messages


def test_the_rest_of_the_site_is_refused_framing_even_by_telegram(page, live_server):
    child, messages = frame(page, live_server, "https://web.telegram.org", "/")
    page.wait_for_timeout(300)
    assert child.query_selector("header.top") is None
    assert any("frame-ancestors" in m for m in messages), messages


def csp_violations(page) -> list[str]:
    """What the browser reports blocking by the Content-Security-Policy (in the console)."""
    violations = []
    page.on(
        "console",
        lambda msg: "Content Security Policy" in msg.text and violations.append(msg.text),
    )
    return violations


def test_a_table_plays_under_the_policy_without_a_violation(page, live_server):
    violations = csp_violations(page)
    response = page.goto(live_server.url + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    start_from_home(page, live_server.url, "felix", computers=2)
    rng = random.Random(3)
    clicks = 0
    while clicks < 3:
        page.wait_for_selector(OFFERED)
        clicks += click_one(page, rng)
    assert not violations, violations
    assert not page.problems, page.problems


def levels_at_the_table() -> list[str]:
    from games.play.levels import level_of
    from games.play.models import Seat

    return [
        level_of(s) for s in Seat.objects.filter(player=None).values_list("strategy", flat=True)
    ]


def test_a_lobby_computers_level_changes_by_its_select_without_an_inline_handler(page, live_server):
    violations = csp_violations(page)
    page.goto(live_server.url + "/play/")
    page.check("input[name=game][value=felix]")
    page.fill("#name", "Ann")
    page.select_option("#computers", "2")
    page.check("input[name=friends]")
    page.click("form.newtable button.primary")
    level = "select[data-submit][name=level]"
    page.wait_for_selector(level)
    values = page.eval_on_selector(level, "s => [...s.options].map((o) => o.value)")
    other = next(v for v in values if v != page.eval_on_selector(level, "s => s.value"))
    page.select_option(level, other)  # sent by site.js
    # The server has the new level (the page comes back by the form's answer, or by the
    # lobby's own reload when its long poll sees the change first: either may abort the
    # other, so the test asks the database, not the navigation).
    deadline = time.monotonic() + 10
    while other not in levels_at_the_table() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert other in levels_at_the_table()
    page.wait_for_selector(level)
    assert not violations, violations
    assert not page.problems, page.problems
