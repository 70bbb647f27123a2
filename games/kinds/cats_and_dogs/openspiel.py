"""This game's deals as chance steps drawn one at a time (``games.engines.deals``), for
OpenSpiel (``games.openspiel``).
"""

from __future__ import annotations

from games.engines.deals import Deal, draw, kinds, uniform

from . import engine as cats_and_dogs
from .data import ANIMALS, HAND_SIZE, action_deck, food_deck


class CatsAndDogsDeal(Deal):
    """Come Cani e Gatti: the 2n animals of the layout one at a time (C5), the food pile
    card by card by kind, top first (C6), three action cards per seat by kind (C7), then
    the first player (C8)."""

    rules = cats_and_dogs.RULES
    max_chance_outcomes = max(len(ANIMALS), len(set(food_deck())), len(set(action_deck())))

    FOOD = kinds(food_deck())
    HANDS = kinds(action_deck())

    def _parts(self, n: int) -> tuple[int, int, int]:
        return 2 * n, len(food_deck()), n * HAND_SIZE

    def outcomes(self, n, drawn, setup):
        layout, food, hands = self._parts(n)
        i = len(drawn)
        if i < layout:
            return draw([1] * len(ANIMALS), drawn)
        if i < layout + food:
            return draw(self.FOOD[1], drawn[layout:])
        if i < layout + food + hands:
            return draw(self.HANDS[1], drawn[layout + food :])
        if i == layout + food + hands:
            return uniform(n)
        return []

    def options(self, n, deals):
        (drawn,) = deals
        layout, food, hands = self._parts(n)
        cards = [self.HANDS[0][k] for k in drawn[layout + food : layout + food + hands]]
        size = HAND_SIZE
        return {
            "layout": list(drawn[:layout]),
            "food": [self.FOOD[0][k] for k in drawn[layout : layout + food]],
            "hands": [cards[s * size : (s + 1) * size] for s in range(n)],
            "first": drawn[-1],
        }

    def describe(self, n, drawn, setup, outcome):
        layout, food, hands = self._parts(n)
        i = len(drawn)
        if i < layout:
            return f"animal: {ANIMALS[outcome].name}"
        if i < layout + food:
            return f"food: {self.FOOD[0][outcome]}"
        if i < layout + food + hands:
            return f"action card: {self.HANDS[0][outcome]}"
        return f"first player: seat {outcome}"

    def max_length(self, n):
        layout, food, hands = self._parts(n)
        # A turn either draws food or plays one of the action cards; it is at most a
        # marker, a draw and two steps per food card (feed, then more or stop), twice
        # for a Second helping.
        turns = food + hands
        return turns * 3 + food * 2 + hands * 4 + layout + food + hands + 1


DEAL = CatsAndDogsDeal()
