"""The rules page: how catclub reads each rule book, in the reader's language."""

import pytest
from django.urls import reverse
from django.utils import translation

from bot.texts import rules_text
from games import catalog

pytestmark = pytest.mark.django_db


def test_every_game_has_its_interpretations_with_their_clause_ids(client):
    response = client.get(reverse("web:rules"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    page = response.content.decode()
    for kind in catalog.all_games():
        assert kind.interpretations, kind.slug
        assert f'id="{kind.slug}"' in page
        for clause, text in kind.interpretations:
            assert f"<dt>{clause}</dt>" in page
            with translation.override("en"):
                assert str(text).replace("'", "&#x27;") in page


@pytest.mark.parametrize(
    ("language", "phrase"),
    [("it", "Come catclub legge i regolamenti"), ("pt", "Como o catclub lê os livros")],
)
def test_the_rules_page_speaks_the_readers_language(client, language, phrase):
    page = client.get(reverse("web:rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert phrase in page
    assert "Everyone chooses their card" not in page  # the clauses are translated too


def test_the_bot_links_each_game_to_its_section(settings):
    settings.SITE_URL = "https://catclub.example"
    with translation.override("en"):
        assert "https://catclub.example/rules/#smoking_cat" in rules_text("smoking_cat")


def test_the_rules_page_needs_no_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get(reverse("web:rules")).status_code == 200
