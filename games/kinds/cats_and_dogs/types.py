"""Come Cani e Gatti's view and action, typed (issue 44).

The view is a ``TypedDict``: what ``view(seat)`` returns is the plain dict the front-ends,
the replays and the stored games have always read (JSON, no conversion, no cost at run
time), and mypy checks the engine that builds it and the code that reads it by key. Keys
marked ``NotRequired`` are a seat's own (absent from the public view) or the final places
(present once the game is over).

An action is a verb and its targets in the order the wire form writes them: an animal's
position (``a``), a seat (``s``), a food card's code (``c``); ``SHAPES`` says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict, cast

from games.engines.base import IllegalAction


class AnimalView(TypedDict):
    id: int
    kind: str  # "dog" or "cat"
    name: str
    squares: int
    markers: list[int]  # the seats of its markers
    food: list[str]  # the food cards on it
    sated: bool
    score: int


class CatsAndDogsView(TypedDict):
    game: str
    n_players: int
    animals: list[AnimalView]
    food_left: int
    drawn: str | None
    discard: list[str]
    markers_left: list[int]
    action_cards: list[int]  # each seat's hand, counted
    scores: list[int]
    turn: int
    to_act: list[int]
    phase: str
    feeding: int | None
    not_on: int | None
    helpings_left: int
    over: bool
    reason: str | None
    # The places, once over (C19).
    ranks: NotRequired[list[int]]
    # The seat's own.
    seat: NotRequired[int]
    hand: NotRequired[list[str]]


Verb = Literal[
    "mark", "draw", "feed", "more", "stop", "helping", "shoo", "wander", "switch", "snatch",
    "bowl", "trade", "swap", "clean",
]  # fmt: skip
# Each verb's targets, in wire order: a = an animal's position, s = a seat, c = a food code.
SHAPES: dict[str, str] = {
    "mark": "a", "draw": "", "feed": "a", "more": "", "stop": "", "helping": "",
    "shoo": "as", "wander": "aa", "switch": "aas", "snatch": "ac", "bowl": "aca",
    "trade": "acac", "swap": "aa", "clean": "a",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Action:
    verb: Verb
    targets: tuple[int | str, ...] = ()

    def __str__(self) -> str:
        return ":".join((self.verb, *map(str, self.targets)))

    @property
    def animal(self) -> int | None:
        """The first animal it names (the one acted on), if any."""
        first = self.targets[0] if self.targets else None
        return first if isinstance(first, int) else None


def _number(token: str) -> int | None:
    return int(token) if token.isascii() and token.isdigit() and str(int(token)) == token else None


def parse_action(text: str) -> Action:
    """The action ``text`` names (its wire form is ``str(action)``), or IllegalAction.
    Whether the rules allow it now is the engine's to say."""
    verb, *tokens = text.split(":")
    shape = SHAPES.get(verb)
    if shape is None or len(tokens) != len(shape):
        raise IllegalAction(f"Unknown action {text[:40]!r}.")
    targets: list[int | str] = []
    for kind, token in zip(shape, tokens, strict=True):
        number = _number(token)
        if kind == "c":
            if not token or number is not None:
                raise IllegalAction(f"Unknown action {text[:40]!r}.")
            targets.append(token)
        elif number is None:
            raise IllegalAction(f"Unknown action {text[:40]!r}.")
        else:
            targets.append(number)
    return Action(cast(Verb, verb), tuple(targets))
