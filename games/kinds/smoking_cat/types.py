"""Smoking Cat's view and action, typed (issue 44).

The view is a ``TypedDict``: what ``view(seat)`` returns is the plain dict the front-ends,
the replays and the stored games have always read (JSON, no conversion, no cost at run
time), and mypy checks the engine that builds it and the code that reads it by key. Keys
marked ``NotRequired`` are a seat's own (absent from the public view) or the final places
(present once the match is over).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from games.engines.base import IllegalAction


class DealSummary(TypedDict):
    """The last deal's result, which the table shows until the next one ends (S13)."""

    deal: int
    points: list[int]
    losers: list[int]
    reason: str
    taken_ober: int | None


class SmokingCatView(TypedDict):
    deal: int
    dealer: int
    word: str
    letters: list[str]
    points: list[int]
    trick: list[list[int | str]]  # [seat, card code] in play order
    last_trick: list[list[int | str]]
    taken_ober: int | None
    phase: str
    to_act: list[int]
    turn: int | None
    hand_sizes: list[int]
    passed: list[bool]
    lead_suit: str | None
    previous: DealSummary | None
    # The places, once over (S16).
    scores: NotRequired[list[int]]
    ranks: NotRequired[list[int]]
    losers: NotRequired[list[int]]
    # The seat's own.
    seat: NotRequired[int]
    hand: NotRequired[list[str]]
    passed_cards: NotRequired[list[str]]
    received: NotRequired[list[str] | None]


@dataclass(frozen=True, slots=True)
class Play:
    """S8: a card into the trick."""

    card: str

    def __str__(self) -> str:
        return f"play:{self.card}"


@dataclass(frozen=True, slots=True)
class Throw:
    """S12: the hand thrown down."""

    def __str__(self) -> str:
        return "throw"


@dataclass(frozen=True, slots=True)
class PassCards:
    """S6: a card chosen to pass (or, in older move logs, all three at once)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "pass:" + ",".join(self.cards)


Action = Play | Throw | PassCards


def parse_action(text: str) -> Action:
    """The action ``text`` names (its wire form is ``str(action)``), or IllegalAction.
    Whether the rules allow it now, and whether the cards exist, is the engine's to say."""
    verb, sep, rest = text.partition(":")
    if verb == "throw" and not sep:
        return Throw()
    if verb == "play" and rest:
        return Play(rest)
    if verb == "pass" and rest:
        return PassCards(tuple(rest.split(",")))
    raise IllegalAction(f"Unknown action {text[:40]!r}.")
