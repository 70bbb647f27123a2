"""Who may act at a web table (issue 25). A visitor without a seat cannot start anyone's
lobby, a browser cannot join a Telegram group's lobby, a table's address lets a visitor
watch but only its invite link lets them sit; the session's key changes whenever a player
is bound to it, and a Mini App sign-in in the session expires with its ``auth_date``."""

from __future__ import annotations

import html
import time

import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from games.play import errors, services
from games.play.models import Game, GameStatus, Player, Seat
from games.play.table import Table
from tests.factories import PlayerFactory
from tests.web.test_play import BOT_TOKEN, init_data, new_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bot_token(settings):
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600


def snapshot(game: Game):
    game = Game.objects.get(pk=game.pk)
    seats = sorted(Seat.objects.filter(game=game).values_list("number", "player_id", "strategy"))
    return game.status, seats, Player.objects.count()


def url(name: str, game: Game) -> str:
    return reverse(name, args=[game.pk])


def telegram_lobby() -> Game:
    """A Telegram group's lobby that could start: its creator and a friend, both reachable."""
    tina = services.player_from_telegram(42, "Tina", "", "it")
    Player.objects.filter(pk=tina.pk).update(reachable=True)
    game = services.create_lobby(-1001, "felix", tina)
    services.join(game, PlayerFactory())
    services.add_computer(game, by=tina)
    return game


# -- anonymous start -----------------------------------------------------------------------
@pytest.mark.parametrize("where", ["browser", "telegram"])
def test_a_fresh_session_cannot_start_a_lobby(client, where):
    game = new_table(client, "felix", computers=2, friends=True) if where == "browser" else None
    game = game or telegram_lobby()
    before = snapshot(game)
    stranger = Client()
    response = stranger.post(url("web:table-start", game))
    assert snapshot(game) == before and before[0] == GameStatus.LOBBY
    assert response.status_code == 403
    assert "Only the game&#x27;s creator" in response.content.decode()


def test_a_fresh_session_cannot_add_or_change_computers(client):
    game = new_table(client, "felix", computers=1, friends=True)
    computer = game.seats.get(player=None).number
    before = snapshot(game)
    stranger = Client()
    assert stranger.post(url("web:table-computer", game), {"level": "hard"}).status_code == 403
    changed = stranger.post(url("web:table-computer", game), {"seat": computer, "level": "hard"})
    assert changed.status_code == 403
    assert snapshot(game) == before


# -- joining -------------------------------------------------------------------------------
def test_a_browser_cannot_join_a_telegram_groups_lobby():
    game = telegram_lobby()
    visitor = Client()
    page = visitor.get(url("web:table", game)).content.decode()
    assert url("web:table-join", game) not in page  # no join form is offered
    assert "join it from the group" in page
    before = snapshot(game)
    response = visitor.post(url("web:table-join", game), {"name": "Mallory"})
    assert response.status_code == 403
    assert "Telegram group" in response.content.decode()
    assert snapshot(game) == before  # no seat, and no player made for the refused visitor


def test_the_tables_address_lets_a_visitor_watch_not_sit(client):
    game = new_table(client, "felix", computers=1, friends=True)
    visitor = Client()
    page = visitor.get(url("web:table", game)).content.decode()
    assert url("web:table-join", game) not in page
    assert game.invite not in page
    before = snapshot(game)
    for data in ({}, {"invite": ""}, {"invite": "guess"}, {"invite": "é" * 22}):
        response = visitor.post(url("web:table-join", game), {"name": "Mallory", **data})
        assert response.status_code == 403, data
        assert "invite link" in response.content.decode()
        assert game.invite not in response.content.decode()
    wrong = visitor.get(url("web:table", game) + "?invite=guess").content.decode()
    assert url("web:table-join", game) not in wrong
    assert snapshot(game) == before


def test_the_invite_link_seats_a_friend(client):
    game = new_table(client, "felix", computers=1, friends=True)
    page = client.get(url("web:table", game)).content.decode()
    link = html.unescape(
        page.split('id="invite-link"', 1)[1].split('value="', 1)[1].split('"', 1)[0]
    )
    assert link == f"http://testserver/play/{game.pk}/?invite={game.invite}"
    friend = Client()
    form = friend.get(link).content.decode()
    assert url("web:table-join", game) in form and game.invite in form
    friend.post(url("web:table-join", game), {"name": "Bea", "invite": game.invite})
    assert game.seats.filter(player__display_name="Bea").exists()
    # Seated by the link, Bea holds it anyway: her page shows it to pass on.
    assert game.invite in friend.get(url("web:table", game)).content.decode()


def test_the_invite_is_a_secret_of_the_lobby(client):
    game = new_table(client, "felix", computers=1, friends=True)
    spectator = Client()
    for who in (spectator, client):
        state = who.get(url("web:table-state", game) + "?wait=0").content.decode()
        assert game.invite not in state
    assert game.invite not in spectator.get(url("web:table", game)).content.decode()
    assert 'id="invite-link"' not in spectator.get(url("web:table", game)).content.decode()


# -- sessions ------------------------------------------------------------------------------
def planted(client: Client) -> str:
    """A session an attacker made and planted in the victim's browser: its key."""
    session = SessionStore()
    session["planted"] = True
    session.create()
    client.cookies[django_settings.SESSION_COOKIE_NAME] = session.session_key
    return session.session_key


def assert_rotated(client: Client, old: str) -> None:
    new = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    assert new != old
    assert not SessionStore().exists(old)  # the planted key holds nobody


