"""A heuristic Felix player: it values the row, bids only while the row is worth more
than the price plus what passing pays, and places its worst cards.

It sees only its seat's view (no state, no memory between calls).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

from games.engines.felix import CATS, SET, chase

# What a card is worth to the buyer of its row, for choosing what to place: the small dog
# usually removes a negative cat, the big dog usually the best cat.
PLACE_VALUE = {**CATS, "R": 0, "d": 4, "D": -7}


@lru_cache(maxsize=4096)
def row_value(known: tuple[str, ...], unknown: int) -> float:
    """Expected cat points of a row with ``known`` cards and ``unknown`` face-down ones,
    each drawn uniformly from a colour set (dogs applied as the rules say)."""
    total = weight = 0.0
    for drawn in combinations_with_replacement(SET, unknown):
        # Multinomial weight of this multiset among the ordered draws.
        w = factorial(unknown)
        for card in set(drawn):
            w //= factorial(drawn.count(card))
        kept, _, _ = chase([*known, *drawn])
        total += w * sum(CATS.get(card, 0) for card in kept)
        weight += w
    return total / weight


class FelixHeuristic:
    needs_history = False

    def choose(
        self, view: dict, legal: list[str], rng: random.Random, history: Sequence[dict] = ()
    ) -> str:
        if legal[0].startswith("place:"):
            return self.place(view, legal)
        return self.bid_or_pass(view, legal)

    def place(self, view: dict, legal: list[str]) -> str:
        # Feed the row my worst card: most rows are bought by someone else, and knowing
        # my own card keeps me from overpaying for a row I spoiled. (Keeping good cards
        # for rows I expect to buy tested worse: the buyer is rarely who you expect.)
        cards = sorted((a[6:] for a in legal), key=PLACE_VALUE.__getitem__)
        return f"place:{cards[0]}"

    def bid_or_pass(self, view: dict, legal: list[str]) -> str:
        if legal[0] == "pass":  # nothing to top the highest bid with
            return "pass"
        # Bids are listed lowest first: only ever raise by the minimum.
        price = int(legal[0][4:])
        # Buying must beat passing, which pays the next loaded mouse card now (and
        # nothing after everyone else passed: F23's 1-mouse offer).
        if self.value(view) - price > view["pass_gain"]:
            return legal[0]
        return "pass"

    def value(self, view: dict) -> float:
        row = view["row"]
        known = [card for card in row if card is not None]
        unknown = len(row) - len(known)
        mine = view.get("my_card")
        if mine is not None and row[view["row_seats"].index(view["seat"])] is None:
            known.append(mine)  # my own face-down card is no secret to me
            unknown -= 1
        return row_value(tuple(sorted(known)), unknown)


HEURISTIC = FelixHeuristic()
STRATEGIES = {"heuristic": HEURISTIC}
