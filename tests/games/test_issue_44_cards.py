"""Issue 44 (item 5): Come Cani e Gatti's action cards are named, and said what they do,
once (``games.kinds.cats_and_dogs.cards``), in the rules' own English words, and the web
table and Telegram read them from there."""

from __future__ import annotations

import inspect

import pytest
from django.utils import translation

from games.kinds.cats_and_dogs import cards, data
from games.kinds.cats_and_dogs import telegram as telegram_renderer
from games.kinds.cats_and_dogs import web as web_renderer


def test_issue_44_card_words_are_the_rules_words():
    with translation.override("en"):
        assert {c.code: c.name for c in data.ACTION_CARDS} == {
            code: str(name) for code, name in cards.NAMES.items()
        }
        assert {c.code: c.text for c in data.ACTION_CARDS} == {
            code: str(text) for code, text in cards.DOES.items()
        }


@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_issue_44_web_and_telegram_name_a_card_alike(language):
    with translation.override(language):
        for card in data.ACTION_CARDS:
            assert web_renderer.action_name(card.code) == cards.name(card.code)
            assert telegram_renderer.card_name(card.code) == cards.name(card.code)
            assert (
                cards.does(card.code)
                in web_renderer.legend_texts()[3 + data.ACTION_CARDS.index(card)]
            )


def test_issue_44_card_names_are_translated_once():
    for module in (web_renderer, telegram_renderer):
        source = inspect.getsource(module)
        assert '"action card"' not in source, module.__name__
        assert "Remove any one marker" not in source, module.__name__


def test_issue_44_smoking_cat_words_are_the_arts_words():
    from games.kinds.smoking_cat import art as smoking_art
    from games.kinds.smoking_cat import cards as smoking_cards
    from games.kinds.smoking_cat.engine import SUIT_NAMES, SUITS

    with translation.override("en"):
        assert [smoking_cards.suit_name(s) for s in SUITS] == list(SUIT_NAMES)
        assert {s: smoking_cards.french_name(s) for s in SUITS} == smoking_art.FRENCH
        assert {
            r: smoking_cards.rank_name(r) for r in smoking_cards.RANK_ORDER
        } == smoking_art.RANK_NAMES


def test_issue_44_smoking_cat_sorts_and_names_once():
    from games.kinds.smoking_cat import telegram as smoking_telegram
    from games.kinds.smoking_cat import web as smoking_web

    for module in (smoking_web, smoking_telegram):
        source = inspect.getsource(module)
        assert 'SUIT_ORDER = "' not in source and '_("Leaves")' not in source, module.__name__
