"""This game's deals as chance steps drawn one at a time (``games.engines.deals``), for
OpenSpiel (``games.openspiel``).
"""

from __future__ import annotations

from games.engines.deals import Deal, draw, kinds, uniform

from . import engine as bon_appetit


class BonAppetitDeal(Deal):
    """Bon Appétit!: the starting player (B5), then the deck's cards one at a time by kind
    (five kinds); the last card drawn goes face up in the middle, the others are dealt
    round from the first player (B4), as the engine deals a shuffled deck."""

    rules = bon_appetit.RULES
    actions = (bon_appetit.FLIP,)

    def __init__(self):
        self.max_chance_outcomes = max(len(bon_appetit.CARD_NAMES), bon_appetit.RULES.max_players)

    def _deck(self, n: int) -> tuple[list[str], list[int]]:
        return kinds(bon_appetit.deck_cards(bon_appetit.DEFAULT_DECK[n]))

    def outcomes(self, n, drawn, setup):
        if not drawn:
            return uniform(n)
        counts = self._deck(n)[1]
        if len(drawn) - 1 < sum(counts):
            return draw(counts, drawn[1:])
        return []

    def options(self, n, deals):
        (drawn,) = deals
        first = drawn[0]
        names, _ = self._deck(n)
        cards = [bon_appetit.CARD_NAMES[names[k]] for k in drawn[1:]]
        center = cards.pop()
        return {
            "first": first,
            "deck": bon_appetit.DEFAULT_DECK[n],
            "piles": [cards[(i - first) % n :: n] for i in range(n)],
            "center": center,
        }

    def describe(self, n, drawn, setup, outcome):
        if not drawn:
            return f"first player: seat {outcome}"
        return f"card: {bon_appetit.CARD_NAMES[self._deck(n)[0][outcome]]}"

    def max_length(self, n):
        return bon_appetit.MAX_FLIPS + 1 + sum(self._deck(n)[1])


DEAL = BonAppetitDeal()
