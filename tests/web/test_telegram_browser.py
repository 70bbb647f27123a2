"""The Mini App as Telegram's own (issue 45), in a real browser with a stand-in for
Telegram's ``Telegram.WebApp`` (tests/web/telegram_webapp.py) that records what the page
asks of it: the page wears the user's Telegram theme and follows its change at once; it
says it is ready and asks for the full height; Telegram's back button leaves a sub-view
(and is not offered on the app's first page); Telegram's main button mirrors the page's
primary button and a press on it is a press on that; the phone taps when a turn begins
and when a move is refused; the safe areas keep the content clear of Telegram's controls.
Where no ``Telegram.WebApp`` is given, the same is said in Telegram's protocol."""

from __future__ import annotations

import json
import random
from urllib.parse import quote

import pytest

from games.play import services
from games.play.models import Game, GameStatus, Move
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import CONFIRM, OFFERED, click_one, to_her_play
from tests.web.telegram_webapp import (
    DARK,
    LIGHT,
    back_button_shown,
    calls,
    main_button,
    rgb,
    stand_in,
)
from tests.web.test_miniapp_browser import telegram_web
from tests.web.test_play import init_data

pytestmark = [pytest.mark.services, pytest.mark.slow]
BOT_TOKEN = "123456:TEST-TOKEN"
BACKGROUND = "getComputedStyle(document.documentElement).backgroundColor"
# A move not on offer, sent as a tap on the board sends one (in one go: the table may be
# redrawn under a slower hand): the tap's move, its action changed on the way out; the
# server refuses it.
REFUSED = """() => {
  const real = window.fetch;
  window.fetch = function (url, options) {
    if (options && options.method === 'POST' && String(url).endsWith('/move/')) {
      window.fetch = real;
      options.body.set('action', 'bid:999');
    }
    return real.apply(this, arguments);
  };
  document.querySelector('.tablebox [data-pick]:not([disabled]):not([hidden])').click();
}"""


@pytest.fixture
def telegram(settings):
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600
    settings.TABLE_WAIT_SECONDS = 1  # no poll outlives the test by long
    return settings


def tinas_felix(start: bool = True, slug: str = "felix", computers: int = 2) -> Game:
    """Tina (Telegram user 42) at a felix table with two computers (or another game's)."""
    tina = services.player_from_telegram(42, "Tina", "", "en")
    game = services.create_lobby(None, slug, tina)
    for _ in range(computers):
        services.add_computer(game, by=tina)
    if start:
        services.start(game, by=tina)
    return Game.objects.get(pk=game.pk)


def open_in_telegram(page, base: str, start_param: str = "", theme=None, scheme="dark"):
    extra = {"start_param": start_param} if start_param else {}
    page.add_init_script(script=stand_in(init_data(**extra), theme, scheme))
    page.goto(f"{base}/play/tg/")


# Counts the table's redraws (table.js announces each with a "catclub:table" event).
REDRAWS = """window.__redraws = 0;
document.addEventListener("catclub:table", () => { window.__redraws += 1; });"""


def unexpected(problems: list[str]) -> list[str]:
    """The page's problems but the refused move's answer (409), which the browser logs."""
    return [p for p in problems if "status of 409" not in p]


