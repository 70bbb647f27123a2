"""The lobby in the Mini App (issue 25). Telegram's web clients open the table in a
cross-site iframe where the browser keeps no cookie of ours: no session and no CSRF token.
Joining, starting and the computers' seats then act by Telegram's signed ``initData`` in
the request's header alone, as moves do, with every rule of who may act kept; a forged or
expired one is refused (403, JSON) and changes nothing. Without the header the session
acts, and its CSRF check stays."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.play import services
from games.play.models import Game, GameStatus, Player
from tests.web.test_access import snapshot, telegram_lobby
from tests.web.test_play import BOT_TOKEN, init_data, new_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bot_token(settings):
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600


def url(name: str, game: Game) -> str:
    return reverse(name, args=[game.pk])


def cookieless() -> Client:
    """A Mini App in a cross-site iframe: no cookie, so no CSRF token either."""
    return Client(enforce_csrf_checks=True)


def signed(user_id: int = 42, **fields) -> dict:
    return {"HTTP_X_TELEGRAM_INIT_DATA": init_data(user_id=user_id, **fields)}


def tinas_lobby() -> tuple[Game, Player]:
    """A browser lobby that Tina (Telegram user 42) created, with two computers: one
    more than Felix needs."""
    tina = services.player_from_telegram(42, "Tina", "", "it")
    game = services.create_lobby(None, "felix", tina)
    services.add_computer(game, by=tina)
    services.add_computer(game, by=tina)
    return Game.objects.get(pk=game.pk), tina


FORGED = {
    "forged": init_data(user_id=43).replace("43", "42", 1),  # the user changed after signing
    "other-bot": init_data(token="654321:OTHER-TOKEN"),
    "expired": init_data(auth_date=1_000_000),
    "unsigned": "user=%7B%22id%22%3A42%7D&auth_date=1",
}


# -- joining -------------------------------------------------------------------------------
def test_the_mini_app_joins_by_its_header_alone():
    game = new_table(Client(), "felix", computers=1, friends=True)
    app = cookieless()
    answer = app.post(url("web:table-join", game), {"invite": game.invite}, **signed())
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"ok": True, "message": ""}
    tina = Player.objects.get(telegram_id=42)
    assert game.seats.filter(player=tina).exists()
    assert tina.display_name == "Tina"  # as Telegram names her, not a browser player
    assert not app.cookies  # the answer needs no session


def test_the_mini_app_needs_the_invite_too():
    game = new_table(Client(), "felix", computers=1, friends=True)
    before = snapshot(game)
    for data in ({}, {"invite": "guess"}):
        answer = cookieless().post(url("web:table-join", game), data, **signed())
        assert answer.status_code == 403
        assert "invite link" in answer.json()["message"]
        assert game.invite not in answer.content.decode()
    assert snapshot(game)[:2] == before[:2]


def test_the_mini_app_cannot_join_a_telegram_groups_lobby():
    """Anyone can open the Mini App at any game: a group's lobby is joined in the group,
    where the bot sees who belongs to it."""
    game = telegram_lobby()
    before = snapshot(game)
    answer = cookieless().post(url("web:table-join", game), {}, **signed(user_id=77))
    assert answer.status_code == 403
    assert "join it from the group" in answer.json()["message"]
    assert snapshot(game)[:2] == before[:2]


# -- starting ------------------------------------------------------------------------------
def test_the_mini_app_starts_its_lobby_by_its_header_alone():
    game, _tina = tinas_lobby()
    answer = cookieless().post(url("web:table-start", game), **signed())
    assert answer.status_code == 200, answer.content
    assert answer.json()["ok"]
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING


def test_only_the_creator_starts_from_the_mini_app():
    game, _tina = tinas_lobby()
    services.join(game, services.player_from_telegram(43, "Ugo", "", "it"), game.invite)
    before = snapshot(game)
    answer = cookieless().post(url("web:table-start", game), **signed(user_id=43))
    assert answer.status_code == 403
    assert "Only the game's creator" in answer.json()["message"]
    assert snapshot(game) == before and before[0] == GameStatus.LOBBY


def test_a_lobby_that_cannot_start_says_why():
    tina = services.player_from_telegram(42, "Tina", "", "it")
    game = services.create_lobby(None, "felix", tina)  # alone: too few players
    answer = cookieless().post(url("web:table-start", game), **signed())
    assert answer.status_code == 409 and answer.json()["message"]
    assert Game.objects.get(pk=game.pk).status == GameStatus.LOBBY


# -- the computers -------------------------------------------------------------------------
def test_the_mini_app_adds_and_changes_computers_by_its_header_alone():
    game, _tina = tinas_lobby()
    app = cookieless()
    added = app.post(url("web:table-computer", game), {"level": "hard"}, **signed())
    assert added.status_code == 200 and added.json()["ok"], added.content
    seat = game.seats.filter(player=None).order_by("-number").first()
    assert seat.strategy == "hard"
    changed = app.post(
        url("web:table-computer", game), {"seat": seat.number, "level": "easy"}, **signed()
    )
    assert changed.status_code == 200 and changed.json()["ok"], changed.content
    seat.refresh_from_db()
    assert seat.strategy != "hard"


def test_only_the_creator_changes_computers_from_the_mini_app():
    game, _tina = tinas_lobby()
    computer = game.seats.filter(player=None).first().number
    before = snapshot(game)
    for data in ({"level": "hard"}, {"seat": computer, "level": "hard"}):
        answer = cookieless().post(url("web:table-computer", game), data, **signed(user_id=43))
        assert answer.status_code == 403, data
        assert "Only the game's creator" in answer.json()["message"]
    assert snapshot(game)[:2] == before[:2]


def test_malformed_computer_parameters_are_refused_as_json():
    game, _tina = tinas_lobby()
    before = snapshot(game)
    answer = cookieless().post(
        url("web:table-computer", game), {"seat": "²", "level": "hard"}, **signed()
    )
    assert answer.status_code == 400 and not answer.json()["ok"]
    assert snapshot(game) == before


# -- forged or expired ---------------------------------------------------------------------
@pytest.mark.parametrize("header", FORGED.values(), ids=FORGED.keys())
def test_forged_or_expired_init_data_changes_no_lobby(header):
    game, _tina = tinas_lobby()
    browser = new_table(Client(), "felix", computers=1, friends=True)
    before = (snapshot(game), snapshot(browser))
    tries = [
        (url("web:table-start", game), {}),
        (url("web:table-computer", game), {"level": "hard"}),
        (url("web:table-join", browser), {"invite": browser.invite}),
        (url("web:table-join", game), {"invite": game.invite}),
    ]
    for address, data in tries:
        answer = cookieless().post(address, data, HTTP_X_TELEGRAM_INIT_DATA=header)
        assert answer.status_code == 403, address
        assert answer["Content-Type"] == "application/json", address
        assert "Telegram sign-in is not valid" in answer.json()["message"]
    page = cookieless().get(url("web:table", game), HTTP_X_TELEGRAM_INIT_DATA=header)
    assert page.status_code == 403
    assert (snapshot(game), snapshot(browser)) == before


# -- the page, as the Mini App's script asks for it ----------------------------------------
def test_the_table_page_asked_with_the_header_is_the_telegram_users():
    game, _tina = tinas_lobby()
    app = cookieless()
    anonymous = app.get(url("web:table", game)).content.decode()
    assert "(you)" not in anonymous and url("web:table-start", game) not in anonymous
    page = app.get(url("web:table", game), **signed())
    assert page.status_code == 200
    text = page.content.decode()
    assert "(you)" in text
    assert url("web:table-start", game) in text and url("web:table-computer", game) in text
    assert "X-Telegram-Init-Data" in page["Vary"]
    # Another Telegram user sees the lobby, not its creator's buttons.
    other = app.get(url("web:table", game), **signed(user_id=43)).content.decode()
    assert "(you)" not in other and url("web:table-start", game) not in other


def test_a_telegram_user_at_a_browser_table_sits_without_a_name_field():
    game = new_table(Client(), "felix", computers=1, friends=True)
    page = cookieless().get(url("web:table", game) + f"?invite={game.invite}", **signed())
    text = page.content.decode()
    assert url("web:table-join", game) in text
    assert 'name="name"' not in text


# -- the session keeps its CSRF check --------------------------------------------------------
def test_without_the_header_a_session_still_needs_its_csrf_token():
    game, tina = tinas_lobby()
    app = Client(enforce_csrf_checks=True)
    app.post(reverse("web:miniapp-signin"), HTTP_X_TELEGRAM_INIT_DATA=init_data())
    assert app.session.get("catclub_player") == tina.pk
    before = snapshot(game)
    for name, data in (("web:table-start", {}), ("web:table-computer", {"level": "hard"})):
        assert app.post(url(name, game), data).status_code == 403
    assert snapshot(game) == before
    browser = new_table(Client(), "felix", computers=1, friends=True)
    joined = app.post(url("web:table-join", browser), {"invite": browser.invite})
    assert joined.status_code == 403
    assert not browser.seats.filter(player=tina).exists()


def test_a_signed_in_session_joins_as_its_telegram_user_without_the_header():
    """A Mini App whose cookies survive (Telegram's phone apps), its form sent without
    the script: the session's Telegram user sits down, not a new browser player."""
    game = new_table(Client(), "felix", computers=1, friends=True)
    app = Client()
    app.post(reverse("web:miniapp-signin"), HTTP_X_TELEGRAM_INIT_DATA=init_data())
    players = Player.objects.count()
    answer = app.post(url("web:table-join", game), {"invite": game.invite, "name": "Other"})
    assert answer.status_code == 302
    tina = Player.objects.get(telegram_id=42)
    assert game.seats.filter(player=tina).exists() and tina.display_name == "Tina"
    assert Player.objects.count() == players
