"""Difficulty levels built from a game's own players.

``easy`` is the game's heuristic with lapses: now and then it plays a random legal move
instead (a beginner's mistakes, not a different plan); ``normal`` is the heuristic;
``hard`` is the search player (``games.computers.search``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from games.engines.base import JSON

if TYPE_CHECKING:  # the package imports its strategies' modules by name, never this one
    from games.computers import Strategy

EASY_LAPSES = 0.3  # the share of decisions an easy player gets wrong on purpose


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


def levels(heuristic: Strategy, search: Strategy) -> dict[str, Strategy]:
    """A game's STRATEGIES: the three levels, and "heuristic" (the name stored seats use)
    for the same object as "normal"."""
    return {
        "easy": Weakened(heuristic),
        "normal": heuristic,
        "hard": search,
        "heuristic": heuristic,
    }