def test_issue_45_the_mini_app_wears_telegrams_theme_and_follows_its_change(
    page, live_server, telegram
):
    game = tinas_felix()
    open_in_telegram(page, live_server.url, str(game.pk))
    page.wait_for_url(f"**/play/{game.pk}/")
    page.wait_for_selector(OFFERED)
    assert page.evaluate(BACKGROUND) == rgb(DARK["bg_color"])
    assert page.evaluate("getComputedStyle(document.body).color") == rgb(DARK["text_color"])
    assert page.locator("html").get_attribute("data-theme") == "dark"
    # The seats' chips too: hers, whose turn it is, in Telegram's button colours.
    acting = page.locator(".players li.acting.me")
    assert acting.evaluate("e => getComputedStyle(e).backgroundColor") == rgb(DARK["button_color"])
    assert acting.evaluate("e => getComputedStyle(e).color") == rgb(DARK["button_text_color"])
    # The site's own colours' toggle is not offered: Telegram's theme decides.
    assert page.locator(".theme-pick").is_hidden()
    assert calls(page, "ready") == [[]]
    assert calls(page, "expand") == [[]]
    shot(page, "miniapp-dark-phone")
    # The user switches Telegram to its light theme: the page follows, not reloaded.
    page.evaluate("() => { window.notReloaded = true; }")
    page.evaluate(
        "t => window.__tg.fire('themeChanged', {themeParams: t, colorScheme: 'light'})", LIGHT
    )
    assert page.evaluate(BACKGROUND) == rgb(LIGHT["bg_color"])
    assert page.evaluate("getComputedStyle(document.body).color") == rgb(LIGHT["text_color"])
    assert page.locator("html").get_attribute("data-theme") == "light"
    # A colour the new theme does not give is the site's light one again, not the old dark.
    panel = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bad')")
    assert panel.strip() == "#c62828"
    assert page.evaluate("window.notReloaded")
    assert fits_the_phone(page)
    assert not page.problems, page.problems


def test_issue_45_back_button_leaves_a_sub_view_and_main_button_starts_the_table(
    page, live_server, telegram
):
    """Without a table to open, the Mini App opens the new table page: its first page,
    with no back button. Telegram's main button says what the form's Start says, and a
    press on it sends the form; on the table (a sub-view) the back button shows, and goes
    back to the new table page."""
    services.player_from_telegram(42, "Tina", "", "en")
    open_in_telegram(page, live_server.url)
    page.wait_for_url("**/play/")
    page.wait_for_function("() => window.__tg.app.MainButton.isVisible")
    start = page.locator("form.newtable [data-main-button]")
    assert main_button(page) == {
        "text": start.inner_text().strip(),
        "visible": True,
        "active": True,
    }
    assert not back_button_shown(page)
    page.check("input[name=game][value=felix]")
    page.select_option("#computers", "2")
    assert page.locator("#name").count() == 0  # Telegram names her
    with page.expect_navigation():
        page.evaluate("() => window.__tg.press('MainButton')")
    page.wait_for_selector(".tablebox")
    game = Game.objects.get()
    assert game.status == GameStatus.RUNNING
    assert game.seats.filter(player__telegram_id=42).exists()
    page.wait_for_function("() => window.__tg.app.BackButton.isVisible")
    assert calls(page, "ready") == [[]]
    with page.expect_navigation():
        page.evaluate("() => window.__tg.press('BackButton')")
    page.wait_for_url("**/play/")
    page.wait_for_function("() => window.__tg.app.MainButton.isVisible")
    assert not back_button_shown(page)
    assert not page.problems, page.problems


def test_issue_45_main_button_starts_the_lobby(page, live_server, telegram):
    game = tinas_felix(start=False)
    open_in_telegram(page, live_server.url, str(game.pk))
    page.wait_for_url(f"**/play/{game.pk}/")
    page.locator("#lobby .seats").get_by_text("(you)").wait_for()
    page.wait_for_function("() => window.__tg.app.MainButton.isVisible")
    start = page.locator("#lobby [data-main-button]")
    assert main_button(page)["text"] == start.inner_text().strip()
    assert not back_button_shown(page)  # the table is the Mini App's first page
    page.evaluate("() => window.__tg.press('MainButton')")
    page.locator(f"#table {OFFERED}").first.wait_for(timeout=10_000)
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING
    # The lobby's Start is gone, and with it the main button (a card is a tap of its own).
    page.wait_for_function("() => !window.__tg.app.MainButton.isVisible")
    # It became Tina's turn as the table began: a tap says so.
    page.wait_for_function("() => window.__tg.called('notificationOccurred').length > 0")
    assert calls(page, "notificationOccurred") == [["success"]]
    assert not page.problems, page.problems


