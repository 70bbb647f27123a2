"""Bon Appétit! in the browser: from the home page, a new user plays a whole game against a
computer by clicking only, and reaches the final screen."""

import pytest

from games.play.models import Game, GameStatus
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import play_by_clicking, start_from_home

pytestmark = [pytest.mark.services, pytest.mark.slow]


def test_a_new_user_plays_bon_appetit_to_the_end_by_clicking(page, live_server, transactional_db):
    start_from_home(page, live_server.url, "bon_appetit", computers=1)
    assert fits_the_phone(page)
    shot(page, "table-bon_appetit-phone")
    desktop = page.context.new_page()
    desktop.set_viewport_size({"width": 1280, "height": 800})
    desktop.goto(page.url)
    desktop.wait_for_selector(".board.bon")
    shot(desktop, "table-bon_appetit-desktop")
    desktop.close()
    play_by_clicking(page, max_clicks=600)
    game = Game.objects.get()
    assert game.status == GameStatus.FINISHED
    assert page.locator(".final .ranking li").count() == 2
    assert fits_the_phone(page)
    shot(page, "table-bon_appetit-final-phone")
    assert not page.problems, page.problems
