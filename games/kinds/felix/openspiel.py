"""This game's deals as chance steps drawn one at a time (``games.engines.deals``), for
OpenSpiel (``games.openspiel``).
"""

from __future__ import annotations

from games.engines.deals import Deal, draw, uniform

from . import engine as felix


class FelixDeal(Deal):
    """Felix: each seat's colour set loses one card unseen (F4), a uniform choice of ten;
    with 3 players the virtual pile is drawn card by card, the card left over is the one
    removed (F30); then the first player (F9)."""

    rules = felix.RULES
    max_chance_outcomes = len(felix.SET)

    def _steps(self, n: int) -> int:
        return n + (len(felix.SET) - 1 if n == 3 else 0) + 1

    def outcomes(self, n, drawn, setup):
        i = len(drawn)
        if i < n:
            return uniform(len(felix.SET))
        if n == 3 and i < n + len(felix.SET) - 1:
            return draw([1] * len(felix.SET), drawn[n:])
        if i < self._steps(n):
            return uniform(n)
        return []

    def options(self, n, deals):
        (drawn,) = deals
        cards = felix.SET
        hands = [[c for k, c in enumerate(cards) if k != drawn[s]] for s in range(n)]
        options = {"hands": hands, "first": drawn[-1]}
        if n == 3:
            options["virtual"] = [cards[k] for k in drawn[n:-1]]
        return options

    def describe(self, n, drawn, setup, outcome):
        i = len(drawn)
        if i < n:
            return f"seat {i} loses a card unseen: {felix.SET[outcome]}"
        if i == self._steps(n) - 1:
            return f"first player: seat {outcome}"
        return f"virtual pile: {felix.SET[outcome]}"

    def max_length(self, n):
        # A round: n placements, at most one bid per mouse in the game (each bid raises
        # the highest stake), n passes and the last offer.
        return felix.ROUNDS * (2 * n + felix.TOTAL_MICE + 2) + self._steps(n)


DEAL = FelixDeal()
