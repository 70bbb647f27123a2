"""The ladder of levels built from a game's own players (issue 47; issue 14 for the first three).

Five levels, weakest first:

- ``beginner``: the heuristic with many slips (a random legal move on 55% of decisions);
- ``easy``: the heuristic with fewer slips (30%);
- ``normal``: the heuristic;
- ``strong``: the search player on a quarter of hard's playouts, or on the count its game
  measured to put strong a step above normal and below hard that a few hundred games show;
- ``hard``: the search player (``games.computers.search``) on its game's playout count:
  the strongest count measured, and never more than keeps the p95 decision time well under
  the clock cap on one free core (a game's may be below that where more played no better).

Why five and not lichess's eight: a level is worth offering only if it measurably beats the
one below (the ladder's ``beats_below``), and these games are short and noisy (a deal
decides much), so adjacent levels need a clear gap to stay apart in a few hundred games.
Below the heuristic, slips are the only knob that keeps the play human-like (the same plan,
with mistakes); above it, playouts are, and the search's strength grows with the log of
its playouts, so a share of hard's count is one step and hard itself the top: more
playouts would reach the clock cap at p95, where the clock and not the seed would decide
the move (and a review could disagree with play).

The first three names are those stored seats, leagues and the bot's buttons have always
used (``heuristic`` is the older name of ``normal``); they keep meaning the same players.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from games.engines.base import JSON

if TYPE_CHECKING:  # the package imports its strategies' modules by name, never this one
    from games.computers import Strategy
    from games.computers.search import SearchStrategy

EASY_LAPSES = 0.3  # the share of decisions an easy player gets wrong on purpose
BEGINNER_LAPSES = 0.55  # a beginner's: more than half, so it still follows a plan sometimes
STRONG_SHARE = 0.25  # strong searches this share of hard's playouts, unless its game says


class Weakened:
    """A strategy that plays a random (allowed) move instead of its own, now and then."""

    needs_history = False

    def __init__(
        self,
        strategy: Strategy,
        lapses: float = EASY_LAPSES,
        allowed: Callable[[str], bool] | None = None,
    ):
        self.strategy = strategy
        self.lapses = lapses
        self.allowed = allowed  # which moves a lapse may pick (e.g. never concede)

    def choose(
        self, view: JSON, legal: list[str], rng: random.Random, history: Sequence[JSON] = ()
    ) -> str:
        if rng.random() < self.lapses:
            pool = [a for a in legal if self.allowed(a)] if self.allowed else legal
            if pool:
                return rng.choice(pool)
        return self.strategy.choose(view, legal, rng)


def scaled(iterations: int | dict[int, int] | None, share: float) -> int | dict[int, int] | None:
    """A playout count (or a count per table size) times ``share``, at least one round's
    worth of a few candidates."""
    if iterations is None:
        return None
    if isinstance(iterations, dict):
        return {n: max(20, round(count * share)) for n, count in iterations.items()}
    return max(20, round(iterations * share))


def levels(
    heuristic: Strategy,
    search: SearchStrategy,
    allowed: Callable[[str], bool] | None = None,
    strong: int | dict[int, int] | None = None,
) -> dict[str, Strategy]:
    """A game's STRATEGIES: the ladder's levels, and "heuristic" (the name stored seats
    use) for the same object as "normal". ``allowed``: which moves a slip may pick;
    ``strong``: strong's playouts, a count or a count per table size (by default
    ``STRONG_SHARE`` of hard's)."""
    return {
        "beginner": Weakened(heuristic, BEGINNER_LAPSES, allowed),
        "easy": Weakened(heuristic, EASY_LAPSES, allowed),
        "normal": heuristic,
        "strong": search.with_budget(
            search.budget, strong or scaled(search.iterations, STRONG_SHARE)
        ),
        "hard": search,
        "heuristic": heuristic,
    }
