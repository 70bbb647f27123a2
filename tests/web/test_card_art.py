"""The table's cards drawn from each game's sprite (``web.card_art``): every card of a
table names a symbol its game's sprite has, and the sprite is kept by browsers under an
address that changes with its drawing."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import art, catalog
from games.play.models import Game

# A card drawn from its game's sprite (the web's icons come from a static sprite of their
# own: web.icons, issue 45).
USE = re.compile(r'<use href="(/art/[^"#]+)#([^"]+)"')
SYMBOL = re.compile(r'<symbol id="([^"]+)"')


def new_table(slug: str) -> tuple[Client, Game]:
    client = Client()
    kind = catalog.get(slug)
    data = {"game": slug, "name": "Ann", "computers": str(max(kind.min_players, 2) - 1)}
    assert client.post(reverse("web:play-create"), data).status_code == 302
    return client, Game.objects.order_by("-pk").first()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", [k.slug for k in catalog.all_games()])
def test_every_card_of_a_table_is_a_symbol_of_its_games_sprite(slug, settings):
    settings.TABLES_PER_HOUR_PER_SESSION = settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0
    client, game = new_table(slug)
    html = client.get(reverse("web:table-state", args=[game.pk]) + "?token=").json()["html"]
    used = USE.findall(html)
    assert used, "the table shows cards"
    assert "<path" not in html, "no card's drawing in the table itself"
    for url, symbol in used:
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "image/svg+xml"
        assert "immutable" in response["Cache-Control"]
        assert symbol in SYMBOL.findall(response.content.decode())


def test_every_face_and_back_has_its_symbol():
    for kind in catalog.all_games():
        ids = SYMBOL.findall(art.sprite(kind.slug))
        assert len(ids) == len(set(ids)), "ids are unique"
        expected = {art.symbol_id(code) for code in art.codes(kind.slug)}
        expected |= {art.back_id(variant) for variant in art.back_variants(kind.slug)}
        assert set(ids) == expected
        assert all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]*", i) for i in ids), "XML ids"


@pytest.mark.django_db
def test_an_old_or_unknown_sprite_address():
    slug = catalog.all_games()[0].slug
    old = Client().get(reverse("web:card-sprite", args=[slug]) + "?v=0123")
    assert old.status_code == 200 and "immutable" not in old["Cache-Control"]
    assert Client().get(reverse("web:card-sprite", args=["nope"])).status_code == 404
    assert Client().post(reverse("web:card-sprite", args=[slug])).status_code == 405


def test_an_unknown_card_is_refused_as_before():
    slug = catalog.all_games()[0].slug
    with pytest.raises(art.UnknownCard):
        art.card_reference(slug, "no-such-card", "x", "/art/x.svg")
    with pytest.raises(art.UnknownCard):
        art.back_reference(slug, "no-such-back", "x", "/art/x.svg")
