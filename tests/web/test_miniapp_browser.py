"""The Telegram Mini App in a real browser: Telegram opens the app's URL with its signed
``initData`` in the address's fragment; the page signs in with it, opens the table of the
start parameter and plays a move, each request that acts checked on the server. A forged
or expired ``initData`` gets 403 and changes nothing."""

from urllib.parse import quote

import pytest

from games.play import services
from games.play.models import Game, Move, Player
from tests.web.browser import fits_the_phone, shot
from tests.web.test_play import init_data

pytestmark = [pytest.mark.services, pytest.mark.slow]
BOT_TOKEN = "123456:TEST-TOKEN"


@pytest.fixture
def felix_with_tina(settings):
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600
    ann = Player.objects.create(display_name="Ann")
    tina = services.player_from_telegram(42, "Tina", "", "it")
    game = services.create_lobby(None, "felix", ann)
    services.join(game, tina, game.invite)
    services.add_computer(game, by=services.SYSTEM)
    services.start(game, by=ann)
    return Game.objects.get(pk=game.pk), tina


def open_mini_app(page, base: str, raw: str) -> None:
    theme = quote(
        '{"bg_color":"#1e2a33","text_color":"#f5f5f5","button_color":"#3a8fd9",'
        '"secondary_bg_color":"#2b3a45","hint_color":"#8da2b3"}'
    )
    page.goto(f"{base}/play/tg/#tgWebAppData={quote(raw)}&tgWebAppThemeParams={theme}")


def test_a_signed_mini_app_opens_the_table_and_plays(page, live_server, felix_with_tina):
    game, tina = felix_with_tina
    open_mini_app(page, live_server.url, init_data(start_param=str(game.pk)))
    page.wait_for_url(f"**/play/{game.pk}/")
    seat = game.seats.get(player=tina).number
    page.wait_for_selector('.choices .opt[data-action^="place:"]')  # Tina's own hand
    # Telegram's theme follows her from the app's first page to the table.
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(30, 42, 51)", background
    assert fits_the_phone(page)
    shot(page, "miniapp-felix-phone")
    page.locator('.choices .opt[data-action^="place:"]').first.click()
    page.wait_for_function(
        "n => document.querySelectorAll('.choices .opt').length === n", arg=0, timeout=10_000
    )
    assert Move.objects.filter(game=game, seat=seat, key__startswith="web:").count() == 1
    assert not page.problems, page.problems


@pytest.mark.parametrize("how", ["forged", "expired"])
def test_a_forged_or_expired_mini_app_gets_403_and_changes_nothing(
    page, live_server, felix_with_tina, how
):
    game, _tina = felix_with_tina
    if how == "forged":  # signed for user 43, then made to say 42
        raw = init_data(user_id=43, start_param=str(game.pk))
        assert "%22id%22%3A+43" in raw
        raw = raw.replace("%22id%22%3A+43", "%22id%22%3A+42")
    else:
        raw = init_data(auth_date=1_000_000, start_param=str(game.pk))
    before = (Move.objects.count(), Player.objects.count())
    answers = []
    page.on("response", lambda r: "/play/tg/signin/" in r.url and answers.append(r.status))
    open_mini_app(page, live_server.url, raw)
    page.wait_for_function("() => !document.querySelector('#signin').textContent.includes('…')")
    assert answers == [403]
    assert f"/play/{game.pk}/" not in page.url  # no table was opened
    assert (Move.objects.count(), Player.objects.count()) == before
