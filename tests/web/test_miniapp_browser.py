"""The Telegram Mini App in a real browser: Telegram opens the app's URL with its signed
``initData`` in the address's fragment; the page signs in with it, opens the table of the
start parameter and plays a move, each request that acts checked on the server. A forged
or expired ``initData`` gets 403 and changes nothing."""

import contextlib
import html
import http.server
import threading
import time
from urllib.parse import quote

import pytest

from games.play import levels, services
from games.play.models import Game, GameStatus, Move, Player
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
    page.wait_for_selector('.fx-hand [data-action^="place:"]')  # Tina's own hand
    # Telegram's theme follows her from the app's first page to the table.
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(30, 42, 51)", background
    assert fits_the_phone(page)
    shot(page, "miniapp-felix-phone")
    version = page.locator(".tablebox").get_attribute("data-version")
    page.locator('.fx-hand [data-action^="place:"]').first.click()
    page.wait_for_function(
        "v => document.querySelector('.tablebox').dataset.version !== v",
        arg=version,
        timeout=10_000,
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


@contextlib.contextmanager
def telegram_web(app: str):
    """A stand-in for Telegram's web client, served from this machine under another site
    than the app's (127.0.0.1, while the app is at localhost): a page that frames
    ``app``. Its address, while it serves."""

    class Parent(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = (
                '<!doctype html><title>Telegram</title><iframe src="'
                + html.escape(app)
                + '" style="width:390px;height:800px"></iframe>'
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Parent)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def test_in_a_cookieless_iframe_the_mini_app_runs_its_lobby(page, live_server, settings):
    """Telegram's web clients frame the Mini App from another site, where the browser
    keeps none of its cookies (they are SameSite): no session, no CSRF token. Tina adds a
    computer, changes its level and starts her table there, each request signed by her
    ``initData`` alone. The parent is a page of another site on this machine (a page
    made up by the browser itself would be a public one, which may not frame a local
    address)."""
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600
    settings.TABLE_WAIT_SECONDS = 1  # no poll outlives the test by long
    app = live_server.url
    tina = services.player_from_telegram(42, "Tina", "", "it")
    game = services.create_lobby(None, "felix", tina)
    services.add_computer(game, by=tina)
    services.add_computer(game, by=tina)
    sent = []
    page.on(
        "requestfinished",
        lambda r: r.url.startswith(app) and sent.append(r.all_headers().get("cookie")),
    )
    raw = quote(init_data(start_param=str(game.pk)))
    with telegram_web(f"{app}/play/tg/#tgWebAppData={raw}") as parent:
        settings.TELEGRAM_FRAME_ANCESTORS = [parent]
        page.goto(f"{parent}/k/")
        child = page.frame_locator("iframe")
        # The page came without a player; the script asked again, as Tina.
        child.locator("#lobby .seats").get_by_text("(you)").wait_for(timeout=10_000)
        assert child.locator("#lobby .seats > li").count() == 3
        # Kept in a cookie, a language choice cannot be made here: not offered.
        assert child.locator("form.lang").count() == 0
        child.locator("#newlevel").select_option("easy")
        child.locator(".addcomputer button").click()
        child.locator("#lobby .seats > li").nth(3).wait_for(timeout=10_000)
        added = game.seats.filter(player=None).order_by("-number").first()
        assert added.strategy == levels.strategy_for(game.kind, "easy")
        child.locator(f"#level{added.number}").select_option("hard")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if game.seats.get(pk=added.pk).strategy != added.strategy:
                break
            page.wait_for_timeout(100)
        assert game.seats.get(pk=added.pk).strategy == levels.strategy_for(game.kind, "hard")
        child.locator("#lobby").get_by_role("button", name="Start").click()
        child.locator("#table [data-pick]:not([disabled])").first.wait_for(timeout=10_000)
        assert Game.objects.get(pk=game.pk).status != GameStatus.LOBBY
        assert child.locator("#lobby .lobby").count() == 0
        shot(page, "miniapp-lobby-cookieless")
        page.goto("about:blank")
        page.wait_for_timeout(1500)  # the last poll ends
    assert sent and not any(sent), sent  # not one cookie went with them
    problems = [p for p in page.problems if not p.startswith(f"external request: {parent}")]
    assert not problems, problems


def test_in_a_cookieless_iframe_the_mini_app_takes_a_seat(page, live_server, settings):
    """Tina opens Ann's table by its invite link in the Mini App, in a frame that keeps
    no cookie: she sits down as Telegram names her, with no name to type."""
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600
    settings.TABLE_WAIT_SECONDS = 1
    ann = Player.objects.create(display_name="Ann")
    game = services.create_lobby(None, "felix", ann)
    services.add_computer(game, by=ann)
    raw = quote(init_data())
    table = f"{live_server.url}/play/{game.pk}/?invite={game.invite}#tgWebAppData={raw}"
    with telegram_web(table) as parent:
        settings.TELEGRAM_FRAME_ANCESTORS = [parent]
        page.goto(f"{parent}/k/")
        child = page.frame_locator("iframe")
        seat = child.locator("#lobby").get_by_role("button", name="Take a seat")
        seat.wait_for(timeout=10_000)
        # The lobby asked for again as Tina: Telegram names her, no field for it.
        child.locator("#lobby input[name=name]").wait_for(state="detached", timeout=10_000)
        seat.click()
        child.locator("#lobby .seats").get_by_text("Tina (you)").wait_for(timeout=10_000)
        assert game.seats.filter(player__telegram_id=42).exists()
        page.goto("about:blank")
        page.wait_for_timeout(1500)  # the last poll ends
    problems = [p for p in page.problems if not p.startswith(f"external request: {parent}")]
    assert not problems, problems
