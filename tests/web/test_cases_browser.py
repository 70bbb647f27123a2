"""Issue 48 in a real browser (Debian's Chromium), at a desktop's width: a moderator opens
the queue, finds the most reported case first, reads its evidence beside the actions and
dismisses it with a reason; a player reports from a game's page. No serious axe
violation on either page."""

from __future__ import annotations

import time
from importlib import import_module

import pytest
from django.conf import settings

from games.moderation import reports
from games.moderation.models import Case, ModerationAction, Report
from tests.web.browser import shot
from tests.web.conftest import VIEW_PERMISSIONS, staff_user
from tests.web.seed import _on_commit, played, players
from tests.web.test_accessibility import serious_violations
from tests.web.test_staff_browser import log_in

pytestmark = [pytest.mark.services, pytest.mark.slow]

DESKTOP = {"width": 1280, "height": 800}


def test_issue_48_a_moderator_handles_the_most_reported_case(
    page, live_server, transactional_db, django_user_model
):
    page.set_viewport_size(DESKTOP)
    anna, bruno, carla = players(3)
    game = played("felix", [anna, bruno, carla], 0, humans_play=True)
    with _on_commit():
        reports.file(anna, bruno, "stalling", game=game)
        reports.file(carla, bruno, "collusion", game=game)
        reports.file(anna, carla, "name", game=game)
    staff_user(django_user_model, "casemod", ["handle_cases", *VIEW_PERMISSIONS])
    base = live_server.url
    log_in(page, base, "casemod")

    page.goto(base + "/admin/games/case/")
    rows = page.locator("#result_list tbody tr")
    assert rows.count() == 2
    assert bruno.display_name in rows.nth(0).inner_text()
    assert serious_violations(page) == []
    rows.nth(0).locator("a").first.click()
    page.wait_for_selector("#reports")
    # The evidence beside the actions: the reports, the replay with every move.
    assert page.locator("#reports tbody tr").count() == 2
    assert page.locator(f"#game-{game.pk} .moves li").count() == game.moves.count()
    assert page.locator("#completion li").count() == 3
    evidence = page.locator(".case-evidence").bounding_box()
    actions = page.locator(".case-actions").bounding_box()
    assert actions["x"] > evidence["x"] + evidence["width"] - 1  # side by side
    assert serious_violations(page) == []
    shot(page, "case-desktop")

    page.check("input[name=action][value=dismiss]")
    page.fill("textarea[name=reason]", "nothing wrong in the replay")
    with page.expect_navigation():
        page.click("input[type=submit][value='Take the action']")
    assert page.url.endswith("/admin/games/case/")
    entry = ModerationAction.objects.get(kind="dismiss")
    assert entry.player == bruno and entry.reason == "nothing wrong in the replay"
    assert Case.objects.get(player=bruno).status == "closed"
    # The queue and the (now closed) case in Italian and Portuguese, axe-clean too.
    case = Case.objects.get(player=bruno)
    for language, word in (("it", "Prove"), ("pt", "Provas")):
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
        )
        page.goto(f"{base}/admin/games/case/?state=all")
        assert serious_violations(page) == []
        page.goto(f"{base}/admin/games/case/{case.pk}/change/")
        assert page.locator(".case-evidence h2").inner_text() == word
        assert serious_violations(page) == []
    problems = [p for p in page.problems if "404 (Not Found)" not in p]
    assert not problems, problems


def test_issue_48_a_report_from_a_game_page_in_the_browser(page, live_server, transactional_db):
    page.set_viewport_size(DESKTOP)
    anna, bruno, carla = players(3)
    game = played("felix", [anna, bruno, carla], 0, humans_play=True)
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["catclub_player"] = anna.pk
    store["catclub_auth_date"] = int(time.time())
    store.create()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("text=Report a player")
    page.wait_for_selector("form.report")
    assert serious_violations(page) == []
    page.select_option("select[name=reported]", str(bruno.pk))
    page.check("input[name=reason][value=stalling]")
    with page.expect_navigation():
        page.click("text=Send the report")
    assert page.locator("[role=status]").count() == 1
    assert serious_violations(page) == []
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game) == (anna, bruno, game)
    # The form in Italian and Portuguese: translated, and axe-clean too.
    for language, heading in (("it", "Segnala un giocatore"), ("pt", "Denunciar um jogador")):
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        page.goto(f"{live_server.url}/games/{game.pk}/report/")
        assert page.locator("html").get_attribute("lang") == language
        assert page.locator("h1").inner_text() == heading
        assert serious_violations(page) == []
