"""A Telegram user's evening in the Mini App (issue 45): Tina opens the app from Telegram in
its dark theme (a stand-in ``Telegram.WebApp`` with her signed ``initData``: Telegram's
script is never fetched), sets up a Smoking Cat table against three computers with
Telegram's main button, and plays the match to its end by tapping the board: each throw
down of hers (S12: a button, then Confirm) is confirmed with the main button, the phone
taps when her turn begins, and the page wears her Telegram theme throughout."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.play.models import Game, GameStatus, Move
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import CONFIRM, OFFERED
from tests.web.telegram_webapp import DARK, back_button_shown, calls, main_button, rgb, stand_in
from tests.web.test_play import init_data

pytestmark = [pytest.mark.services, pytest.mark.slow]
BOT_TOKEN = "123456:TEST-TOKEN"
BACKGROUND = "getComputedStyle(document.documentElement).backgroundColor"


def test_issue_45_a_telegram_user_plays_a_game_to_its_end_in_the_mini_app(
    page, live_server, settings
):
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600
    settings.TABLE_WAIT_SECONDS = 1
    page.add_init_script(script=stand_in(init_data(first_name="Tina"), DARK, "dark"))
    page.goto(live_server.url + "/play/tg/")

    # No table named: the app opens on a new table, its first page (no back button).
    page.wait_for_url("**/play/")
    assert page.evaluate(BACKGROUND) == rgb(DARK["bg_color"])
    page.wait_for_function("() => window.__tg.app.MainButton.isVisible")
    start = page.locator("form.newtable [data-main-button]").inner_text().strip()
    assert main_button(page) == {"text": start, "visible": True, "active": True}
    assert not back_button_shown(page)
    assert calls(page, "ready") == [[]] and calls(page, "expand") == [[]]
    page.check("input[name=game][value=smoking_cat]")
    page.select_option("#computers", "3")
    shot(page, "journey-miniapp-new-table")
    with page.expect_navigation():
        page.evaluate("() => window.__tg.press('MainButton')")

    # Her table: a sub-view of the app, in her theme; she sits there as Telegram names her.
    page.wait_for_selector(".tablebox")
    game = Game.objects.get()
    assert game.status == GameStatus.RUNNING
    assert game.seats.get(player__telegram_id=42).player.display_name == "Tina"
    assert page.evaluate(BACKGROUND) == rgb(DARK["bg_color"])
    page.wait_for_function("() => window.__tg.app.BackButton.isVisible")
    assert fits_the_phone(page)
    shot(page, "journey-miniapp-table")

    rng = random.Random(45)
    confirmed = 0
    for _ in range(1500):
        page.wait_for_selector(f".final, {OFFERED}", timeout=20_000)
        if page.locator(".final").count():
            break
        options = page.locator(OFFERED)
        throw = page.locator(f'{OFFERED}[data-pick="throw"]')
        try:
            # She throws down now and then: a deal conceded ends the match the sooner.
            if throw.count() and rng.random() < 0.3:
                throw.click(timeout=2_000)
            elif n := options.count():
                options.nth(rng.randrange(n)).click(timeout=2_000)
            else:
                continue
        except PlaywrightTimeout:  # the table was redrawn under the tap: look again
            continue
        if page.locator(CONFIRM).count():
            # A choice that asks for Confirm: here, Telegram's main button.
            page.wait_for_function(
                "t => window.__tg.app.MainButton.isVisible && window.__tg.app.MainButton.text == t",
                arg=page.locator(".choices .do").inner_text().strip(),
            )
            page.evaluate("() => window.__tg.press('MainButton')")
            confirmed += 1
    else:
        raise AssertionError("no final screen after 1500 taps")

    page.locator(".final .ranking li").nth(3).wait_for()
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert confirmed >= 1  # at least one throw down went through the main button
    # Each press on the main button was a Confirm pressed: her throw down, sent.
    her = game.seats.get(player__telegram_id=42).number
    assert Move.objects.filter(game=game, seat=her, action="throw").count() == confirmed
    # Each turn of hers that began after a move of hers, a tap in the hand.
    taps = calls(page, "notificationOccurred")
    assert taps.count(["success"]) >= 3, taps
    assert ["error"] not in taps
    page.wait_for_function("() => !window.__tg.app.MainButton.isVisible")  # nothing to confirm
    assert page.evaluate(BACKGROUND) == rgb(DARK["bg_color"])
    assert fits_the_phone(page)
    shot(page, "journey-miniapp-final")
    assert not page.problems, page.problems
