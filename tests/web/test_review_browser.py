"""The post-game review in a real browser (issue 27), on a phone (390 px): a finished game
whose person played at random, reviewed by the task with a small budget, shows above its
replay each player's summary in words ("2 blunders, 1 mistake, 2 in the auction"), and
beside a reviewed step the move played, the search's suggestion and the estimated loss;
in every language, with no serious axe-core violation and no sideways scroll. While the
game runs there is no review section at all. Screenshots go to test-artifacts/."""

from __future__ import annotations

import random
import secrets
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.utils import translation

from games.play import services
from games.play.models import Game, Review
from games.play.tasks import review_game
from games.ratings import standings
from tests.factories import PlayerFactory
from tests.web.browser import fits_the_phone, shot
from tests.web.seed import played
from tests.web.test_accessibility import serious_violations
from tests.web.watching import person_moves, running
from web import replay
from web import review as page_review

pytestmark = [pytest.mark.services, pytest.mark.slow]

LANGUAGES = [code for code, _name in django_settings.LANGUAGES]
# Felix dealt with DEAL, the person's random moves with SEED: the review finds mistakes,
# most of them in the auction (tests/web/test_review_page.py checks the plumbing).
DEAL, SEED = 5, 0
# The review's boxes whose content is wider than they are (a table scrolling in its box).
OVERFLOWING = """() => [...document.querySelectorAll('#review, #review *')]
  .filter((el) => getComputedStyle(el).overflowX !== 'visible')
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.className || el.tagName)"""


@pytest.fixture
def small_review(settings):
    """The review made by the task, called here at once, with a few playouts a decision:
    not by the game's end signal (the page must show what the task stored)."""
    settings.REVIEWS = False
    settings.REVIEW_SCALE = 0.05
    settings.REVIEW_MAX_DECISIONS = 90


def reviewed_game(monkeypatch, deal: int = DEAL) -> tuple[Game, Review]:
    """A finished game of Felix, the same every time: the start's seating and deal come
    from ``deal`` (the services draw them from ``secrets``), the person's random moves
    and the computers' from their seeds."""
    fixed = SimpleNamespace(
        randbits=lambda bits: deal,
        SystemRandom=lambda: random.Random(deal),
        token_urlsafe=secrets.token_urlsafe,
        token_hex=secrets.token_hex,
    )
    monkeypatch.setattr(services, "secrets", fixed)
    person = PlayerFactory(display_name="Ann")
    game = played("felix", [person], 2, humans_play=True, seed=SEED)
    assert not Review.objects.filter(game=game).exists()
    assert review_game(game.pk)  # the Celery task, run synchronously
    return game, Review.objects.get(game=game)


def page_context(game: Game, language: str) -> dict:
    """What the page's view hands the template, in ``language``."""
    names = [s.name for s in standings.seat_lines(game)]
    with translation.override(language):
        return page_review.context(game, replay.payload(game), names)


def open_step(page, step: int) -> None:
    page.evaluate(f"location.hash = '#step-{step}'")
    page.wait_for_function(
        "(h) => location.hash === h && document.querySelector('.replay .sentence p')",
        arg=f"#step-{step}",
    )


def test_the_replay_shows_the_review_on_a_phone(page, live_server, small_review, monkeypatch):
    game, review = reviewed_game(monkeypatch)
    person = game.seats.get(player__isnull=False).number
    summary = next(line for line in review.summary if line["seat"] == person)
    assert summary["mistake"] + summary["blunder"] > 0  # something for the page to show
    url = f"{live_server.url}/games/{game.pk}/"
    for language in LANGUAGES:
        page.goto(url)
        if language != "en":
            with page.expect_navigation():
                page.select_option("#lang", language)  # the form submits itself
        assert page.locator("html").get_attribute("lang") == language
        shown = page_context(game, language)
        with translation.override(language):
            said = page_review.said(summary)

        # The summary: the person's line says what and where, in the page's language.
        section = page.locator("section#review")
        assert section.is_visible()
        row = section.locator(".review-summary tbody tr").filter(has_text="Ann")
        assert row.count() == 1
        assert said in row.inner_text()
        if language == "en":
            assert said.startswith(f"{summary['blunder']} blunder")
            assert "in the auction" in said

        # A graded step where the search suggested another move: the replay at that step
        # says beside its own sentence what was played, what was suggested and the loss.
        wrong = next(v for v in review.verdicts if v["grade"] and v["best"] != v["played"])
        line = shown["steps"][wrong["step"]]
        marked = section.locator(f'.review-marked a[href="#step-{wrong["step"]}"]')
        assert marked.count() == 1
        marked.click()
        page.wait_for_function("(h) => location.hash === h", arg=f"#step-{wrong['step']}")
        beside = page.locator(".replay .sentence .review-step")
        beside.wait_for()
        text = beside.inner_text()
        assert line["label"] in text and line["line"] in text
        with translation.override(language):
            loss = page_review.places(wrong["loss"])
        assert loss in text
        if language == "en":
            assert "Ann played" in text and "suggested:" in text and "estimated loss:" in text
        assert page.locator(".replay .sentence p").count() > 1  # the step's own sentence too

        # A step nobody's review concerns has no such line.
        unjudged = next(s for s in range(1, game.version) if str(s) not in shown["steps"])
        open_step(page, unjudged)
        assert page.locator(".replay .sentence .review-step").count() == 0
        open_step(page, wrong["step"])

        shot(page, f"review-felix-{language}-phone")
        assert serious_violations(page) == [], language
        assert fits_the_phone(page), language
        # The summary fits too: nothing in the review scrolls sideways in its own box.
        assert page.evaluate(OVERFLOWING) == [], language
    assert page.problems == []


def test_no_review_section_while_the_game_runs(page, live_server, small_review):
    game = person_moves(running("felix"), 3)
    assert review_game(game.pk) is None  # the task refuses a running game
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".replay .sentence p")
    assert page.locator("#review").count() == 0
    assert page.locator(".review-step, .review-summary, .review-marked").count() == 0
    assert not Review.objects.filter(game=game).exists()
    assert page.problems == []
