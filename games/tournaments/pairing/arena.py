"""The arena's lobby (issue 26: "a time window; a player who finishes is seated again as
soon as enough players wait; points per place with a streak bonus; a 'pause' button").

``Arena`` is a pure object fed with what happens (a player joins, pauses, a table
finishes) and asked for tables (``seat(now)``); the caller owns the clock, the games and
the storage. Its promises:

- **As soon as enough wait**: ``seat`` forms tables while ``size`` players wait, and a
  smaller table (down to ``min_size``) once the longest waiter has waited
  ``rules.wait_seconds``. No table is formed at or after ``closes_at``; a game started
  before then counts when it finishes (players are not punished for a long last game).
- **Fairness**: the longest waiter always sits at the next table, and its other seats go
  to the longest waiters too, except that a table may skip a waiter to avoid seating
  players together again who were at the same table last time. A waiter is skipped at
  most once: the next table formed takes everyone who was skipped (the look-ahead is
  short enough, ``min_size - 1`` past a table's seats, that they always fit). So nobody
  waits more than one game longer than the order of arrival would give them.
- **Points**: per place, ``table size - place`` (a table of 4: 3, 2, 1, 0), doubled while
  a player is on a streak: after ``rules.streak_wins`` wins in a row, as on lichess, the
  points of every game are doubled until a game that is not a win (which still counts
  double, then ends the streak). A win is a first place, shared or not.
- **Pause**: a paused player leaves the pool (or, mid-game, is not returned to it when
  the game ends) and keeps their points and streak; ``join`` brings them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from games.tournaments.pairing.results import Player, TableResult


@dataclass(frozen=True)
class ArenaRules:
    streak_wins: int = 2  # wins in a row after which points double
    streak_factor: int = 2
    wait_seconds: float = 60.0  # the longest wait before a smaller table is formed
    closes_at: float | None = None  # the end of the time window (the caller's clock)


def arena_points(rank: int, table_size: int) -> int:
    """An arena's points for a place, before the streak: ``table size - place``, unlike the
    Swiss scale of ``results.place_points``."""
    return table_size - rank


@dataclass
class _Waiter:
    player: Player
    since: float
    order: int  # arrival order, to break ties between equal times
    skipped: bool = False


class Arena:
    def __init__(self, size: int, min_size: int | None = None, rules: ArenaRules | None = None):
        self.size = size
        self.min_size = min_size or size
        if not 2 <= self.min_size <= self.size:
            raise ValueError("need 2 <= min_size <= size")
        self.rules = rules or ArenaRules()
        self._pool: dict[Player, _Waiter] = {}
        self._playing: set[Player] = set()
        self._paused: set[Player] = set()
        self._last_table: dict[Player, frozenset] = {}
        self._points: dict[Player, int] = {}
        self._streak: dict[Player, int] = {}
        self._games: dict[Player, int] = {}
        self._arrivals = 0

    # -- what happens ----------------------------------------------------------------------

    def join(self, player: Player, now: float) -> None:
        """A player enters the arena, or comes back from a pause."""
        self._paused.discard(player)
        self._points.setdefault(player, 0)
        if player not in self._playing and player not in self._pool:
            self._enter(player, now)

    def pause(self, player: Player) -> None:
        self._paused.add(player)
        self._pool.pop(player, None)

    def finished(self, result: TableResult, now: float) -> dict[Player, int]:
        """Score a finished table and return its players to the pool; the points each won."""
        won = {}
        n = len(result.players)
        for player, rank in zip(result.players, result.ranks, strict=True):
            streak = self._streak.get(player, 0)
            points = arena_points(rank, n)
            if streak >= self.rules.streak_wins:
                points *= self.rules.streak_factor
            self._streak[player] = streak + 1 if rank == 1 else 0
            self._points[player] = self._points.get(player, 0) + points
            self._games[player] = self._games.get(player, 0) + 1
            self._last_table[player] = frozenset(result.players) - {player}
            self._playing.discard(player)
            won[player] = points
            if player not in self._paused:
                self._enter(player, now)
        return won

    def seat(self, now: float) -> list[list[Player]]:
        """The tables to start now (possibly none); their players leave the pool."""
        if self.rules.closes_at is not None and now >= self.rules.closes_at:
            return []
        tables: list[list[Player]] = []
        while True:
            queue = self.waiting()
            if len(queue) >= self.size:
                size = self.size
            elif len(queue) >= self.min_size and (
                now - self._pool[queue[0]].since >= self.rules.wait_seconds
            ):
                size = len(queue)
            else:
                return tables
            table = self._choose(queue, size)
            chosen = set(table)
            last = max(queue.index(p) for p in table)
            for p in queue[:last]:
                if p not in chosen:
                    self._pool[p].skipped = True
            for p in table:
                del self._pool[p]
                self._playing.add(p)
            tables.append(table)

    # -- what it says ----------------------------------------------------------------------

    def waiting(self) -> list[Player]:
        """The pool, longest waiter first."""
        return [w.player for w in sorted(self._pool.values(), key=lambda w: (w.since, w.order))]

    def scores(self) -> dict[Player, int]:
        return dict(self._points)

    def on_streak(self, player: Player) -> bool:
        return self._streak.get(player, 0) >= self.rules.streak_wins

    def games(self, player: Player) -> int:
        return self._games.get(player, 0)

    # -- keeping it between calls ----------------------------------------------------------

    def snapshot(self) -> dict:
        """The lobby as JSON-ready lists (players as given, so pass JSON-able ones such as
        ids): a caller that stores it between calls and ``restore``s it has the same lobby."""
        return {
            "pool": [[w.player, w.since, w.order, w.skipped] for w in self._pool.values()],
            "playing": sorted(self._playing, key=repr),
            "paused": sorted(self._paused, key=repr),
            "last_table": [[p, sorted(t, key=repr)] for p, t in self._last_table.items()],
            "points": [[p, v] for p, v in self._points.items()],
            "streak": [[p, v] for p, v in self._streak.items()],
            "games": [[p, v] for p, v in self._games.items()],
            "arrivals": self._arrivals,
        }

    @classmethod
    def restore(
        cls, data: dict, size: int, min_size: int | None = None, rules: ArenaRules | None = None
    ) -> Arena:
        arena = cls(size, min_size, rules)
        arena._pool = {
            p: _Waiter(p, since, order, skipped) for p, since, order, skipped in data["pool"]
        }
        arena._playing = set(data["playing"])
        arena._paused = set(data["paused"])
        arena._last_table = {p: frozenset(t) for p, t in data["last_table"]}
        arena._points = dict(data["points"])
        arena._streak = dict(data["streak"])
        arena._games = dict(data["games"])
        arena._arrivals = data["arrivals"]
        return arena

    def playing(self) -> set[Player]:
        return set(self._playing)

    # -- how -------------------------------------------------------------------------------

    def _enter(self, player: Player, now: float) -> None:
        self._arrivals += 1
        self._pool[player] = _Waiter(player, now, self._arrivals)

    def _choose(self, queue: Sequence[Player], size: int) -> list[Player]:
        """The longest waiter, everyone skipped before, and the fewest pairs who just met,
        from a short window of the queue (earliest arrivals first on a tie)."""
        window = list(queue[: size + self.min_size - 1])
        head, rest = window[0], window[1:]
        must = [p for p in rest if self._pool[p].skipped]
        optional = [p for p in rest if not self._pool[p].skipped]
        best: list[Player] | None = None
        best_cost: int | None = None
        for extra in combinations(optional, size - 1 - len(must)):
            table = [head, *must, *extra]
            cost = sum(
                1
                for i, a in enumerate(table)
                for b in table[i + 1 :]
                if b in self._last_table.get(a, ())
            )
            if best_cost is None or cost < best_cost:
                best, best_cost = table, cost
                if cost == 0:
                    break
        if best is None:  # the caller seats a table only once the queue holds one
            raise ValueError(f"fewer than {size} players to choose a table from")
        return sorted(best, key=queue.index)
