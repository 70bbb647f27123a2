"""A replay people can read (issue 17): every step of every game is headed by sentences
in the page's language, with the players' names, never by an engine's code; each deck's
legend is on the page, translated."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.utils import translation

from games import art, catalog
from games.play.models import Game
from games.ratings import standings
from tests.web.seed import played, players
from tests.web.watching import COMPUTERS
from web import replay
from web.tables import legend

pytestmark = pytest.mark.django_db(transaction=True)  # moves are processed after commit

# What an engine's action or event looks like: "play:BU", "mark:1", "bid:3", "pass".
RAW = re.compile(r"^\w+(:\w+)+$|\b(play|place|bid|mark|feed|draw|flip|throw):[\w-]+")


@pytest.mark.parametrize("slug", catalog.slugs())
def test_every_step_is_headed_by_sentences_in_the_pages_language(slug):
    game = played(slug, players(1), COMPUTERS[slug])
    game = Game.objects.prefetch_related(standings.seats_prefetch()).get(pk=game.pk)
    names = [line.name for line in standings.seat_lines(game)]
    texts = {}
    for language in ("en", "it", "pt"):
        with translation.override(language):
            texts[language] = [step["text"] for step in replay.build(game)["steps"]]
    for step, lines in enumerate(texts["en"]):
        assert lines, f"step {step} says nothing"
        for line in lines:
            assert not RAW.search(line), f"step {step}: {line!r}"
    # Names the players...
    said = " ".join(line for lines in texts["en"] for line in lines)
    assert any(name in said for name in names)
    # ... and reads in Italian and in Portuguese too.
    for language in ("it", "pt"):
        assert texts[language][0] != texts["en"][0]
        assert (
            sum(a != b for a, b in zip(texts[language], texts["en"], strict=True))
            > len(texts["en"]) // 2
        )


@pytest.mark.parametrize("slug", catalog.slugs())
def test_each_decks_legend_is_translated(slug):
    """S2 for Smoking Cat: the German suits and what U and O stand for are explained."""
    english = [text for _svg, text in art.legend(slug)]
    for language in ("it", "pt"):
        with translation.override(language):
            rows = legend(slug)
        assert len(rows) == len(english)
        # Some entries are only a number ("7"): most are words, and those are translated.
        assert sum(text != en for (_svg, text), en in zip(rows, english, strict=True)) >= (
            len(english) // 2
        )
        assert all(f'aria-label="{escape(text)}"' in svg for svg, text in rows)
