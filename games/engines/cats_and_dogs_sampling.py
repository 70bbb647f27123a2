"""Come Cani e Gatti determinization: full states consistent with what one seat has seen.

Everything on the table is public (C11, C14: drawn food and played action cards are seen
by all); a seat does not know the others' action cards (C7) nor the order of the draw pile
(C6). The others' hands are dealt from the action deck minus its own hand and every card
played so far (from the history), by their hand sizes; the pile is the food deck minus
every food card in sight, shuffled.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from .cats_and_dogs import State
from .cats_and_dogs_data import action_deck, food_deck


def sampler(view: dict, history: Sequence[dict]) -> Callable[[random.Random], State]:
    if view["over"]:
        raise ValueError("the game is over: nothing to sample")
    me, n = view["seat"], view["n_players"]
    animals = view["animals"]
    played = Counter(ev["card"] for ev in history if ev.get("type") == "action")
    unseen_actions = Counter(action_deck()) - played - Counter(view["hand"])
    pool = sorted(unseen_actions.elements())
    sizes = view["action_cards"]
    if sum(sizes) - sizes[me] > len(pool):
        raise ValueError("the history does not account for the played action cards")
    seen_food = Counter(view["discard"])
    for animal in animals:
        seen_food.update(animal["food"])
    if view["drawn"]:
        seen_food[view["drawn"]] += 1
    pile_cards = sorted((Counter(food_deck()) - seen_food).elements())
    if len(pile_cards) != view["food_left"]:
        raise ValueError("the view's food does not add up to the deck")
    layout = [animal["id"] for animal in animals]

    def sample(rng: random.Random) -> State:
        cards = pool[:]
        rng.shuffle(cards)
        hands = []
        for s in range(n):
            if s == me:
                hands.append(list(view["hand"]))
            else:
                hands.append(cards[: sizes[s]])
                del cards[: sizes[s]]
        pile = pile_cards[:]
        rng.shuffle(pile)
        return State(
            n,
            layout[:],
            [list(a["markers"]) for a in animals],
            [list(a["food"]) for a in animals],
            pile,
            list(view["discard"]),
            hands,
            list(view["markers_left"]),
            view["turn"],
            view["phase"],
            view["drawn"],
            view["feeding"],
            view["not_on"],
            view["helpings_left"],
            view["reason"],
        )

    return sample