def test_issue_45_main_button_mirrors_the_confirm_and_back_undoes_a_step(
    page, live_server, telegram
):
    """Smoking Cat's throw down (S12) is a button, then Confirm: the button's tap shows
    Telegram's back button, which undoes it, and the main button, which says what Confirm
    says; pressed, it throws down."""
    game = tinas_felix(slug="smoking_cat", computers=3)
    to_her_play(game, game.seats.get(player__telegram_id=42).player)
    page.add_init_script(REDRAWS)
    open_in_telegram(page, live_server.url, str(game.pk))
    page.wait_for_url(f"**/play/{game.pk}/")
    throw = page.locator('.choices .pick[data-pick="throw"]')
    throw.wait_for(timeout=15_000)
    page.wait_for_selector(OFFERED)
    assert not back_button_shown(page)
    assert not main_button(page)["visible"]  # a card is a tap of its own
    throw.click()
    page.wait_for_function("() => window.__tg.app.BackButton.isVisible")
    page.wait_for_function("() => window.__tg.app.MainButton.isVisible")
    # The page came for her seat: it is not drawn again on arrival, which would undo the
    # step just taken and leave Telegram's back button to go back a page instead.
    page.wait_for_timeout(1_000)
    assert page.evaluate("window.__redraws") == 0
    assert back_button_shown(page)
    confirm = page.locator(".choices .do")
    assert main_button(page)["text"] == confirm.inner_text().strip()
    page.evaluate("() => window.__tg.press('BackButton')")
    page.wait_for_function("() => !window.__tg.app.BackButton.isVisible")
    page.wait_for_function("() => !window.__tg.app.MainButton.isVisible")
    assert confirm.is_hidden()
    assert f"/play/{game.pk}/" in page.url  # undone, not gone back
    assert not Move.objects.filter(game=game, action="throw").exists()
    throw.click()
    page.wait_for_function("() => window.__tg.app.MainButton.isVisible")
    assert page.locator(CONFIRM).count() == 1
    page.evaluate("() => window.__tg.press('MainButton')")
    page.wait_for_function("() => !window.__tg.app.MainButton.isVisible", timeout=10_000)
    page.wait_for_timeout(500)
    assert Move.objects.filter(game=game, action="throw").count() == 1
    assert not page.problems, page.problems


def test_issue_45_haptics_on_a_turn_begun_and_on_a_refused_move(page, live_server, telegram):
    game = tinas_felix()
    open_in_telegram(page, live_server.url, str(game.pk))
    page.wait_for_url(f"**/play/{game.pk}/")
    page.wait_for_selector(".turn.mine")
    assert calls(page, "notificationOccurred") == []  # the page opened on her turn: no tap
    # A move the server refuses (not one on offer): the phone says no.
    page.evaluate(REFUSED)
    page.wait_for_function("() => window.__tg.called('notificationOccurred').length > 0")
    assert calls(page, "notificationOccurred") == [["error"]]
    assert page.locator("#toast.shown").count() == 1
    # Real moves, until the computers have played theirs and it is her turn again: the
    # turn begun, a success tap.
    rng = random.Random(3)
    for _ in range(40):
        if calls(page, "notificationOccurred")[1:]:
            break
        if not click_one(page, rng):
            page.wait_for_timeout(200)
    assert calls(page, "notificationOccurred")[1:2] == [["success"]]
    assert ["light"] in calls(page, "impactOccurred")  # each move sent, a light tap
    assert not unexpected(page.problems), page.problems


def test_issue_45_the_safe_areas_keep_the_page_clear_of_telegrams_controls(
    page, live_server, telegram
):
    game = tinas_felix()
    open_in_telegram(page, live_server.url, str(game.pk))
    page.wait_for_url(f"**/play/{game.pk}/")
    page.wait_for_selector(".tablebox")
    padding = "() => ['paddingTop', 'paddingBottom'].map(p => getComputedStyle(document.body)[p])"
    assert page.evaluate(padding) == ["0px", "0px"]
    fire = "([e, k, v]) => window.__tg.fire(e, {[k]: v})"
    page.evaluate(fire, ["safeAreaChanged", "safeAreaInset", {"top": 47, "bottom": 34}])
    page.evaluate(fire, ["contentSafeAreaChanged", "contentSafeAreaInset", {"top": 46}])
    assert page.evaluate(padding) == ["93px", "34px"]
    assert fits_the_phone(page)
    assert not page.problems, page.problems


