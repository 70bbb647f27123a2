"""Issue 45's review defects in a real browser: a link to a graded step brings the board
into view at that step, marked (the page used to stay at the top); a name in the review's
table wraps between its words at 1280 px, never inside one ("Teste / r")."""

from __future__ import annotations

import pytest

from games.play.models import Player
from tests.web.test_review_browser import reviewed_game, small_review  # noqa: F401

pytestmark = [pytest.mark.slow]

# Each word of the name cell on one line: a word broken in two has two rectangles.
BROKEN_WORDS = """() => {
  const cell = [...document.querySelectorAll('.review-summary td.name')]
    .find((td) => td.textContent.includes('Tester'));
  const text = [...cell.childNodes, ...cell.querySelectorAll('*')]
    .flatMap((n) => (n.nodeType === 3 ? [n] : [...n.childNodes]))
    .find((n) => n.nodeType === 3 && n.textContent.includes('Tester'));
  const broken = [];
  let at = 0;
  for (const word of text.textContent.split(' ')) {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) broken.push(word);
    at += word.length + 1;
  }
  return broken;
}"""


@pytest.mark.usefixtures("small_review")
def test_issue_45_a_step_link_brings_the_board_into_view_marked(page, live_server, monkeypatch):
    game, _review = reviewed_game(monkeypatch)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    link = page.locator(".review-marked a").last
    step = link.get_attribute("href").removeprefix("#step-")
    assert page.evaluate("window.scrollY") == 0
    link.click()
    marked = page.locator(".replay .sentence.marked")
    marked.wait_for()
    assert page.locator(".replay .counter").inner_text().split()[1] == step
    assert page.locator(".replay .sentence .review-step").is_visible()
    box = marked.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"], box
    assert page.evaluate("window.scrollY") > 0
    assert not page.problems, page.problems


@pytest.mark.usefixtures("small_review")
def test_issue_45_a_name_in_the_review_wraps_between_words(page, live_server, monkeypatch):
    game, _review = reviewed_game(monkeypatch)
    person = game.seats.get(player__isnull=False).player_id
    Player.objects.filter(pk=person).update(display_name="Tester Testerson Testington")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate(BROKEN_WORDS) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(BROKEN_WORDS) == []
