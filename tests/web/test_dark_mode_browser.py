"""The site in the dark (issue 45): it follows the system's colour scheme, and a toggle in
the header (auto, light, dark) overrides it; the choice is kept in a cookie that the next
pages are rendered with, so their first paint is right with no script at all. axe-core
finds no serious violation (colour contrast included) in either palette on the pages a
player reads: home, a table, a tournament, a replay."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import catalog
from games.play.models import Game
from games.tournaments import rounds
from tests.tourneys import tournament
from tests.web.browser import PHONE, fits_the_phone, shot
from tests.web.seed import played, players
from tests.web.tables import CONFIRM, OFFERED, start_from_home, to_her_play
from tests.web.test_accessibility import serious_violations
from tests.web.watching import COMPUTERS

pytestmark = [pytest.mark.services, pytest.mark.slow]

BACKGROUND = "getComputedStyle(document.documentElement).backgroundColor"
LIGHT_BG = "rgb(251, 248, 244)"  # site.css --bg, light
DARK_BG = "rgb(22, 24, 28)"  # site.css --bg, dark


def test_issue_45_the_site_follows_the_systems_colour_scheme(page, live_server):
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + "/")
    assert page.evaluate(BACKGROUND) == DARK_BG
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(233, 230, 226)"
    assert page.locator("html").get_attribute("data-theme") is None
    page.emulate_media(color_scheme="light")
    assert page.evaluate(BACKGROUND) == LIGHT_BG
    assert not page.problems, page.problems


def test_issue_45_the_toggle_chooses_and_the_next_page_is_rendered_so(page, live_server, chromium):
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + "/")
    toggle = page.locator("#theme")
    assert toggle.is_visible()
    assert toggle.input_value() == "auto"
    toggle.select_option("light")  # at once, no reload
    assert page.evaluate(BACKGROUND) == LIGHT_BG
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("theme") == "light"
    # The next page comes rendered in the choice: right before any script runs.
    answer = page.goto(live_server.url + "/games/")
    assert 'data-theme="light"' in answer.text()
    assert page.evaluate(BACKGROUND) == LIGHT_BG
    assert page.locator("#theme").input_value() == "light"
    # And so in a browser that runs no script at all (nor shows the toggle it cannot use).
    bare = chromium.new_context(viewport=PHONE, java_script_enabled=False, color_scheme="dark")
    try:
        bare.add_cookies([{"name": "theme", "value": "dark", "url": live_server.url}])
        other = bare.new_page()
        other.goto(live_server.url + "/")
        assert other.evaluate(BACKGROUND) == DARK_BG
        bare.clear_cookies()
        bare.add_cookies([{"name": "theme", "value": "light", "url": live_server.url}])
        other.goto(live_server.url + "/")
        assert other.evaluate(BACKGROUND) == LIGHT_BG
        assert other.locator(".theme-pick").is_hidden()
    finally:
        bare.close()
    page.locator("#theme").select_option("dark")
    assert page.evaluate(BACKGROUND) == DARK_BG
    page.emulate_media(color_scheme="light")
    assert page.evaluate(BACKGROUND) == DARK_BG  # the reader's choice, not the system's
    page.locator("#theme").select_option("auto")
    assert page.evaluate(BACKGROUND) == LIGHT_BG
    assert "theme" not in {c["name"] for c in page.context.cookies()}
    assert not page.problems, page.problems


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_issue_45_the_pages_have_no_serious_violation_in_either_palette(page, live_server, scheme):
    page.emulate_media(color_scheme=scheme)
    base = live_server.url
    bg = DARK_BG if scheme == "dark" else LIGHT_BG

    def checked(name: str) -> None:
        assert page.evaluate(BACKGROUND) == bg, name
        assert serious_violations(page) == [], name
        assert fits_the_phone(page), name
        shot(page, f"{name}-{scheme}-phone")

    page.goto(base + "/")
    checked("home")
    # A table waiting for friends: its lobby, with the creator's controls.
    page.goto(base + "/play/")
    checked("play")
    page.fill("#name", "Ann")
    page.select_option("#computers", "1")
    page.check("input[name=friends]")
    page.click("form.newtable button.primary")
    page.wait_for_selector("#lobby .seats")
    checked("lobby")
    start_from_home(page, base, "felix", computers=2)
    page.wait_for_selector(OFFERED)
    checked("table-felix")
    # A choice under way, with its Confirm and Back: Smoking Cat's throw down (S12).
    start_from_home(page, base, "smoking_cat", computers=3)
    game = Game.objects.get(game_type="smoking_cat")
    to_her_play(game, game.seats.get(player__isnull=False).player)
    page.reload()
    page.locator('.choices .pick[data-pick="throw"]').click()
    page.locator(CONFIRM).wait_for()
    page.locator(".choices .undo").wait_for()
    checked("table-smoking_cat-confirm")
    t, _people = tournament(4, starts_at=timezone.now() + timedelta(minutes=5))
    rounds.start_now(t)
    page.goto(base + reverse("web:tournament", args=[t.pk]))
    checked("tournament")
    for slug in ("felix", "cats_and_dogs"):
        game = played(slug, players(1), COMPUTERS[slug])
        page.goto(f"{base}/games/{game.pk}/")
        page.wait_for_selector(".replay .board table")
        page.locator(".legend-box summary").click()
        checked(f"replay-{slug}")
    assert not page.problems, page.problems


@pytest.mark.parametrize("slug", catalog.slugs())
def test_issue_45_each_games_table_and_replay_read_in_the_dark(page, live_server, slug):
    """Each game's own drawing (its felt, its seats, its cards) on the dark palette."""
    page.emulate_media(color_scheme="dark")
    start_from_home(page, live_server.url, slug, computers=COMPUTERS[slug])
    page.wait_for_selector(OFFERED)
    assert serious_violations(page) == [], slug
    assert fits_the_phone(page)
    shot(page, f"table-{slug}-dark-phone")
    game = played(slug, players(1), COMPUTERS[slug])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".replay .board table")
    page.locator(".legend-box summary").click()
    assert serious_violations(page) == [], slug
    shot(page, f"replay-{slug}-dark-phone")
    assert not page.problems, page.problems