def test_sitting_down_at_a_new_table_rotates_the_session_key(client):
    old = planted(client)
    new_table(client, "felix", computers=2)
    assert_rotated(client, old)


def test_joining_rotates_the_session_key(client):
    game = new_table(client, "felix", computers=1, friends=True)
    friend = Client()
    old = planted(friend)
    friend.post(url("web:table-join", game), {"name": "Bea", "invite": game.invite})
    assert_rotated(friend, old)


def test_mini_app_sign_in_rotates_the_session_key():
    app = Client()
    old = planted(app)
    assert app.post(reverse("web:miniapp-signin"), {"init_data": init_data()}).status_code == 200
    assert_rotated(app, old)
    assert app.session["catclub_player"] == Player.objects.get(telegram_id=42).pk


# -- the Mini App identity expires ---------------------------------------------------------
def test_a_mini_app_sign_in_expires_with_its_auth_date(settings):
    game = telegram_lobby()
    app = Client()
    signed = int(time.time()) - 600
    app.post(reverse("web:miniapp-signin"), {"init_data": init_data(auth_date=signed)})
    assert "(you)" in app.get(url("web:table", game)).content.decode()
    settings.MINIAPP_MAX_AGE = 300  # the sign-in is ten minutes old now: too old
    before = snapshot(game)
    assert "(you)" not in app.get(url("web:table", game)).content.decode()
    for name, data in (("web:table-start", {}), ("web:table-computer", {"level": "hard"})):
        refused = app.post(url(name, game), data)
        assert refused.status_code == 403
        assert "sign-in has expired" in refused.content.decode()
    moved = app.post(url("web:table-move", game), {"action": "x", "key": "k"})
    assert moved.status_code == 403 and "sign-in has expired" in moved.content.decode()
    assert snapshot(game) == before
    # Signing in again (Telegram's fresh initData) restores her.
    app.post(reverse("web:miniapp-signin"), {"init_data": init_data()})
    app.post(url("web:table-start", game))
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING


# -- the Mini App in Telegram's web clients: no cookies in a cross-site iframe -------------
def telegram_table() -> tuple[Game, Player]:
    """A running Felix table: a browser player's, Tina's (Telegram user 42) and a computer."""
    game = new_table(Client(), "felix", computers=1, friends=True)
    tina = services.player_from_telegram(42, "Tina", "", "it")
    services.join(game, tina, game.invite)
    services.start(game, by=game.created_by)
    return Game.objects.get(pk=game.pk), tina


def test_a_mini_app_without_cookies_signs_in_and_moves_by_its_header(db):
    """In a cross-site iframe the browser keeps no cookie of ours, so no CSRF token: a
    request signed by Telegram's ``initData`` header needs none."""
    game, tina = telegram_table()
    app = Client(enforce_csrf_checks=True)  # and no cookie at all
    header = {"HTTP_X_TELEGRAM_INIT_DATA": init_data(start_param=str(game.pk))}
    signin = app.post(reverse("web:miniapp-signin"), **header)
    assert signin.status_code == 200 and signin.json()["url"] == url("web:table", game)
    action = Table(game).legal(game.seats.get(player=tina).number)[0]
    moved = app.post(url("web:table-move", game), {"action": action, "version": "0"}, **header)
    assert moved.status_code == 200 and moved.json()["ok"], moved.content


def test_a_session_still_needs_its_csrf_token(db):
    """Without the header the session acts, and a page of another site could send the
    session's cookie: the CSRF check stays."""
    game, tina = telegram_table()
    app = Client(enforce_csrf_checks=True)
    app.post(reverse("web:miniapp-signin"), HTTP_X_TELEGRAM_INIT_DATA=init_data())
    assert app.session.get("catclub_player") == tina.pk
    forged = app.post(url("web:table-move", game), {"action": "flip", "version": "0"})
    assert forged.status_code == 403
    assert not game.moves.exists()
    forged = app.post(reverse("web:miniapp-signin"), {"init_data": init_data()})
    assert forged.status_code == 403


def test_a_forged_header_is_refused_without_csrf_either(db):
    game, _tina = telegram_table()
    app = Client(enforce_csrf_checks=True)
    forged = init_data(token="not-the-bot-token")
    answer = app.post(
        url("web:table-move", game), {"action": "flip"}, HTTP_X_TELEGRAM_INIT_DATA=forged
    )
    assert answer.status_code == 403 and not game.moves.exists()


def test_a_new_table_whose_computer_cannot_sit_leaves_nothing_behind(client, monkeypatch):
    """Issue 25: creating a table is all or nothing. A computer refused half-way (here the
    second) leaves no lobby, no seat and no new player, and the visitor is told why."""
    real = services.add_computer
    calls = []

    def second_refused(game, *args, **kwargs):
        calls.append(game.pk)
        if len(calls) == 2:
            raise errors.TableFull()
        return real(game, *args, **kwargs)

    monkeypatch.setattr(services, "add_computer", second_refused)
    response = client.post(
        reverse("web:play-create"), {"game": "felix", "name": "Ann", "computers": "3"}
    )
    assert response.status_code == 400
    assert len(calls) == 2
    assert not Game.objects.exists() and not Seat.objects.exists()
    assert not Player.objects.exists()
    # The next try, refused by nothing, makes its table.
    monkeypatch.setattr(services, "add_computer", real)
    response = client.post(
        reverse("web:play-create"), {"game": "felix", "name": "Ann", "computers": "3"}
    )
    assert response.status_code == 302 and Game.objects.count() == 1
