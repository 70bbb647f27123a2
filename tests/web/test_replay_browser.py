"""Watching and replaying in a real browser (issue 17), on a phone: a running game's page
follows the game without a reload; a replay plays by itself to its end, steps with the
keys, opens at a linked step and keeps the address on the step shown; its sentences are
in the page's language; and the pages of each game, running and finished, fit a phone and
have no serious accessibility problem. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import catalog
from games.play import services
from games.play.models import Game
from tests.web.browser import fits_the_phone, shot
from tests.web.seed import _on_commit, played, players
from tests.web.test_accessibility import serious_violations
from tests.web.watching import COMPUTERS, person_moves, running
from web import replay

pytestmark = [pytest.mark.services, pytest.mark.slow]

COUNTER = ".replay .counter"


def counter_shows(page, step: int, last: int) -> None:
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).textContent === text",
        arg=[COUNTER, f"Step {step} of {last}"],
        timeout=10_000,
    )


def test_a_spectator_page_follows_the_running_game(page, live_server):
    game = running("felix")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # It opens where the game is now, with the live table above the replay so far.
    counter_shows(page, game.version, game.version)
    assert page.locator(".watch .tablebox").count() == 1
    page.evaluate("window.notReloaded = true")
    shot(page, "watch-felix-phone")

    game = person_moves(game, 2)
    # The moves reach the page by long polling: the table and the replay both follow.
    page.wait_for_selector(f'.watch .tablebox[data-version="{game.version}"]', timeout=15_000)
    counter_shows(page, game.version, game.version)
    assert page.evaluate("window.notReloaded") is True
    with translation.override("en"):
        said = replay.build(Game.objects.get(pk=game.pk))["steps"][-1]["text"]
    assert page.locator(".replay .sentence p").all_inner_texts() == said
    assert page.evaluate("location.hash") == f"#step-{game.version}"

    # The game ends (cancelled by its player): the table says so and the replay shows
    # everyone's cards, still without a reload.
    with _on_commit():
        services.abort(game, by=game.seats.get(player__isnull=False).player)
    page.wait_for_selector(".watch .tablebox .turn:has-text('cancelled')", timeout=15_000)
    page.wait_for_selector(".replay .board .hand-line", timeout=10_000)
    assert page.evaluate("window.notReloaded") is True
    assert page.locator(".replay .notice").is_hidden()  # "the game is running" no more
    assert page.locator(".facts .badge:visible").inner_text() == "Game over"
    shot(page, "watch-felix-ended-phone")
    assert page.problems == []


def test_a_replay_plays_to_its_end_and_follows_the_keys_and_links(page, live_server):
    game = played("felix", players(1), 2)
    last = game.version
    base = f"{live_server.url}/games/{game.pk}/"

    # A link to a step opens there.
    page.goto(f"{base}#step-5")
    counter_shows(page, 5, last)
    page.keyboard.press("ArrowRight")
    counter_shows(page, 6, last)
    assert page.evaluate("location.hash") == "#step-6"
    assert page.locator(".replay .steplink").get_attribute("href") == "#step-6"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    counter_shows(page, 4, last)
    page.keyboard.press("End")
    counter_shows(page, last, last)
    assert page.locator("[data-go=next]").is_disabled()
    page.keyboard.press("Home")
    counter_shows(page, 0, last)
    # Changing the address's step moves the replay there.
    page.evaluate("location.hash = '#step-3'")
    counter_shows(page, 3, last)

    # Autoplay, fastest, from near the end: it reaches the last step and stops there.
    page.goto(f"{base}#step-{last - 3}")
    counter_shows(page, last - 3, last)
    page.select_option(".replay select[name=speed]", "4")
    play = page.locator("[data-go=play]")
    assert play.get_attribute("aria-label") == "Play"
    page.evaluate("document.activeElement.blur()")  # the keys act on the page itself
    page.keyboard.press(" ")  # space plays
    assert play.get_attribute("aria-label") == "Pause"
    counter_shows(page, last, last)
    page.wait_for_function("() => document.querySelector('[data-go=play]').ariaLabel === 'Play'")
    assert page.locator(".replay .board .notice").inner_text() == "Game over"
    # Every step is headed by a sentence, never by an engine's code.
    for step in (1, 2, last):
        page.evaluate(f"location.hash = '#step-{step}'")
        counter_shows(page, step, last)
        sentence = page.locator(".replay .sentence").inner_text()
        assert sentence and not re.search(r"\b(place|bid|pass):", sentence), sentence
    assert page.locator(".replay .board .card.art svg").count() > 0  # the card art
    assert page.locator(".deck-legend li").count() == 4
    shot(page, "replay-felix-end-phone")
    assert page.problems == []


@pytest.mark.parametrize("language", ["it", "pt"])
def test_the_step_sentence_is_in_the_pages_language(page, live_server, language):
    game = played("smoking_cat", players(1), 3)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    with page.expect_navigation():
        page.select_option("#lang", language)
    page.goto(f"{live_server.url}/games/{game.pk}/#step-2")
    page.wait_for_function("() => location.hash === '#step-2'")
    with translation.override(language):
        said = replay.build(game)["steps"][2]["text"]
    with translation.override("en"):
        english = replay.build(game)["steps"][2]["text"]
    assert said != english
    assert page.locator(".replay .sentence p").all_inner_texts() == said
    shot(page, f"replay-smoking-cat-{language}-phone")
    assert page.problems == []


@pytest.mark.parametrize("slug", catalog.slugs())
def test_running_and_finished_pages_fit_a_phone_without_serious_violations(page, live_server, slug):
    finished = played(slug, players(1), COMPUTERS[slug])
    watching = person_moves(running(slug), 2)
    for kind, game in (("finished", finished), ("running", watching)):
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.wait_for_selector(".replay .sentence p")
        # The board, drawn by the game's own script (web/replay/<slug>.js in its package).
        page.wait_for_selector(".replay .board table")
        page.locator(".legend-box summary").click()  # the deck's legend, open
        assert serious_violations(page) == [], (slug, kind)
        assert fits_the_phone(page), (slug, kind)
        shot(page, f"game-{slug}-{kind}-phone")
    assert page.problems == []
