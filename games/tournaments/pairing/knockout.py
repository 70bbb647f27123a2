"""Knockout rounds (issue 26: "tables of the game's size, the top k of each table go on").

- **Seeding**: the players who go on keep their seed (their place in the entry list, e.g.
  by rating). A round deals them to tables in a snake (seeds 1..T to tables 1..T, then
  T+1..2T back from table T to 1, ...), so the best and the worst are spread across the
  tables and no table gathers the favourites.
- **Byes**: when the field does not divide by the table size, the remainder's best seeds
  go on without playing (the reward for a good seed, as in tennis draws).
- **Going on**: the top ``go_on`` places of each table; on a tie at the cut, the better
  seed. A round of at most ``table_size`` players is the final: one table.

A field that does not divide may leave a final short of a full table (a game for 3 to 5
with 5 players: a bye and a table of 4 whose top 2 go on, a final of 3). For a game played
by one size only (4, say), the organiser picks a field that divides (16, 64...);
``Knockout`` says so by raising when a round would seat a table the game cannot play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.tournaments.pairing.results import Player, TableResult


@dataclass(frozen=True)
class KnockoutRound:
    number: int  # 1 for the first round
    tables: tuple[tuple[Player, ...], ...]
    byes: tuple[Player, ...] = ()

    @property
    def final(self) -> bool:
        return len(self.tables) == 1 and not self.byes


@dataclass(frozen=True)
class Knockout:
    seeds: tuple[Player, ...]  # the entries, best first
    table_size: int
    go_on: int  # how many of each table play the next round
    min_size: int = 2  # the smallest table the game allows

    def __post_init__(self) -> None:
        if not 1 <= self.go_on < self.table_size:
            raise ValueError("go_on must leave someone out of each table")

    def first_round(self) -> KnockoutRound:
        return self.round_of(self.seeds, 1)

    def round_of(self, field: Sequence[Player], number: int) -> KnockoutRound:
        seed = {p: i for i, p in enumerate(self.seeds)}
        field = sorted(field, key=seed.__getitem__)
        if len(field) <= self.table_size:
            tables, byes = [field], []
        else:
            n_byes = len(field) % self.table_size
            byes, playing = field[:n_byes], field[n_byes:]
            tables = snake(playing, len(playing) // self.table_size)
        for table in tables:
            if len(table) < self.min_size:
                raise ValueError(f"a table of {len(table)} cannot be played")
        return KnockoutRound(number, tuple(tuple(t) for t in tables), tuple(byes))

    def advance(self, round_: KnockoutRound, results: Sequence[TableResult]) -> KnockoutRound:
        """The next round from this round's results (one per table, in any order)."""
        if round_.final:
            raise ValueError("the final has no next round")
        by_table = {frozenset(r.players): r for r in results}
        seed = {p: i for i, p in enumerate(self.seeds)}
        field = list(round_.byes)
        for table in round_.tables:
            result = by_table.get(frozenset(table))
            if result is None:
                raise ValueError(f"no result for the table {table}")
            places = sorted(result.players, key=lambda p: (result.rank_of(p), seed[p]))
            field.extend(places[: self.go_on])
        return self.round_of(field, round_.number + 1)


def snake(players: Sequence[Player], n_tables: int) -> list[list[Player]]:
    """Deal players (best first) to tables in a snake: 1..T, T..1, 1..T..."""
    tables: list[list[Player]] = [[] for _ in range(n_tables)]
    for i, player in enumerate(players):
        lap, pos = divmod(i, n_tables)
        tables[pos if lap % 2 == 0 else n_tables - 1 - pos].append(player)
    return tables
