"""Bon Appétit's view and action, typed (issue 44).

The view is a ``TypedDict``: what ``view(seat)`` returns is the plain dict the front-ends,
the replays and the stored games have always read (JSON, no conversion, no cost at run
time), and mypy checks the engine that builds it and the code that reads it by key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from games.engines.base import IllegalAction


class Chase(TypedDict):
    """B10: a mouse's chase under way."""

    chaser: int
    flips_left: int
    mouse_owner: int | None


class BonAppetitView(TypedDict):
    """Every seat sees the same table (nobody knows the order of a face-down pile)."""

    seat: int | None
    n_players: int
    deck: str
    piles: list[int]  # each seat's face-down pile, counted
    common: list[str]  # the face-up pile, bottom first, by card name
    tokens: list[int]
    tokens_left: int
    chase: Chase | None
    to_act: list[int]
    over: bool
    end: str | None
    ranks: list[int] | None  # B14's places, once over


@dataclass(frozen=True, slots=True)
class Flip:
    """B6: the only move."""

    def __str__(self) -> str:
        return "flip"


Action = Flip
_FLIP = Flip()  # the one action: no object made per flip


def parse_action(text: str) -> Action:
    """The action ``text`` names (its wire form is ``str(action)``), or IllegalAction."""
    if text != "flip":
        raise IllegalAction(f"Unknown action {text!r}: the only move is to flip a card.")
    return _FLIP
