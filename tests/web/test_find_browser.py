"""Finding things in a real browser on a phone (issue 17): the archive's filter form
clicked through, the player search typed, the league's "all games" link followed, and
axe-core with no sideways scroll on every new page in English, Italian and Portuguese.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import fits_the_phone, shot
from tests.web.seed import seed_league
from tests.web.test_accessibility import serious_violations

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_archive_filters_by_clicking_the_form(page, live_server, transactional_db):
    s = seed_league()
    base = live_server.url
    page.goto(f"{base}/")
    page.locator("header nav a", has_text="Games").click()
    page.wait_for_url(f"{base}/games/")
    assert page.locator(".games > li").count() == 10

    page.select_option("#id_game", "felix")
    page.select_option("#id_league", "roma")
    page.select_option("#id_status", "finished")
    page.fill("#id_until", "2026-04-06")
    page.get_by_role("button", name="Show games").click()
    page.wait_for_url(re.compile(r"game=felix&league=roma&status=finished"))
    links = page.locator(".games .game-link").all_inner_texts()
    expected = [s.g4, s.g3, s.g2, s.g1]  # newest first; g5 is on 7 April
    assert links == [f"Felix: The Cat in the Sack #{g.pk}" for g in expected]
    # The form keeps what was chosen.
    assert page.locator("#id_game").input_value() == "felix"
    assert page.locator("#id_until").input_value() == "2026-04-06"
    assert fits_the_phone(page)
    shot(page, "archive-filtered-phone")

    page.get_by_role("link", name="Clear the filters").click()
    page.wait_for_url(f"{base}/games/")
    assert page.locator(".games > li").count() == 10
    assert page.problems == []


def test_player_search_and_their_games(page, live_server, transactional_db):
    s = seed_league()
    base = live_server.url
    page.goto(f"{base}/players/")
    page.fill("#q", "AR")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"q=AR"))
    assert page.locator(".people a").all_inner_texts() == ["Carla", "Dario"]
    shot(page, "players-search-phone")

    page.locator(".people a", has_text="Dario").click()
    page.wait_for_url(f"{base}/players/{s.dario.pk}/")
    page.get_by_role("link", name="All Dario’s games").click()
    page.wait_for_url(re.compile(rf"/games/\?player={s.dario.pk}$"))
    assert page.locator(".games > li").count() == 4
    assert page.locator(".chip").inner_text().startswith("Player: Dario")
    # Another filter keeps the player; the chip's cross takes the player off.
    page.select_option("#id_status", "aborted")
    page.get_by_role("button", name="Show games").click()
    page.wait_for_url(re.compile(r"status=aborted"))
    assert page.locator(".games > li").count() == 1
    page.get_by_role("link", name="Show everyone’s games").click()
    page.wait_for_url(re.compile(r"/games/\?status=aborted$"))
    assert page.locator(".games > li").count() == 1
    assert page.problems == []


def test_league_page_leads_to_its_games(page, live_server, transactional_db):
    s = seed_league()
    base = live_server.url
    page.goto(f"{base}/leagues/roma/")
    playing = page.locator("section", has=page.get_by_role("heading", name="Playing now"))
    assert playing.locator(".playing li").count() == 1
    assert playing.locator(f'a[href="/play/{s.match.pk}/"]').count() == 2
    page.get_by_role("link", name="All the league's games").click()
    page.wait_for_url(re.compile(r"/games/\?league=roma$"))
    assert page.locator("#id_league").input_value() == "roma"
    assert page.locator(".games > li").count() == 8  # all but Milano's game and match


@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_the_new_pages_have_no_serious_violation_and_fit_a_phone(
    page, live_server, transactional_db, language
):
    s = seed_league()
    base = live_server.url
    page.goto(f"{base}/")
    if language != "en":
        with page.expect_navigation():
            page.select_option("#lang", language)  # the form submits itself
    urls = {
        "archive": "/games/",
        "archive-filtered": f"/games/?player={s.anna.pk}&since=2026-04-01&status=finished",
        "archive-error": "/games/?since=2026-04-10&until=2026-04-01",
        "players": "/players/",
        "players-search": "/players/?q=zzz",
        "leaderboard": "/leaderboard/felix/",
        "leaderboard-season": f"/leaderboard/felix/?league=roma&season={s.spring.pk}",
        "league": "/leagues/roma/",
    }
    for name, url in urls.items():
        page.goto(base + url)
        assert page.locator("html").get_attribute("lang") == language
        assert serious_violations(page) == [], (language, url)
        assert fits_the_phone(page), (language, url)
        shot(page, f"find-{name}-{language}-phone")
    assert page.problems == []
