"""The rules pages: an index of the games with how to start playing, and each game's full
rules clause by clause in the reader's language, the interpretations beside their clauses."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from bot.texts import rules_text
from games import catalog
from games import rules as documents

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "it", "pt")
SLUGS = [kind.slug for kind in catalog.all_games()]


def get(client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def clause_element(page: str, clause: str) -> str:
    """The HTML of the clause element ``id="<clause>"``, up to the next clause."""
    start = page.index(f'id="{clause}"')
    following = page.find('<div class="clause', start)
    return page[start : following if following != -1 else len(page)]


def html(text) -> str:
    return str(text).replace("'", "&#x27;").replace('"', "&quot;")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_index_shows_every_game_with_a_card_and_a_link_to_its_rules(client, language):
    page = get(client, reverse("web:rules"), language)
    for kind in catalog.all_games():
        assert f'id="{kind.slug}"' in page  # the bot's old /rules/#<slug> links still land
        assert reverse("web:rules-game", args=[kind.slug]) in page
        with translation.override(language):
            assert html(kind.name) in page
    assert page.count('role="img"') >= len(SLUGS)  # a card picture per game
    assert reverse("web:play") in page


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_a_games_page_has_every_clause_as_an_anchor_in_the_readers_language(client, slug, language):
    page = get(client, reverse("web:rules-game", args=[slug]), language)
    doc = documents.document(slug, language)
    assert doc.language == language
    assert f'lang="{language}"' in page
    for clause in doc.clauses():
        element = clause_element(page, clause.id)
        assert f'href="#{clause.id}"' in element  # the clause links to itself
    with translation.override(language):
        for clause, text in catalog.get(slug).interpretations:
            element = clause_element(page, clause)
            assert 'class="reading"' in element and html(text) in element, clause


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("The big dog chases", "How catclub plays it", "Interpretation")),
        ("it", ("Il cane grande", "Come lo gioca catclub", "Interpretazione")),
        ("pt", ("O cão grande", "Como o catclub o joga", "Interpretação")),
    ],
)
def test_F19_F21_felix_reads_in_each_language_with_the_interpretation_marked(
    client, language, words
):
    page = get(client, reverse("web:rules-game", args=["felix"]), language)
    assert words[0] in clause_element(page, "F19")
    f21 = clause_element(page, "F21")
    assert words[1] in f21 and words[2] in f21 and 'class="interp"' in f21
    other = {"en": "The big dog chases", "it": "Il cane grande", "pt": "O cão grande"}
    assert all(w not in page for lang, w in other.items() if lang != language)


def test_each_page_has_a_title_of_its_own(client):
    titles = {
        re.search(r"<title>(.*?)</title>", get(client, url, "en"), re.S)[1]
        for url in [reverse("web:rules")]
        + [reverse("web:rules-game", args=[slug]) for slug in SLUGS]
    }
    assert len(titles) == len(SLUGS) + 1


def test_a_clause_that_names_another_links_to_it(client):
    page = get(client, reverse("web:rules-game", args=["felix"]), "en")
    assert '<a href="#F18">F18</a>' in clause_element(page, "F16")


def test_the_pictures_are_the_projects_own_cards_named_in_the_readers_language(client):
    page = get(client, reverse("web:rules-game", args=["felix"]), "it")
    assert 'aria-label="cane grande"' in clause_element(page, "F19")


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/chess/").status_code == 404


def test_the_bot_is_linked_when_its_username_is_set(client, settings):
    settings.TELEGRAM_BOT_USERNAME = "catclub_bot"
    page = get(client, reverse("web:rules"), "en")
    assert 'href="https://t.me/catclub_bot?startgroup=true"' in page
    assert 'href="https://t.me/catclub_bot"' in page


def test_without_a_bot_username_the_page_still_says_how_to_start(client, settings):
    settings.TELEGRAM_BOT_USERNAME = ""
    page = get(client, reverse("web:rules"), "en")
    assert "t.me/" not in page
    assert "/new" in page and reverse("web:play") in page


def test_the_bot_links_each_game_to_its_rules_page(settings):
    settings.SITE_URL = "https://catclub.example"
    with translation.override("en"):
        assert "https://catclub.example/rules/smoking_cat/" in rules_text("smoking_cat")


def test_the_rules_pages_need_no_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get(reverse("web:rules")).status_code == 200
        assert client.get(reverse("web:rules-game", args=["felix"])).status_code == 200
