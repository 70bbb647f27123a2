"""Issue 45, the review: its summary adds up in every language; storing it is news to an
open page of the game (its change token moves and the change is announced); a name in its
table wraps between words, never inside one."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import translation

from games.play import reviews
from games.play.models import Review
from games.play.signals import review_stored
from tests.web.seed import played, players
from web import review as page_review
from web.live import changes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reviewing(settings):
    settings.REVIEWS = True
    settings.REVIEW_SCALE = 0.05
    settings.REVIEW_MAX_DECISIONS = 90


@pytest.mark.parametrize("language", [code for code, _name in django_settings.LANGUAGES])
def test_issue_45_the_summary_adds_up_in_every_language(language):
    """ "1 in play (in play: 1, while feeding: 1)": the counts by phase are those of the
    mistakes and blunders, and all of them are said."""
    line = {"decisions": 30, "inaccuracy": 3, "mistake": 2, "blunder": 1}
    line["phases"] = {"play": 1, "feed": 1, "auction": 1}
    with translation.override(language):
        text = page_review.said(line)
        phases = [str(page_review.PHASE_NAMES[p]) for p in ("play", "feed", "auction")]
    grades, _sep, where = text.partition("; ")
    assert [int(n) for n in re.findall(r"\d+", grades)] == [1, 2, 3]
    counts = [int(n) for n in re.findall(r"\d+", where)]
    assert sum(counts) == line["mistake"] + line["blunder"] and len(counts) == 3
    assert all(words in where for words in phases)


def test_issue_45_a_stored_review_is_news_to_an_open_page(reviewing, client):
    game = played("felix", players(1), 2, humans_play=True, seed=6)
    Review.objects.filter(game=game).delete()
    page = client.get(reverse("web:game", args=[game.pk])).content.decode()
    # The page waits for it on the table's stream, with the token it was written with.
    wait = re.search(r'data-review-wait data-events="([^"]+)" data-token="([^"]+)"', page)
    assert wait and wait.group(1) == reverse("web:table-events", args=[game.pk])
    assert changes.token(game.pk) == wait.group(2)
    heard = []

    def on_review(sender, game_id, **kwargs):
        heard.append(game_id)

    review_stored.connect(on_review)
    try:
        assert reviews.make(game.pk) is not None
    finally:
        review_stored.disconnect(on_review)
    assert heard == [game.pk]
    changes._move_marker(game.pk)  # as the announcement's marker does, without waiting on it
    assert changes.token(game.pk) != wait.group(2)
    page = client.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "data-review-wait" not in page and "review-summary" in page


def test_issue_45_a_name_in_the_review_wraps_between_words_only():
    css = (django_settings.BASE_DIR / "web/static/web/replay.css").read_text()
    rule = re.search(r"\.review-summary td\.name \{([^}]*)\}", css)
    assert rule and "anywhere" not in rule.group(1) and "break-all" not in rule.group(1)
    assert "overflow-wrap: normal" in rule.group(1)
