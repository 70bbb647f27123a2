"""Mini App sign-in data that is not Telegram's is refused (403), never a 500."""

from __future__ import annotations

import json
import time
from urllib.parse import quote, urlencode

import pytest
from django.test import Client
from django.urls import reverse

from games.play.models import Player
from tests.web.test_play import BOT_TOKEN, new_table
from web import miniapp

pytestmark = pytest.mark.django_db(transaction=True)

FIELDS = {
    "auth_date": str(int(time.time())),
    "user": json.dumps({"id": 42, "first_name": "Tina"}),
}
# compare_digest refuses str with characters beyond ASCII (TypeError): the hash of these
# is not hex, in the header and in the form, percent-encoded or not.
NOT_HEX = [
    urlencode(FIELDS) + "&hash=" + quote("é" * 64),
    urlencode(FIELDS) + "&hash=" + quote("٣" * 64),
    urlencode(FIELDS) + "&hash=é",
]


@pytest.fixture(autouse=True)
def bot_token(settings):
    settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
    settings.MINIAPP_MAX_AGE = 3600


def answering() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("raw", NOT_HEX)
def test_a_hash_beyond_ascii_is_refused_at_sign_in(raw):
    players = Player.objects.count()
    response = answering().post(reverse("web:miniapp-signin"), {"init_data": raw})
    assert response.status_code == 403
    assert Player.objects.count() == players


@pytest.mark.parametrize("raw", NOT_HEX[:2])
def test_a_hash_beyond_ascii_is_refused_on_the_table(client, raw):
    game = new_table(client, "felix", computers=1, friends=True)
    url = reverse("web:table-state", args=[game.pk]) + "?wait=0"
    response = answering().get(url, headers={"X-Telegram-Init-Data": raw})
    assert response.status_code == 403
    move = answering().post(
        reverse("web:table-move", args=[game.pk]),
        {"action": "x", "version": "1"},
        headers={"X-Telegram-Init-Data": raw},
    )
    assert move.status_code == 403


def test_init_data_far_longer_than_telegrams_is_refused():
    fields = {**FIELDS, "padding": "x" * 20_000}
    raw = urlencode({**fields, "hash": miniapp.sign(fields, BOT_TOKEN)})
    with pytest.raises(miniapp.InvalidInitData):
        miniapp.validate(raw, BOT_TOKEN, max_age=60)
