"""Felix's view and action, typed (issue 44).

The view is a ``TypedDict``: what ``view(seat)`` returns is the plain dict the front-ends,
the replays and the stored games have always read (JSON, no conversion, no cost at run
time), and mypy checks the engine that builds it and the code that reads it by key. Keys
marked ``NotRequired`` are a seat's own (absent from the public view) or the final places
(present once the game is over).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from games.engines.base import IllegalAction


class FelixView(TypedDict):
    game: str
    n_players: int
    round: int
    rounds: int
    phase: str  # "place", "auction" or "over"
    over: bool
    first: int
    to_act: list[int]
    turn: int | None
    row: list[str | None]  # face-down cards are None
    row_seats: list[int | None]  # who placed each card (None: the virtual player)
    placed: list[bool]
    stakes: list[int]
    highest_bid: int
    highest_bidder: int | None
    passed: list[bool]
    last_offer: bool
    mouse_cards: list[list[int]]
    pass_gain: int
    bank: int
    mice_out: int
    hand_counts: list[int]
    sacks: list[int]
    virtual_left: int
    discarded: list[str]
    # The places, once over (F27).
    scores: NotRequired[list[int]]
    ranks: NotRequired[list[int]]
    cat_points: NotRequired[list[int]]
    # The seat's own.
    seat: NotRequired[int]
    hand: NotRequired[list[str]]
    mice: NotRequired[int]
    score_pile: NotRequired[list[str]]
    missing: NotRequired[str]
    my_card: NotRequired[str | None]


@dataclass(frozen=True, slots=True)
class Place:
    """F9: a card of the hand, face down."""

    card: str

    def __str__(self) -> str:
        return f"place:{self.card}"


@dataclass(frozen=True, slots=True)
class Bid:
    """F12: a bid of ``mice`` mice."""

    mice: int

    def __str__(self) -> str:
        return f"bid:{self.mice}"


@dataclass(frozen=True, slots=True)
class Pass:
    """F13: out of this round's auction."""

    def __str__(self) -> str:
        return "pass"


Action = Place | Bid | Pass


def parse_action(text: str) -> Action:
    """The action ``text`` names (its wire form is ``str(action)``), or IllegalAction.
    Whether the rules allow it now is the engine's to say."""
    verb, sep, arg = text.partition(":")
    if verb == "pass" and not sep:
        return Pass()
    if verb == "place" and arg:
        return Place(arg)
    if verb == "bid" and arg.isascii() and arg.isdigit() and str(int(arg)) == arg:
        return Bid(int(arg))
    raise IllegalAction(f"Unknown action {text!r}.")
