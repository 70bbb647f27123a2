"""Issue 46, clause 2: the compose file's services run as processes behind the repo's own
Caddyfile, driven through the proxy: a game to its end in Chromium with the push, the
Telegram webhook, and the hostile cases of findings 1-4 held at the edge while a person
plays and /healthz is asked."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.services]


def case(result, name: str):
    return next(c for c in result.cases if name in c.name)


def test_issue_46_stack_plays_a_game_to_its_end_through_the_proxy_with_the_push(driven):
    played = driven.played
    assert played.finished
    assert played.clicks, "no tap reached the table"
    # The page's event stream (routed to `live`, unbuffered) brought the tables.
    assert played.pushed > 0
    assert driven.lost == 0
    assert driven.doubled == 0


def test_issue_46_stack_rolling_restart_loses_and_doubles_no_move(driven):
    # Web, live, the workers and beat restarted one at a time during a second game: it
    # reaches its end on the page (which caught up after each restart), nothing lost or
    # applied twice, counted over both games.
    assert driven.rolling_finished, driven.rolling
    assert driven.lost == 0, driven.rolling
    assert driven.doubled == 0, driven.rolling


def test_issue_46_stack_two_web_nodes_both_take_moves_for_one_page(driven):
    # One page, its stream on one live node at a time, its moves spread over both web
    # nodes: a move made through either node reaches the page through Redis.
    assert driven.nodes_used["web"] > 0 and driven.nodes_used["web-2"] > 0, driven.nodes_used
    assert driven.played.finished


def test_issue_46_stack_telegram_setup_ran_and_the_webhook_answers(driven):
    assert {"setWebhook", "setMyCommands", "setChatMenuButton", "setMyDescription"} <= set(
        driven.setup_calls
    )
    assert driven.webhook_failed == 0
    # Each /help posted through the proxy was answered in its private chat.
    assert driven.answered >= 10


def test_issue_46_stack_slow_and_idle_connections_do_not_starve_healthz(driven):
    slow = case(driven, "partial-header")
    assert slow.held, slow.detail
    assert driven.healthz_failed == 0


def test_issue_46_stack_an_8_mib_header_is_refused(driven):
    big = case(driven, "8 MiB header")
    assert big.held, big.detail


def test_issue_46_stack_a_400_mib_body_is_refused_early(driven):
    body = case(driven, "400 MiB body")
    assert body.held, body.detail
    chunked = case(driven, "chunked body")
    assert chunked.held, chunked.detail


def test_issue_46_stack_http_goes_to_https_with_one_hsts_header(stack):
    import httpx

    r = httpx.get(f"http://localhost:{stack.ports['http']}/play/", timeout=10)
    assert r.status_code in (301, 308)
    assert r.headers["location"].startswith("https://localhost")
    with stack.client() as c:
        page = c.get("/")
    assert page.status_code == 200
    assert page.headers.get_list("strict-transport-security") == [
        "max-age=31536000; includeSubDomains"
    ]
    assert "server" not in page.headers
