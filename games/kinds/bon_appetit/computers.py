"""Computer player for Bon Appétit!.

There are no decisions in this game (B15): the only legal action is ever "flip", so the
heuristic player simply flips. It cannot play better than a random player, and the arena
shows equal win rates, which is the honest result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engines.base import JSON


class FlipStrategy:
    """Turns up the top card: the one thing a Bon Appétit! player can do."""

    needs_history = False

    def choose(
        self, view: JSON, legal: list[str], rng: random.Random, history: Sequence[JSON] = ()
    ) -> str:
        return "flip" if "flip" in legal else legal[0]


HEURISTIC = FlipStrategy()
STRATEGIES = {"heuristic": HEURISTIC}
