"""Issue 45: at the web table on a phone (390 px), every decision of every game takes at
most two taps (a choice, then Confirm only where a slip would cost much), the cards, piles
and animals on the board are the buttons (no strip under the board repeats them), and a
move never makes the page jump away from the board.

A decision is a choice among what the page offers: a tap that narrows an action of several
steps (an action card, then its target) is a decision of its own, and must leave at least
two ways on (a step with one way on is taken by the page itself); a tap that ends an action
sends it, or shows Confirm, whose tap counts with it."""

import random

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.kinds.smoking_cat import web as smoking_web
from games.play.models import Game, GameStatus
from games.play.table import Table
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import CONFIRM, OFFERED, start_from_home
from tests.web.test_accessibility import serious_violations

COMPUTERS = {"felix": 2, "smoking_cat": 3, "bon_appetit": 1, "cats_and_dogs": 1}
SEATS = {"felix": 3, "smoking_cat": 4, "bon_appetit": 2, "cats_and_dogs": 2}

# Counts the moves the page sends: a tap's own, and those the page sends by itself (a
# draw the rules force: its key starts "auto-").
COUNT_MOVES = """
window.__moves = 0;
window.__autoMoves = 0;
const realFetch = window.fetch;
window.fetch = function (url, options) {
  if (options && options.method === "POST" && String(url).endsWith("/move/")) {
    const key = options.body && options.body.get ? String(options.body.get("key")) : "";
    if (key.startsWith("auto-")) window.__autoMoves++;
    else window.__moves++;
  }
  return realFetch.apply(this, arguments);
};
"""
BOARD_IN_VIEW = """() => {
  const board = document.querySelector(".board");
  if (!board) return true;
  const r = board.getBoundingClientRect();
  return r.top < window.innerHeight && r.bottom > 0;
}"""
# A jump is what the page scrolls by itself after a move, with the board still in view:
# a line of text above the board coming or going, or the page's end drawing nearer; the
# page once jumped some 900 px after a tap.
MAX_JUMP = 200


def version(page) -> str | None:
    return page.evaluate("document.querySelector('.tablebox')?.dataset.version ?? null")


def play_by_taps(page, max_taps: int, seed: int = 5) -> dict:
    """Tap the offered board items (and Confirm when asked) until the final screen.
    Returns the taps each decision took, the moves sent, and the jumps after moves. The
    first time a choice is under way (a step taken, or Confirm shown), axe reads it."""
    rng = random.Random(seed)
    decisions: list[int] = []
    jumps: list[float] = []
    taps = 0
    midway_read = False
    while taps < max_taps:
        page.wait_for_selector(f".final, {OFFERED}")
        if page.locator(".final").count():
            break
        options = page.locator(OFFERED)
        n = options.count()
        if n == 0:
            continue
        seen = version(page)
        sent = page.evaluate("window.__moves")
        try:
            options.nth(rng.randrange(n)).click(timeout=2_000)
        except PlaywrightTimeout:  # redrawn under the tap: nothing was tapped
            continue
        taps += 1
        decision = 1
        before = page.evaluate("window.scrollY")
        confirm = page.locator(CONFIRM)
        if not midway_read and page.locator(".choices .undo:visible").count():
            midway_read = True
            assert serious_violations(page) == []
        if confirm.count():
            confirm.click(timeout=2_000)
            taps += 1
            decision += 1
        decisions.append(decision)
        if page.evaluate("window.__moves") > sent:
            page.wait_for_function(
                "v => (document.querySelector('.tablebox')?.dataset.version ?? null) !== v",
                arg=seen,
                timeout=15_000,
            )
            assert page.evaluate(BOARD_IN_VIEW), "the board left the screen after a move"
            jumps.append(abs(page.evaluate("window.scrollY") - before))
        elif version(page) == seen:
            # A step of an action: it narrowed the choice, and leaves a real one.
            assert page.locator(OFFERED).count() >= 2, "a tap that offered one way on"
    else:
        raise AssertionError(f"no final screen after {max_taps} taps")
    return {
        "decisions": decisions,
        "taps": taps,
        "auto": page.evaluate("window.__autoMoves"),
        "jumps": jumps,
    }


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.parametrize("slug", list(COMPUTERS))
def test_issue_45_every_decision_takes_at_most_two_taps_on_a_phone(page, live_server, slug):
    page.add_init_script(COUNT_MOVES)
    start_from_home(page, live_server.url, slug, computers=COMPUTERS[slug])
    page.wait_for_selector(".board")
    # No strip of choices under the board: what is offered there is no card.
    assert page.locator(".choices .card").count() == 0
    assert page.locator(".choices .opt, .choices .step").count() == 0
    assert serious_violations(page) == []  # the board's buttons too
    # Start with the board in the middle of the screen, as a person reading it would.
    page.evaluate("document.querySelector('.board').scrollIntoView({block: 'center'})")
    played = play_by_taps(page, max_taps=2500)
    game = Game.objects.get()
    assert game.status == GameStatus.FINISHED
    assert page.locator(".final .ranking li").count() == SEATS[slug]
    assert played["decisions"] and max(played["decisions"]) <= 2, played["decisions"]
    assert max(played["jumps"]) <= MAX_JUMP, sorted(played["jumps"])[-5:]
    assert fits_the_phone(page)
    shot(page, f"issue-45-{slug}-final-phone")
    assert not page.problems, page.problems


@pytest.mark.services
@pytest.mark.slow
def test_issue_45_smoking_cats_hand_appears_once_and_is_the_buttons(page, live_server):
    start_from_home(page, live_server.url, "smoking_cat", computers=3)
    page.wait_for_selector(".board.smoking .hand .card")
    hand = page.locator(".board.smoking .hand .card")
    codes = [hand.nth(i).get_attribute("data-code") for i in range(hand.count())]
    assert len(codes) == 8
    for code in codes:
        assert page.locator(f'.tablebox .card[data-code="{code}"]').count() == 1, code
        # The card is the button, named as the card ("Ober of Leaves").
        assert (
            page.get_by_role("button", name=smoking_web.card_label(code), exact=True).count() == 1
        )
    # S-pass: each card of the hand is the button that passes it, one tap.
    assert page.locator('.hand button[data-action^="pass:"]:not([disabled])').count() == 8
    shot(page, "issue-45-smoking_cat-hand-phone")
    assert not page.problems, page.problems


def test_issue_45_smoking_cats_page_draws_the_hand_once(db, django_capture_on_commit_callbacks):
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("web:play-create"), {"game": "smoking_cat", "name": "Ann", "computers": "3"}
        )
    game = Game.objects.get()
    seat = game.seats.get(player__isnull=False).number
    html = client.get(response.url).content.decode()
    hand = Table(game).view(seat)["hand"]
    assert len(hand) == 8
    for code in hand:
        assert html.count(f'data-code="{code}"') == 1, code
        assert html.count(f'data-pick="hand:{code}"') == 1, code
