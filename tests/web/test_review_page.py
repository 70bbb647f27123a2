"""The post-game review (issue 27, part 4) in the product: a task after the game, stored,
shown on the game's page, never while the game runs."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.play import reviews
from games.play.models import GameStatus, MoveSource, Review
from games.play.tasks import review_game
from tests.web.seed import played, players
from tests.web.watching import running
from web import review as page_review

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reviewing(settings):
    settings.REVIEWS = True
    settings.REVIEW_SCALE = 0.05  # a few playouts a decision: the plumbing, not the verdicts
    settings.REVIEW_MAX_DECISIONS = 90


def test_a_finished_game_with_a_person_is_reviewed_after_it_ends(reviewing, client):
    """Issue 27: the game_ended signal queues the review; it covers the person's
    decisions only and is shown on the game's page, by step and per player."""
    game = played("felix", players(1), 2, humans_play=True)
    assert game.status == GameStatus.FINISHED
    review = Review.objects.get(game=game)
    person = game.seats.get(player__isnull=False).number
    assert review.verdicts and {v["seat"] for v in review.verdicts} == {person}
    steps = {m.seq: m for m in game.moves.filter(seq__isnull=False)}
    assert all(steps[v["step"]].source == MoveSource.HUMAN for v in review.verdicts)
    assert all(steps[v["step"]].action == v["played"] for v in review.verdicts)
    # Stored: asked again with the same budget, the same review comes back unmade.
    assert reviews.make(game.pk).pk == review.pk
    response = client.get(reverse("web:game", args=[game.pk]))
    html = response.content.decode()
    assert 'id="review"' in html
    assert response.context["review"]["players"][0]["decisions"] == len(review.verdicts)
    assert set(response.context["replay_meta"]["review"]) == {v["step"] for v in review.verdicts}


def test_the_review_is_deterministic_for_a_game_and_a_budget(reviewing):
    """Issue 27: made again, the review gives the same verdicts."""
    game = played("felix", players(1), 2, humans_play=True, seed=3)
    first = Review.objects.get(game=game).verdicts
    assert reviews.make(game.pk, force=True).verdicts == first


def test_no_review_while_the_game_runs_nor_of_a_game_of_computers(reviewing):
    """Issue 27: a review is never produced while the game runs."""
    game = running("felix")
    assert review_game(game.pk) is None
    assert not Review.objects.filter(game=game).exists()
    computers = played("felix", players(1), 2)  # the person's seat handed to a computer
    assert reviews.make(computers.pk) is None or not reviews.make(computers.pk).verdicts


def test_reviews_are_off_unless_asked_for(settings):
    settings.REVIEWS = False
    game = played("felix", players(1), 2, humans_play=True, seed=4)
    assert not Review.objects.filter(game=game).exists()


def test_the_summary_says_what_and_where():
    line = {"decisions": 20, "inaccuracy": 1, "mistake": 3, "blunder": 0}
    line["phases"] = {"auction": 2, "place": 1}
    told = (
        "3 mistakes, 1 inaccuracy; the mistakes and blunders: 2 in the auction,"
        " 1 while placing cards"
    )
    assert page_review.said(line) == told
    with translation.override("it"):
        assert page_review.said(line) != told


def test_phases_told_alike_add_up_and_figures_follow_the_language():
    """Come Cani e Gatti's "feed" and "more" are both "while feeding": one count, not two;
    a loss has two decimals, rounded, in the page's number format and always plural."""
    line = {"decisions": 9, "inaccuracy": 0, "mistake": 1, "blunder": 2}
    line["phases"] = {"feed": 1, "more": 1, "play": 1}
    assert page_review.said(line) == (
        "2 blunders, 1 mistake; the mistakes and blunders: 2 while feeding, 1 in play"
    )
    assert page_review.by_words(line["phases"]) == [("while feeding", 2), ("in play", 1)]
    assert page_review.places(1.0) == "1.00 places"
    assert page_review.figure(0.467) == "0.47"
    with translation.override("it"):
        assert page_review.figure(0.467) == "0,47"


def test_the_bots_final_message_links_the_review(reviewing, settings):
    """Issue 27: "Review the game" in the group's final message, to the game's page."""
    from bot.render import lobby

    game = played("felix", players(1), 2, humans_play=True, seed=5)
    rules = game.kind.rules
    view = rules.view(rules.load(game.state), None)
    names = ["A", "B", "C"]
    text = lobby.final(game, names, lambda result, seat, view: "0", view)
    assert f"{settings.SITE_URL}/games/{game.pk}/#review" in text
    settings.REVIEWS = False
    assert "#review" not in lobby.final(game, names, lambda result, seat, view: "0", view)


def test_until_the_review_is_made_the_page_says_it_is_coming(reviewing, client):
    """Issue 27: the bot links #review at once; the review follows in a minute."""
    game = played("felix", players(1), 2, humans_play=True, seed=6)
    Review.objects.filter(game=game).delete()
    html = client.get(reverse("web:game", args=[game.pk])).content.decode()
    assert 'id="review"' in html and "being prepared" in html
