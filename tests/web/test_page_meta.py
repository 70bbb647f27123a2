"""What a page says about itself for a shared link's preview (Telegram's, for one): its
title, description and Open Graph tags, filled by each page, absolute where they must be,
and escaped like everything else on the page."""

import re
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse

from tests.web.seed import finished, players

pytestmark = pytest.mark.django_db


def head_of(client, url, **headers) -> dict[str, str]:
    html = client.get(url, **headers).content.decode()
    head = html[: html.index("</head>")]
    tags = {
        m[1]: unescape(m[2])
        for m in re.finditer(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', head)
    }
    tags["title"] = unescape(re.search(r"<title>(.*?)</title>", head, re.S)[1])
    return tags


def test_a_player_page_previews_as_their_profile(client, seeded):
    url = reverse("web:player", args=[seeded.bruno.pk])
    tags = head_of(client, url)
    assert tags["title"] == "Bruno · catclub"
    assert tags["og:title"] == "Bruno"
    assert tags["og:type"] == "profile"
    assert tags["og:url"] == settings.SITE_URL + url
    assert tags["og:site_name"] == "catclub"
    assert tags["og:image"] == settings.SITE_URL + "/static/web/og-card.png"
    assert tags["og:description"] == tags["description"]
    assert "Felix: The Cat in the Sack: 4 rated games, 3 won" in tags["og:description"]
    assert tags["og:locale"] == "en_GB"


def test_league_and_game_pages_describe_themselves(client, seeded):
    league = head_of(client, reverse("web:league", args=["roma"]))
    assert (league["og:title"], league["og:description"]) == (
        "Gatti di Roma",
        "Tuesday nights at the club.",
    )
    game = head_of(client, reverse("web:game", args=[seeded.g1.pk]))
    assert game["og:description"] == "Finished: 1. Anna, 2. Bruno, 3. Carla · Gatti di Roma"


def test_the_preview_follows_the_language(client, seeded):
    tags = head_of(client, reverse("web:leagues"), HTTP_ACCEPT_LANGUAGE="pt")
    assert tags["og:title"] == "Ligas" and tags["og:locale"] == "pt_BR"
    assert tags["og:description"].startswith("Jogos de cartas de gatos")


def test_names_in_the_preview_are_escaped(client, db):
    evil, other = players(2)
    evil.display_name = '"><script>alert(1)</script>'
    evil.save()
    finished("felix", [evil, other], [1, 2])
    html = client.get(reverse("web:player", args=[evil.pk])).content.decode()
    head = html[: html.index("</head>")]
    assert "<script>" not in head
    assert 'content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in head


def test_the_home_page_names_the_catalogs_games_in_the_pages_language(client):
    """The games named on the home page and in a page's description are the catalog's,
    in the page's language: a new game's package shows there with nothing else edited."""
    html = unescape(client.get("/", HTTP_ACCEPT_LANGUAGE="it").content.decode())
    # Issue 45: each game has its own card on the home page.
    for name in ("Felix: il gatto nel sacco", "Smoking Cat", "Bon Appétit!", "Come Cani e Gatti"):
        assert f">{name}</a></h3>" in html, name
    description = head_of(client, reverse("web:leagues"), HTTP_ACCEPT_LANGUAGE="it")["description"]
    assert "nel browser: Felix, Smoking Cat, Bon Appétit! e Come Cani e Gatti, con" in description
