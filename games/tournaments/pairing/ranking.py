"""A Swiss tournament's standings, with the tie-breaks announced before it starts (issue 26:
"tie-breaks announced in advance, e.g. opponents' scores").

Players are ordered by points, then by each announced tie-break in turn:

- ``buchholz``: the sum of the points of every opponent met at a table, once per meeting
  (a strong field played counts); a bye meets nobody, so it adds nothing;
- ``wins``: the number of first places (a shared first place counts as a win);
- ``coin``: a coin tossed from the tournament's seed and the player, always last, so the
  order is total and the same every time it is computed (no hidden order of arrival).

``Standing`` carries every value it was ordered by, so a page can show why Anna is above
Bruno.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.tournaments.pairing.results import Player, RoundResult, place_points

TIEBREAKS = ("buchholz", "wins", "coin")
DEFAULT_TIEBREAKS = ("buchholz", "wins")


@dataclass(frozen=True)
class Standing:
    rank: int  # 1..n, never shared: the coin settles what the tie-breaks do not
    player: Player
    points: int
    buchholz: int
    wins: int
    coin: float
    tiebreaks: tuple[tuple[str, float], ...]  # the announced order, with each value

    @property
    def key(self) -> tuple:
        return (self.points, *(value for _, value in self.tiebreaks))


def coin(seed: int, player: Player) -> float:
    """A fair coin in [0, 1) from the seed and the player: stable across processes (the
    hash of a string would change with PYTHONHASHSEED)."""
    digest = hashlib.sha256(f"{seed}:{player!r}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def points_of(results: Sequence[RoundResult], bye_points: int) -> dict[Player, int]:
    points: dict[Player, int] = defaultdict(int)
    for round_ in results:
        for table in round_.tables:
            for player, rank in zip(table.players, table.ranks, strict=True):
                points[player] += place_points(rank, len(table.players))
        for player in round_.byes:
            points[player] += bye_points
    return points


def standings(
    results: Sequence[RoundResult],
    *,
    players: Iterable[Player] = (),
    bye_points: int,
    seed: int,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Standing]:
    """Everyone who played, had a bye or is in ``players``, best first."""
    unknown = set(tiebreaks) - set(TIEBREAKS)
    if unknown:
        raise ValueError(f"unknown tie-breaks: {sorted(unknown)}")
    order = [name for name in tiebreaks if name != "coin"] + ["coin"]
    points = points_of(results, bye_points)
    everyone = dict.fromkeys(players)
    buchholz: dict[Player, int] = defaultdict(int)
    wins: dict[Player, int] = defaultdict(int)
    for round_ in results:
        everyone.update(dict.fromkeys(round_.byes))
        for table in round_.tables:
            everyone.update(dict.fromkeys(table.players))
            for player, rank in zip(table.players, table.ranks, strict=True):
                buchholz[player] += sum(points[o] for o in table.opponents(player))
                wins[player] += rank == 1
    rows = []
    for player in everyone:
        values = {
            "buchholz": buchholz[player],
            "wins": wins[player],
            "coin": coin(seed, player),
        }
        rows.append((player, tuple((name, values[name]) for name in order), values))
    rows.sort(key=lambda row: (points[row[0]], *(v for _, v in row[1])), reverse=True)
    return [
        Standing(
            rank=i + 1,
            player=player,
            points=points[player],
            buchholz=buchholz[player],
            wins=wins[player],
            coin=values["coin"],
            tiebreaks=announced,
        )
        for i, (player, announced, values) in enumerate(rows)
    ]
