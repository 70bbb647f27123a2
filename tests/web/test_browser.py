"""A real browser on the real pages: Debian's Chromium, headless, driven by Playwright.

Opens a league's standings, a player's page and a replay on a phone-sized screen, steps
through the replay with the buttons and the arrow keys, switches the language, and saves
screenshots under test-artifacts/. No browser is downloaded: Chromium comes from Debian's
packages (installed here when missing, as root, the way CI's machine is set up).
"""

from __future__ import annotations

import re

import pytest

from tests.web.browser import fits_the_phone, shot
from tests.web.seed import played, seed_league

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_league_player_and_replay_in_a_real_browser(page, live_server, transactional_db):
    s = seed_league()
    game = played("felix", [s.anna, s.bruno], 1, league=s.league)
    base = live_server.url

    # The league's standings.
    page.goto(f"{base}/leagues/roma/?season=all")
    felix = page.locator("#felix table tbody tr")
    assert felix.count() == 4
    assert felix.first.locator("td.name").inner_text() == "Bruno"
    assert page.locator(".matches .word-marks").count() == 4
    assert fits_the_phone(page)
    shot(page, "league-standings-phone")

    # The season selector reloads the table for the season.
    page.select_option("#season", str(s.spring.pk))
    page.wait_for_url(re.compile(rf"season={s.spring.pk}$"))
    names = page.locator("#felix td.name").all_inner_texts()
    assert sorted(names) == ["Anna", "Bruno", "Carla"]

    # A player's page, from the standings, with the rating-history chart drawn.
    page.goto(f"{base}/leagues/roma/?season=all")
    page.locator("#felix td.name a", has_text="Bruno").click()
    page.wait_for_selector("#chart svg polyline", state="attached")
    assert page.locator("h1").inner_text() == "Bruno"
    # One line per game (Felix, Bon Appétit), and a legend of exactly those lines.
    assert page.locator("#chart polyline").count() == 2
    assert page.locator("#chart .legend button").count() == 2
    page.locator("#chart .legend button").first.click()  # hide a line
    assert page.locator("#chart polyline").count() == 1
    assert fits_the_phone(page)
    shot(page, "player-phone")

    # A finished game's replay, stepped with the buttons and the keys.
    page.goto(f"{base}/games/{game.pk}/")
    counter = page.locator(".replay .counter")
    last = game.version
    assert counter.inner_text() == f"Step 0 of {last}"
    assert page.locator("[data-go=prev]").is_disabled()
    page.click("[data-go=next]")
    assert counter.inner_text() == f"Step 1 of {last}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert counter.inner_text() == f"Step 3 of {last}"
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"Step 2 of {last}"
    assert page.locator(".replay .sentence p").count() >= 1
    # Everyone's cards are shown once the game is over.
    assert page.locator(".board h3", has_text="Hands").count() == 1
    assert page.locator(".board .hand-line").count() == 3
    assert page.locator(".board .hand-line .card").count() > 3
    shot(page, "replay-step-phone")
    page.keyboard.press("End")
    assert counter.inner_text() == f"Step {last} of {last}"
    assert page.locator("[data-go=next]").is_disabled()
    assert page.locator(".board .notice").inner_text() == "Game over"
    assert fits_the_phone(page)
    shot(page, "replay-end-phone")
    page.keyboard.press("Home")
    assert counter.inner_text() == f"Step 0 of {last}"

    # A running match shows spectators' view only: no hands.
    page.goto(f"{base}/games/{s.match.pk}/")
    page.keyboard.press("End")
    assert page.locator(".board .hand-line").count() == 0
    assert page.locator(".board .word-marks").count() == 4
    shot(page, "running-match-phone")

    # The language switcher.
    page.goto(f"{base}/leagues/roma/")
    page.select_option("#lang", "it")
    page.wait_for_selector("text=Partite recenti")
    assert page.locator("html").get_attribute("lang") == "it"
    shot(page, "league-italian-phone")

    assert page.problems == []
