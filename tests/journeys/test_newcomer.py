"""A newcomer's journey (issue 45), on a phone: they open the site, play a game against
computers to its end by tapping, open its replay while the review is still being made
and see it appear there by itself, follow a graded step's link to the board, and "Play
again" seats them at a new table of the same game with the same computers."""

from __future__ import annotations

import threading

import pytest
from django.utils import timezone

from games.play import reviews
from games.play.models import Game, GameStatus
from tests.web.browser import beside_the_browser, fits_the_phone, shot
from tests.web.tables import OFFERED, play_by_clicking, start_from_home

pytestmark = [pytest.mark.slow]


@pytest.fixture
def held_review(settings, monkeypatch):
    """Reviews on, with a small budget, made only once ``release`` is set: so that the
    replay page is open before its review exists, as when a person is quicker than the
    review's queue."""
    settings.REVIEWS = True
    settings.REVIEW_SCALE = 0.05
    settings.REVIEW_MAX_DECISIONS = 90
    release = threading.Event()
    make = reviews.make

    def held(game_id, **kwargs):
        return make(game_id, **kwargs) if release.is_set() else None

    monkeypatch.setattr(reviews, "make", held)
    return release


def test_a_newcomer_plays_sees_the_review_arrive_and_plays_again(page, live_server, held_review):
    base = live_server.url
    start_from_home(page, base, "felix", computers=2)
    play_by_clicking(page, max_clicks=400)
    game = Game.objects.get()
    assert game.status == GameStatus.FINISHED
    final = page.locator(".final")
    assert final.locator("form[data-again] button").is_visible()
    assert fits_the_phone(page)
    table_url = page.url

    # The replay, while the review is being made: it says so, and then shows it by itself.
    final.get_by_role("link", name="Replay this game").click()
    page.wait_for_selector("#review [data-review-wait]")
    held_review.set()
    assert beside_the_browser(reviews.make, game.pk) is not None
    page.wait_for_selector("#review .review-summary", timeout=30_000)
    assert page.locator("[data-review-wait]").count() == 0
    shot(page, "journey-newcomer-review")

    # A graded step's link brings the board into view at that step, marked.
    links = page.locator(".review-marked a")
    if links.count():
        link = links.first
        step = link.get_attribute("href").removeprefix("#step-")
        link.click()
        sentence = page.locator(".replay .sentence.marked")
        sentence.wait_for()
        assert page.locator(".replay .counter").inner_text().split()[1] == step
        box = sentence.bounding_box()
        viewport = page.viewport_size
        assert box is not None and 0 <= box["y"] < viewport["height"], box

    # Play again: the same game, the same computers, a new table that runs at once.
    page.goto(table_url)
    with page.expect_navigation():
        page.locator("form[data-again] button").click()
    page.wait_for_selector(".tablebox")
    new = Game.objects.exclude(pk=game.pk).get()
    assert page.url.rstrip("/").endswith(f"/play/{new.pk}")
    assert new.game_type == game.game_type and new.status == GameStatus.RUNNING
    strategies = sorted(s.strategy for s in game.seats.filter(player__isnull=True))
    assert sorted(s.strategy for s in new.seats.filter(player__isnull=True)) == strategies
    assert new.started_at <= timezone.now()
    page.wait_for_selector(OFFERED)
    assert fits_the_phone(page)
    assert not page.problems, page.problems
