"""The web table's endpoints: moves go through the same service as the bot's (same
idempotency, same refusals), a Mini App request is believed only with Telegram's valid
signature, and every page a seat receives holds nothing private to another seat."""

from __future__ import annotations

import json
import random
import re
import time
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from games import catalog
from games.play import services
from games.play.models import Game, GameStatus, Move, Player
from games.play.table import Table
from web import miniapp

BOT_TOKEN = "123456:TEST-TOKEN"
ACTION = re.compile(r'data-action="([^"]+)"')
CODE = re.compile(r'data-code="([^"]+)"')

pytestmark = pytest.mark.django_db(transaction=True)  # moves are processed after commit


@pytest.fixture(autouse=True)
def bot_token(settings):
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600


def init_data(user_id=42, first_name="Tina", auth_date=None, token=BOT_TOKEN, **extra) -> str:
    fields = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps({"id": user_id, "first_name": first_name, "language_code": "it"}),
        **extra,
    }
    return urlencode({**fields, "hash": miniapp.sign(fields, token)})


def new_table(client: Client, slug="bon_appetit", computers=1, friends=False) -> Game:
    data = {"game": slug, "name": "Ann", "computers": str(computers)}
    if friends:
        data["friends"] = "1"
    response = client.post(reverse("web:play-create"), data)
    assert response.status_code == 302, response.content
    return Game.objects.order_by("-pk").first()


def state(client: Client, game: Game, **headers) -> dict:
    url = reverse("web:table-state", args=[game.pk]) + "?wait=0"
    return client.get(url, headers=headers).json()


def move(client: Client, game: Game, action: str, key="k1", version=None, **headers):
    version = Game.objects.get(pk=game.pk).version if version is None else version
    return client.post(
        reverse("web:table-move", args=[game.pk]),
        {"action": action, "version": version, "key": key},
        headers=headers,
    )


# -- moves through the services ----------------------------------------------------------
def test_a_move_is_recorded_once_however_often_it_is_sent(client):
    game = new_table(client)
    assert game.status == GameStatus.RUNNING
    me = game.seats.get(player__isnull=False).number
    assert Table(game).to_act() == [me]  # the computer has played up to the person's turn
    first = move(client, game, "flip", key="same")
    again = move(client, game, "flip", key="same")
    assert first.json() == {"ok": True, "message": ""}
    assert again.status_code in (200, 409)
    assert Move.objects.filter(game=game, key__endswith=":same").count() == 1


def test_out_of_turn_stale_and_illegal_moves_are_refused_with_the_bots_answers(client):
    game = new_table(client, "felix", computers=2)
    table = Table(game)
    me = game.seats.get(player__isnull=False).number
    legal = table.legal(me)
    wrong = move(client, game, "bid:999")
    assert wrong.status_code == 409 and wrong.json()["message"] == "That move is not possible now."
    stale = move(client, game, "bid:999", key="old", version=game.version - 1)
    assert stale.json()["message"] == "This button is out of date."
    assert legal
    before = Move.objects.filter(game=game).count()
    stranger = Client()
    refused = move(stranger, game, legal[0], key="x")
    assert refused.status_code == 403
    assert Move.objects.filter(game=game).count() == before


# -- the Mini App --------------------------------------------------------------------------
def test_a_signed_mini_app_request_plays_for_its_telegram_user(client):
    game = new_table(client, "felix", computers=1, friends=True)
    tina = services.player_from_telegram(42, "Tina", "", "it")
    services.join(game, tina, game.invite)
    services.start(game, by=game.created_by)
    game.refresh_from_db()
    seat = game.seats.get(player=tina).number
    app = Client()
    view = state(app, game, X_TELEGRAM_INIT_DATA=init_data())
    action = Table(game).legal(seat)[0]
    assert f'data-action="{action}"' in view["html"]
    answer = move(app, game, action, X_TELEGRAM_INIT_DATA=init_data())
    assert answer.json()["ok"], answer.json()
    assert Move.objects.filter(game=game, seat=seat, key__endswith=":k1").exists()


