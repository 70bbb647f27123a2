"""A reader's journey (issue 45): alone with computers on a phone, they stop to read with
the table open and in sight, well past the turn's clock. The sweep (driven here, not
waited for) finds the deadline passed again and again, and the table is neither played
for them nor cancelled: their clock starts again. Once the page is gone, the clock runs
and the abandoned table is cancelled as before."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.utils import timezone

from games.play import presence, tasks
from games.play.models import AbortReason, Game, GameStatus, Move, MoveSource
from tests.web.browser import beside_the_browser
from tests.web.tables import OFFERED, start_from_home

pytestmark = [pytest.mark.slow]


def past_the_clock(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    beside_the_browser(tasks.sweep)


def settled(game: Game, seconds: float = 10) -> Game:
    """The game once the steps the sweep queued are done (its deadline in the future, or
    the game over)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        game = Game.objects.get(pk=game.pk)
        if game.status != GameStatus.RUNNING or (game.deadline and game.deadline > timezone.now()):
            return game
        time.sleep(0.1)
    raise AssertionError("the sweep's steps did not settle")


def test_an_idle_reader_with_the_page_in_sight_is_not_cancelled(page, live_server, settings):
    settings.TIMEOUTS_BEFORE_COMPUTER = 2
    start_from_home(page, live_server.url, "felix", computers=2, name="Rita")
    page.wait_for_selector(OFFERED)  # her turn: every seat places a card at once
    game = Game.objects.get()
    seat = game.seats.get(player__isnull=False).number
    end = time.monotonic() + 10
    while not presence.present(game.pk, seat):  # the page reports itself once it shows
        assert time.monotonic() < end, "the table page never said it was in sight"
        time.sleep(0.1)

    for _ in range(4):  # twice would have cancelled the table before
        past_the_clock(game)
        game = settled(game)
        assert game.status == GameStatus.RUNNING
    assert not Move.objects.filter(game=game, source=MoveSource.TIMEOUT).exists()
    assert page.locator(OFFERED).first.is_visible()
    assert "stopped playing" not in page.inner_text("#table")
    assert not page.problems, page.problems

    # She leaves: her page no longer reports itself (its last report expires), and the
    # table she abandoned is cancelled.
    page.goto(live_server.url + "/rules/")
    caches["shared"].delete(f"presence:{game.pk}:{seat}")
    for _ in range(2):
        past_the_clock(game)
        game = settled(game)
    assert game.status == GameStatus.ABORTED and game.abort_reason == AbortReason.ABANDONED
