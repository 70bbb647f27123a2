"""The games' chance events as OpenSpiel chance nodes, and each game's integer actions.

Our engines shuffle from a seed inside ``setup`` (Smoking Cat also at every new deal), so
the randomness never shows as a step of its own. OpenSpiel wants it as chance nodes with
explicit outcome probabilities. A whole shuffle is far too many outcomes to enumerate
(32! orders of a Smoking Cat deck), so a deal is drawn **one card at a time**: each chance
node picks the next card among those left, with probability proportional to how many of
it are left. Identical cards (Bon Appétit's cheeses, Come Cani e Gatti's food) are one
outcome with their count as weight, so a node has at most a few dozen outcomes. Drawing
without replacement card by card gives every order of the deck exactly the probability of
a uniform shuffle, so the chance model is the engines' own distribution.

The finished draws become the engine's stacked-table options (``hands``, ``decks``,
``piles``, ``layout``...) and the engine sets the table up from them, seed unused: the
engine stays the only place where the rules live.

A ``Deal`` knows nothing of OpenSpiel (so it is tested and read without it): it lists the
outcomes of the next draw, turns complete draws into options, and bounds a game's length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.engines.base import Rules
from games.kinds.bon_appetit import engine as bon_appetit
from games.kinds.cats_and_dogs import engine as cats_and_dogs
from games.kinds.cats_and_dogs.data import ANIMALS, HAND_SIZE, action_deck, food_deck
from games.kinds.felix import engine as felix
from games.kinds.smoking_cat import engine as smoking_cat

Outcomes = list[tuple[int, float]]


def uniform(k: int) -> Outcomes:
    return [(i, 1.0 / k) for i in range(k)]


def draw(counts: Sequence[int], drawn: Sequence[int]) -> Outcomes:
    """The next card from a deck holding ``counts[k]`` cards of kind k, after ``drawn``."""
    left = list(counts)
    for kind in drawn:
        left[kind] -= 1
    total = sum(left)
    return [(kind, count / total) for kind, count in enumerate(left) if count]


def kinds(cards: Sequence[str]) -> tuple[list[str], list[int]]:
    """A deck's distinct cards (in first-seen order) and how many of each it holds."""
    counts = Counter(cards)
    names = list(counts)
    return names, [counts[name] for name in names]


class Deal:
    """One game's chance model and action space (see the module docstring)."""

    rules: Rules  # each game's deal names its engine's
    max_chance_outcomes = 0
    # Engines without an integer action space list their actions here (ids are indices).
    actions: tuple[str, ...] = ()

    @property
    def n_actions(self) -> int:
        return self.rules.n_actions or len(self.actions)

    def legal_ids(self, state, seat: int) -> list[int]:
        if self.rules.n_actions:
            return sorted(self.rules.legal_ids(state, seat))
        return sorted(self.actions.index(a) for a in self.rules.legal_actions(state, seat))

    def action_str(self, action: int) -> str:
        return self.rules.action_str(action) if self.rules.n_actions else self.actions[action]

    def outcomes(self, n: int, drawn: Sequence[int], setup: bool) -> Outcomes:
        """The next chance node's outcomes, or [] once ``drawn`` is a complete deal;
        ``setup``: the deal that sets the table up (else a later one, Smoking Cat's)."""
        raise NotImplementedError

    def options(self, n: int, deals: Sequence[Sequence[int]]) -> dict:
        """The engine's set-up options that stack the table as ``deals`` drew it."""
        raise NotImplementedError

    def dealt(self, before, after) -> bool:
        """Whether an action just made the engine deal again from its own seed (the
        OpenSpiel state then undoes it and deals with chance nodes instead)."""
        return False

    def redeal(self, state, deal: Sequence[int]):
        """``state`` (just before the action that deals) with ``deal`` stacked for it."""
        raise NotImplementedError

    def describe(self, n: int, drawn: Sequence[int], setup: bool, outcome: int) -> str:
        return f"chance:{outcome}"

    def max_length(self, n: int) -> int:
        """A bound on the number of actions of a game, chance nodes included."""
        raise NotImplementedError


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


class SmokingCatDeal(Deal):
    """Smoking Cat: the first dealer (S4), then every deal's 32 cards one at a time
    (card i goes to seat dealer + 1 + i, S5). A deal is drawn when the game reaches it:
    the action that ends a deal is held back while the next deck is drawn, then applied
    with that deck stacked, so no deal is drawn that the match never plays."""

    rules = smoking_cat.RULES
    max_chance_outcomes = smoking_cat.N_CARDS

    def outcomes(self, n, drawn, setup):
        cards = drawn[1:] if setup else drawn
        if setup and not drawn:
            return uniform(smoking_cat.N_SEATS)
        if len(cards) < smoking_cat.N_CARDS:
            return draw([1] * smoking_cat.N_CARDS, cards)
        return []

    def options(self, n, deals):
        decks = [deals[0][1:], *deals[1:]]
        return {
            "dealer": deals[0][0],
            "decks": [[smoking_cat.CODES[c] for c in deck] for deck in decks],
        }

    def dealt(self, before, after):
        return after.deal != before.deal and after.phase != smoking_cat.OVER

    def redeal(self, state, deal):
        data = self.rules.dump(state)
        data["decks"] = [smoking_cat.pack_deck(list(deal))]
        return self.rules.load(data)

    def describe(self, n, drawn, setup, outcome):
        if setup and not drawn:
            return f"dealer: seat {outcome}"
        return f"deal: {smoking_cat.CODES[outcome]}"

    def max_length(self, n):
        # Every deal gives at least one letter; the 17th letter spells GATTO for someone.
        deals = smoking_cat.N_SEATS * (len(smoking_cat.DEFAULT_WORD) - 1) + 1
        per_deal = smoking_cat.N_CARDS * 2 + smoking_cat.N_SEATS * smoking_cat.PASS_SIZE
        return 1 + deals * per_deal


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


DEALS: dict[str, Deal] = {
    "felix": FelixDeal(),
    "smoking_cat": SmokingCatDeal(),
    "bon_appetit": BonAppetitDeal(),
    "cats_and_dogs": CatsAndDogsDeal(),
}
