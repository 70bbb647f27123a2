"""Driving the web table in a real browser the way a person does: from the home page to a
table, then clicking one of the offered choices until the game is over."""

from __future__ import annotations

import random
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.browser import PHONE

# What a person can tap now: the board's cards and piles, and the few buttons beside them
# (Stop, Pass, a bid), as table.js offers them (issue 45).
OFFERED = ".tablebox [data-pick]:not([disabled]):visible"
CONFIRM = ".choices .do:visible:not([disabled])"


def click_one(page, rng: random.Random) -> bool:
    """Tap one of the choices on offer now (then Confirm, when the choice asks for it).
    The table may be redrawn under the tap (the long poll brought another player's move):
    then nothing was tapped, and the caller looks again. Returns whether a choice was
    tapped."""
    options = page.locator(OFFERED)
    n = options.count()
    if n == 0:
        return False
    try:
        options.nth(rng.randrange(n)).click(timeout=2_000)
        confirm = page.locator(CONFIRM)
        if confirm.count():
            confirm.click(timeout=2_000)
    except PlaywrightTimeout:
        return False
    return True


def to_her_play(game, player) -> None:
    """Smoking Cat: ``player``'s passes made, and the computers' moves, until it is her
    turn in the play, where throwing down (a button, then Confirm: S12) is offered. Moves
    go through the services as a tap would send them (the computers answer at once:
    tasks run in-process in the tests)."""
    from games.play import services
    from games.play.models import Game
    from games.play.table import Table

    seat = game.seats.get(player=player).number
    for n in range(200):
        game = Game.objects.get(pk=game.pk)
        legal = Table(game).legal(seat)
        if "throw" in legal:
            return
        if legal:
            services.submit_move(game.pk, player, legal[0], f"to-play-{n}", game.version)
        else:
            time.sleep(0.05)
    raise AssertionError("throwing down never offered")


def start_from_home(page, base: str, slug: str, computers: int, name: str = "Ann") -> None:
    page.goto(base + "/")
    page.click("a.playnow")
    page.check(f"input[name=game][value={slug}]")
    page.fill("#name", name)
    page.select_option("#computers", str(computers))
    page.click("form.newtable button.primary")
    page.wait_for_selector(".tablebox")


def play_by_clicking(page, max_clicks: int, seed: int = 7) -> int:
    """Click through the offered choices (a step at a time, confirming multi-part ones)
    until the final screen. Returns the clicks made."""
    rng = random.Random(seed)
    clicks = 0
    while clicks < max_clicks:
        page.wait_for_selector(f".final, {OFFERED}")
        if page.locator(".final").count():
            return clicks
        clicks += click_one(page, rng)
    raise AssertionError(f"no final screen after {max_clicks} clicks")


def play_together(pages: list, max_clicks: int, seed: int = 11, stall_seconds: float = 60) -> int:
    """Several people at one table, each in their own browser: whoever is offered choices
    clicks one, until every page shows the final screen. Returns the clicks made. Fails,
    saying what each page shows, when nobody has been offered anything for stall_seconds."""
    rng = random.Random(seed)
    clicks = 0
    last_move = time.monotonic()
    while clicks < max_clicks:
        if all(p.locator(".final").count() for p in pages):
            return clicks
        moved = False
        for page in pages:
            if click_one(page, rng):
                clicks += 1
                moved = True
        if moved:
            last_move = time.monotonic()
        elif time.monotonic() - last_move > stall_seconds:
            raise AssertionError(f"no choice on any page for {stall_seconds} s: {_stalled(pages)}")
        else:
            pages[0].wait_for_timeout(100)
    raise AssertionError(f"no final screen after {max_clicks} clicks")


def _stalled(pages: list) -> str:
    """What a stalled table looks like: each page's text, each game's state and the moves
    still pending."""
    from games.play.models import Game, Move, MoveStatus

    games = list(Game.objects.values("pk", "status", "version", "deadline"))
    pending = list(
        Move.objects.filter(status=MoveStatus.PENDING).values("game_id", "seat", "action")
    )
    seen = [p.locator("main").inner_text()[:600] for p in pages]
    return f"games={games} pending={pending} pages={seen}"


__all__ = [
    "CONFIRM",
    "OFFERED",
    "PHONE",
    "click_one",
    "play_by_clicking",
    "play_together",
    "start_from_home",
    "to_her_play",
]