@pytest.mark.parametrize(
    "header",
    [
        init_data(user_id=43).replace("43", "42", 1),  # the user id changed after signing
        init_data(token="654321:OTHER-TOKEN"),  # signed by another bot
        init_data(auth_date=1_000_000),  # far too old
        "user=%7B%22id%22%3A42%7D&auth_date=1",  # no hash at all
    ],
    ids=["forged", "other-bot", "expired", "unsigned"],
)
def test_forged_or_expired_init_data_gets_403_and_changes_nothing(client, header):
    game = new_table(client, "felix", computers=1, friends=True)
    tina = services.player_from_telegram(42, "Tina", "", "it")
    services.join(game, tina, game.invite)
    services.start(game, by=game.created_by)
    game.refresh_from_db()
    action = Table(game).legal(game.seats.get(player=tina).number) or ["place:15"]
    before = (Move.objects.count(), Player.objects.count(), Game.objects.get(pk=game.pk).version)
    app = Client()
    assert move(app, game, action[0], X_TELEGRAM_INIT_DATA=header).status_code == 403
    url = reverse("web:table-state", args=[game.pk]) + "?wait=0"
    assert app.get(url, headers={"X-Telegram-Init-Data": header}).status_code == 403
    signin = app.post(reverse("web:miniapp-signin"), {"init_data": header})
    assert signin.status_code == 403
    after = (Move.objects.count(), Player.objects.count(), Game.objects.get(pk=game.pk).version)
    assert after == before


def test_mini_app_sign_in_opens_the_table_of_its_start_parameter(client):
    game = new_table(client, "felix", computers=2)
    app = Client()
    response = app.post(
        reverse("web:miniapp-signin"), {"init_data": init_data(start_param=str(game.pk))}
    )
    assert response.json() == {"url": reverse("web:table", args=[game.pk])}
    player = Player.objects.get(telegram_id=42)
    assert app.session["catclub_player"] == player.pk and player.display_name == "Tina"


def test_the_validator_accepts_telegrams_own_fields():
    raw = init_data(start_param="7", chat_instance="-1", signature="abc")
    data = miniapp.validate(raw, BOT_TOKEN, max_age=60)
    assert (data.user.id, data.user.first_name, data.start_param) == (42, "Tina", "7")


# -- hidden information --------------------------------------------------------------------
def strings(value) -> set[str]:
    """Every string and number a view holds, flattened."""
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return {str(value)}


SLUGS_WITH_TABLES = catalog.slugs()


@pytest.mark.parametrize("slug", SLUGS_WITH_TABLES)
def test_no_seat_is_ever_shown_a_card_private_to_another(slug):
    """Plays whole games with people in two browsers and a computer through the web
    endpoints, and checks every table a seat receives against the views: a card shown to a
    seat is in that seat's own view (or the public one), never only in another's."""
    kind = catalog.get(slug)
    ann, bob = Client(), Client()
    game = new_table(ann, slug, computers=max(0, kind.min_players - 2), friends=True)
    bob.post(reverse("web:table-join", args=[game.pk]), {"name": "Bob", "invite": game.invite})
    ann.post(reverse("web:table-start", args=[game.pk]))
    clients = {c: None for c in (ann, bob)}
    rng = random.Random(3)
    for _step in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.RUNNING:
            break
        seats = {s.player_id: s.number for s in game.seats.exclude(player=None)}
        n_seats = game.seats.count()
        for client in clients:
            # The views of this very moment: the other browser may just have moved.
            table = Table(Game.objects.get(pk=game.pk))
            views = [table.view(n) for n in range(n_seats)]
            public = strings(table.view(None))
            me = seats[client.session["catclub_player"]]
            html = state(client, game)["html"]
            mine = strings(views[me]) | public
            others = set().union(*(strings(v) for n, v in enumerate(views) if n != me))
            leaked = set(CODE.findall(html)) & (others - mine)
            assert not leaked, f"seat {me} sees {leaked}"
            actions = ACTION.findall(html)
            if actions:
                move(client, game, rng.choice(actions), key=f"{me}-{_step}")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED, (game.version, game.state)