def test_issue_45_without_telegrams_script_the_page_speaks_telegrams_protocol(
    page, live_server, telegram
):
    """Telegram's clients give the theme in the address and take the page's messages
    (TelegramWebviewProxy in the phone apps): the page says ready, asks for the full
    height, shows the back button off its first page, and recolours on theme_changed."""
    game = tinas_felix()
    page.add_init_script(
        script="window.__posted = []; window.TelegramWebviewProxy = {"
        " postEvent: (type, body) => window.__posted.push([type, JSON.parse(body)]) };"
    )
    theme = quote(json.dumps(DARK))
    raw = quote(init_data(start_param=str(game.pk)))
    page.goto(f"{live_server.url}/play/tg/#tgWebAppData={raw}&tgWebAppThemeParams={theme}")
    page.wait_for_url(f"**/play/{game.pk}/")
    page.wait_for_selector(OFFERED)
    assert page.evaluate(BACKGROUND) == rgb(DARK["bg_color"])
    assert page.locator("html").get_attribute("data-theme") == "dark"
    posted = [p[0] for p in page.evaluate("window.__posted")]
    assert "web_app_ready" in posted and "web_app_expand" in posted
    page.evaluate("t => Telegram.WebView.receiveEvent('theme_changed', {theme_params: t})", LIGHT)
    assert page.evaluate(BACKGROUND) == rgb(LIGHT["bg_color"])
    assert page.locator("html").get_attribute("data-theme") == "light"
    # A refused move: Telegram's haptic message, an error.
    page.evaluate(REFUSED)
    page.wait_for_function("() => window.__posted.some(p => p[1].notification_type === 'error')")
    assert not unexpected(page.problems), page.problems


def test_issue_45_in_telegrams_web_client_the_frame_talks_by_messages(page, live_server, telegram):
    """Telegram's web clients frame the app: the page tells its parent that it is ready,
    asks for the full height, and takes Telegram's events from it (a theme changed) as
    messages; from any other window, none."""
    game = tinas_felix()
    app = live_server.url
    page.add_init_script(
        script="if (window.top === window) { window.__got = [];"
        " addEventListener('message', (e) => window.__got.push(JSON.parse(e.data).eventType)); }"
    )
    raw = quote(init_data(start_param=str(game.pk)))
    theme = quote(json.dumps(DARK))
    with telegram_web(f"{app}/play/tg/#tgWebAppData={raw}&tgWebAppThemeParams={theme}") as parent:
        telegram.TELEGRAM_FRAME_ANCESTORS = [parent]
        page.goto(f"{parent}/k/")
        child = page.frame_locator("iframe")
        child.locator(OFFERED).first.wait_for(timeout=10_000)
        frame = page.frames[1]
        assert frame.evaluate(BACKGROUND) == rgb(DARK["bg_color"])
        page.wait_for_function("() => window.__got.includes('web_app_expand')")
        got = page.evaluate("window.__got")
        assert {"iframe_ready", "web_app_ready", "web_app_expand"} <= set(got), got
        message = json.dumps({"eventType": "theme_changed", "eventData": {"theme_params": LIGHT}})
        # Another window's message changes nothing; the parent's does.
        frame.evaluate("m => window.postMessage(m, '*')", message)
        page.wait_for_timeout(200)
        assert frame.evaluate(BACKGROUND) == rgb(DARK["bg_color"])
        page.evaluate(
            "m => document.querySelector('iframe').contentWindow.postMessage(m, '*')", message
        )
        frame.wait_for_function(f"() => {BACKGROUND} === '{rgb(LIGHT['bg_color'])}'")
        page.goto("about:blank")
        page.wait_for_timeout(1500)  # the last poll ends
    problems = [p for p in page.problems if not p.startswith(f"external request: {parent}")]
    assert not problems, problems
