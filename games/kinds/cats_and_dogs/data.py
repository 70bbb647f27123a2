"""Card data for Come Cani e Gatti, the one place to correct it.

Our rule source lists neither the marker squares per animal nor the action cards, so the
tables below hold the **Interpretations** of the rules file (C1, C20). A corrected card
list changes these tables only; the engine reads nothing else.
"""

from __future__ import annotations

from typing import NamedTuple


class Animal(NamedTuple):
    kind: str  # "dog" or "cat"
    name: str
    squares: int  # how many markers fit on the card


class ActionCard(NamedTuple):
    code: str  # also the first token of the card's action strings
    name: str
    text: str


# C1 (Interpretation): 9 dogs and 9 cats; per species 3 animals with 1 square, 3 with 2
# and 3 with 3. An animal's id is its row here. Clarence is the rule book's example cat;
# the example puts three markers on him (two red, one yellow), so he has 3 squares.
ANIMALS: tuple[Animal, ...] = (
    Animal("dog", "Rex", 1),
    Animal("dog", "Fido", 1),
    Animal("dog", "Bruno", 1),
    Animal("dog", "Lassie", 2),
    Animal("dog", "Buddy", 2),
    Animal("dog", "Rocky", 2),
    Animal("dog", "Max", 3),
    Animal("dog", "Bella", 3),
    Animal("dog", "Toby", 3),
    Animal("cat", "Tigger", 1),
    Animal("cat", "Mittens", 1),
    Animal("cat", "Cleo", 1),
    Animal("cat", "Luna", 2),
    Animal("cat", "Oliver", 2),
    Animal("cat", "Smokey", 2),
    Animal("cat", "Clarence", 3),
    Animal("cat", "Simba", 3),
    Animal("cat", "Briciola", 3),
)

# What each species likes (C17): a dog scores bones, a cat scores fish.
FAVOURITE = {"dog": "b", "cat": "f"}

# C2: food card codes are the kind ("b" bone, "f" fish) and the value, e.g. "b3", "f5".
FOOD_KINDS = {"b": "bone", "f": "fish"}
FOOD_COPIES = {1: 4, 2: 5, 3: 6, 4: 5, 5: 4, 6: 3}  # value -> copies, per kind

# C3, C20 (Interpretation): nine types, two copies each.
ACTION_COPIES = 2
ACTION_CARDS: tuple[ActionCard, ...] = (
    ActionCard("shoo", "Shoo", "Remove any one marker from an animal; it returns to its owner."),
    ActionCard("wander", "Wander", "Move one of your markers to a free square of another animal."),
    ActionCard(
        "switch",
        "Switch seats",
        "Swap one of your markers with another player's marker on a different animal.",
    ),
    ActionCard("snatch", "Snatch", "Remove one food card from an animal and discard it."),
    ActionCard("bowl", "Pass the bowl", "Move one food card from one animal to another."),
    ActionCard(
        "trade", "Trade a bite", "Swap one food card of one animal with one of another animal."
    ),
    ActionCard("swap", "Swap dinners", "Swap all food cards between two animals."),
    ActionCard("clean", "Clean the bowl", "Discard all food cards of one animal."),
    ActionCard("helping", "Second helping", "Feed twice this turn, on two different animals."),
)

MARKERS_PER_PLAYER = 6  # C4
HAND_SIZE = 3  # C7
SATED = 5  # C15: food cards that make an animal sated
TURN_LIMIT = 4  # C13: a feeding stops once its animal holds this many cards


def food_deck() -> list[str]:
    """The 54 food cards (C2) in a fixed order, before shuffling."""
    return [
        f"{kind}{value}"
        for kind in FOOD_KINDS
        for value, copies in FOOD_COPIES.items()
        for _ in range(copies)
    ]


def action_deck() -> list[str]:
    """The 18 action cards (C3) in a fixed order, before shuffling."""
    return [card.code for card in ACTION_CARDS for _ in range(ACTION_COPIES)]
