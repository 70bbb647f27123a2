"""What a table's result is, and how many points a place is worth (issue 26: "points per
place").

Swiss tables of one round may differ in size (tables of 3 beside tables of 4 when the count
does not divide), so a place is scaled by its table: first place is worth ``TOP_POINTS``
and last place 0 at every size, linear between. 60 is divisible by 1..6, so every place
at tables of 2 to 7 players is a whole number (a table of 4 gives 60, 40, 20, 0; a table
of 3 gives 60, 30, 0). A shared place shares the better place's points, as the engines'
ranks do (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

Player = Hashable

TOP_POINTS = 60


@dataclass(frozen=True)
class TableResult:
    """One finished table: its players in seat order and each seat's rank (1 is first;
    ties share the better rank, as ``games.engines.ranks_from`` gives them)."""

    players: tuple[Player, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.players) != len(self.ranks):
            raise ValueError("one rank per player")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player sits once at a table")

    def opponents(self, player: Player) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p != player)

    def rank_of(self, player: Player) -> int:
        return self.ranks[self.players.index(player)]


@dataclass(frozen=True)
class RoundResult:
    """One Swiss round: its finished tables and the players who had a bye."""

    tables: tuple[TableResult, ...]
    byes: tuple[Player, ...] = ()


def place_points(rank: int, table_size: int, top: int = TOP_POINTS) -> int:
    """Points for a place, scaled by the table's size: ``top`` for first, 0 for last."""
    if table_size < 2:
        return top
    return top * (table_size - rank) // (table_size - 1)


def count_repeats(tables: Sequence[Sequence[Player]], met: dict) -> int:
    """How many pairs seated together already met (``met``: player -> past opponents)."""
    repeats = 0
    for table in tables:
        for i, a in enumerate(table):
            seen = met.get(a, ())
            repeats += sum(1 for b in table[i + 1 :] if b in seen)
    return repeats
