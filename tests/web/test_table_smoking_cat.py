"""Smoking Cat in the browser: from the home page a new user plays a whole match against
three computers by clicking only (passing one card at a time, then the tricks)."""

import pytest

from games.play.models import Game, GameStatus
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import play_by_clicking, start_from_home

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_a_new_user_plays_smoking_cat_to_the_end_by_clicking(page, live_server):
    start_from_home(page, live_server.url, "smoking_cat", computers=3)
    page.wait_for_selector(".board.smoking .hand .card")
    assert page.locator('.board.smoking .hand [data-action^="pass:"]').count() == 8
    assert fits_the_phone(page)
    shot(page, "table-smoking_cat-phone")
    desktop = page.context.new_page()
    desktop.set_viewport_size({"width": 1280, "height": 800})
    desktop.goto(page.url)
    desktop.wait_for_selector(".board.smoking")
    shot(desktop, "table-smoking_cat-desktop")
    desktop.close()
    play_by_clicking(page, max_clicks=1500)
    assert Game.objects.get().status == GameStatus.FINISHED
    assert page.locator(".final .ranking li").count() == 4
    assert fits_the_phone(page)
    shot(page, "table-smoking_cat-final-phone")
    assert not page.problems, page.problems
