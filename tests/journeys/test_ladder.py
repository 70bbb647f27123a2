"""A player who places herself against the computers (issue 47), on a phone: the new-table
form offers each level with its rating, and the game's computers can be set in the lobby;
"Play at my level" seats every computer at the level nearest her rating in that game; she
starts the table and plays it to its end in the dark theme; the game's page shows the same
ladder."""

from __future__ import annotations

import pytest

from games.play.models import Game, GameStatus
from games.ratings import at_my_level
from tests.ladder import measured  # noqa: F401 (the fixture)
from tests.web.browser import beside_the_browser, fits_the_phone, shot
from tests.web.tables import play_by_clicking
from tests.web.test_accessibility import serious_violations
from tests.web.test_ladder import rated

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("measured")]


def selected_levels(page) -> list[str]:
    """The level each computer of the lobby is shown at, as its select reads."""
    return page.locator("form.setlevel select").evaluate_all(
        "selects => selects.map(s => s.options[s.selectedIndex].textContent.trim())"
    )


def test_a_rated_player_plays_the_computers_at_her_level_to_the_end(page, live_server):
    base = live_server.url
    page.goto(base + "/play/")
    page.check("input[name=game][value=felix]")
    page.select_option("#computers", "2")
    # The form names each level with its rating in the chosen game.
    options = page.locator("#level1 option").evaluate_all("os => os.map(o => o.textContent)")
    assert "beginner · 1100" in options and "hard · 1720" in options, options
    page.fill("#name", "Ann")
    page.check("input[name=friends]")
    page.select_option("#level1", "easy")
    page.select_option("#level2", "easy")
    page.click("form.newtable button.primary")
    page.wait_for_selector("form.atmylevel")
    assert selected_levels(page) == ["easy · 1300", "easy · 1300"]
    assert fits_the_phone(page)

    # She has played Felix before: her rating shows 1710, nearest strong's 1640 and hard's
    # 1720; signed out of Telegram a table has at most one hard computer, so both strong.
    game = Game.objects.get()
    ann = game.created_by
    beside_the_browser(rated, ann, mu=3 * 2 + 210 / 24)
    assert beside_the_browser(at_my_level.person_rating, ann, game.kind) == 1710
    with page.expect_navigation():
        page.locator("form.atmylevel button").click()
    assert selected_levels(page) == ["strong · 1640", "strong · 1640"]

    # The lobby in the dark, read as a screen reader would, then the game to its end.
    page.emulate_media(color_scheme="dark")
    assert serious_violations(page) == []
    shot(page, "journey-ladder-lobby-dark")
    assert not page.problems, page.problems
    with page.expect_navigation():
        page.locator("form[action$='/start/'] button").click()
    play_by_clicking(page, max_clicks=400)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    strategies = sorted(game.seats.filter(player__isnull=True).values_list("strategy", flat=True))
    assert strategies == ["strong", "strong"]
    assert fits_the_phone(page)
    shot(page, "journey-ladder-final-dark")

    # The game's page shows the ladder she placed herself on, and says computers are unrated.
    page.goto(base + "/rules/felix/")
    ladder = page.locator("#computers").inner_text()
    assert "strong · 1640" in ladder and "hard · 1720" in ladder, ladder
    assert "Computers are never rated" in page.content()
    # Taps quicker than the table (a choice tapped as the computers' moves redraw it) are
    # refused with 409 and the table redrawn; nothing else went wrong on the way.
    assert all("409 (Conflict)" in p for p in page.problems), page.problems
