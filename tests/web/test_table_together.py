"""Two people in two browsers play one Felix game together with a computer: one opens a
table and shares its link, the other takes the free seat with a name of her choice."""

import pytest

from games.play.models import Game, GameStatus
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import PHONE, play_together

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_two_browsers_play_felix_together_with_a_computer(page, chromium, live_server):
    page.goto(live_server.url + "/play/")
    page.check("input[name=game][value=felix]")
    page.fill("#name", "Ann")
    page.select_option("#computers", "1")
    page.check("input[name=friends]")
    page.click("form.newtable button.primary")
    link = page.locator("#invite-link").input_value()
    assert Game.objects.get().status == GameStatus.LOBBY

    other = chromium.new_context(viewport=PHONE, locale="it-IT")
    try:
        bea = other.new_page()
        bea.goto(link)
        bea.fill("#name", "Bea")
        bea.click("form.row button.primary")
        assert "Bea" in bea.locator("ol.seats").inner_text()
        # Ann's lobby follows by itself (it reloads when someone takes a seat).
        page.wait_for_function("() => document.querySelector('ol.seats').innerText.includes('Bea')")
        page.click("section.lobby button.primary")  # Ann starts the table
        page.wait_for_selector(".tablebox")
        bea.wait_for_selector(".tablebox")  # Bea's page follows without a reload
        game = Game.objects.get()
        assert game.status == GameStatus.RUNNING
        assert sorted(s.player.display_name for s in game.seats.exclude(player=None)) == [
            "Ann",
            "Bea",
        ]
        shot(bea, "table-felix-together-phone")
        play_together([page, bea], max_clicks=400)
        assert Game.objects.get().status == GameStatus.FINISHED
        assert fits_the_phone(bea)
        assert bea.locator(".final .ranking li").count() == 3
    finally:
        other.close()
    # Two people clicking at once may send a move the other's has made stale: the server
    # refuses it with 409 (the page shows the toast), which the browser logs. Anything
    # else is a problem.
    problems = [p for p in page.problems if "status of 409" not in p]
    assert not problems, problems
