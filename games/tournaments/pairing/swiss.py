"""Swiss rounds (issue 26: "a fixed number of rounds; tables of the game's size formed from
players with similar scores, avoiding repeat opponents as far as possible; byes when the
count does not divide").

A round is made in three steps, each its own function:

1. ``table_sizes``: how many tables of which size. The policy, announced with the
   tournament: **full tables first, then smaller tables the game allows, then byes**. Byes
   are the last resort because a bye is a round not played; among the ways with the
   fewest byes, the most full tables, then the fewest tables. Tables are never larger
   than the announced size, even where the game allows it (players signed up for tables
   of 4). A game for 3 to 5 with 10 players: 4 + 3 + 3; a game for 4 only with 10: 4 + 4
   and two byes.
2. ``choose_byes``: byes rotate. The lowest-placed players among those with the fewest
   byes so far get them, so nobody has a second bye while someone without one can take it.
   A bye scores ``bye_points`` (announced; by default half of a first place, a table's
   mean).
3. ``pair``: tables from the standings, top down, so players with similar scores meet,
   with as few pairs who already met as can be found. First an exhaustive search (the
   standings' order, each table led by the best player still unseated, members taken in
   order) for tables without a single repeat, then with one, two... (the fewest there
   can be), bounded by a node budget; when the budget runs out, a local search of swaps
   between tables from the plain top-down fill lowers the repeats, then the spread of
   standings at each table.
   Both are deterministic: the same standings give the same tables on any machine.

``next_round`` chains the three from the results so far.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from games.tournaments.pairing.ranking import DEFAULT_TIEBREAKS, Standing, standings
from games.tournaments.pairing.results import TOP_POINTS, Player, RoundResult

# Enough for an exhaustive search of a dozen players, and a few tenths of a second at most.
SEARCH_BUDGET = 100_000
SWAP_BUDGET = 200_000


@dataclass(frozen=True)
class SwissRules:
    rounds: int = 5
    table_size: int = 4
    allowed_sizes: frozenset[int] = frozenset()  # the game's sizes; empty: table_size only
    bye_points: int = TOP_POINTS // 2
    seed: int = 0  # the coin of the last tie-break
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    search_budget: int = SEARCH_BUDGET

    def sizes(self) -> frozenset[int]:
        return self.allowed_sizes or frozenset({self.table_size})

    def standings(
        self, results: Sequence[RoundResult], players: Sequence[Player] = ()
    ) -> list[Standing]:
        return standings(
            results,
            players=players,
            bye_points=self.bye_points,
            seed=self.seed,
            tiebreaks=self.tiebreaks,
        )


@dataclass(frozen=True)
class Pairing:
    tables: tuple[tuple[Player, ...], ...]
    byes: tuple[Player, ...] = ()
    repeats: int = 0  # pairs at a table who had already met: 0 whenever it can be
    # Found by the exact search, so no other pairing has fewer repeats; False when the
    # budget ran out and the swaps' answer is the best known.
    exhaustive: bool = field(default=True, compare=False)


def table_sizes(n: int, size: int, allowed: frozenset[int]) -> tuple[list[int], int]:
    """The sizes of a round's tables, largest first, and the number of byes."""
    smaller = tuple(sorted((s for s in allowed if 2 <= s < size), reverse=True))
    for byes in range(n + 1):
        seated = n - byes
        for full in range(seated // size, -1, -1):
            rest = _fewest_tables(seated - full * size, smaller)
            if rest is not None and (full or rest):
                return [size] * full + list(rest), byes
    return [], n


@cache
def _fewest_tables(n: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """``n`` as a sum of ``sizes`` with the fewest terms (larger first on a tie); None if
    it cannot be."""
    if n == 0:
        return ()
    best = None
    for s in sizes:
        if s <= n:
            rest = _fewest_tables(n - s, sizes)
            if rest is not None and (best is None or len(rest) + 1 < len(best)):
                best = (s, *rest)
    return best


def choose_byes(ranked: Sequence[Player], count: int, byes_had: Mapping[Player, int]):
    """The ``count`` players with the fewest byes so far, lowest placed first."""
    order = sorted(range(len(ranked)), key=lambda i: (byes_had.get(ranked[i], 0), -i))
    return tuple(ranked[i] for i in sorted(order[:count]))


def history(results: Sequence[RoundResult]) -> tuple[dict, Counter]:
    """Each player's past opponents, and how many byes each has had."""
    met: dict[Player, set] = defaultdict(set)
    byes: Counter = Counter()
    for round_ in results:
        for table in round_.tables:
            for player in table.players:
                met[player].update(table.opponents(player))
        byes.update(round_.byes)
    return met, byes


def next_round(
    players: Sequence[Player], results: Sequence[RoundResult], rules: SwissRules
) -> Pairing:
    """The next round for ``players`` (those still in, in entry order: the first round
    follows it, so pass them seeded, e.g. by rating)."""
    if results:
        still_in = set(players)
        ranked = [s.player for s in rules.standings(results, players) if s.player in still_in]
    else:
        ranked = list(players)
    met, byes_had = history(results)
    sizes, n_byes = table_sizes(len(ranked), rules.table_size, rules.sizes())
    byes = choose_byes(ranked, n_byes, byes_had)
    seated = [p for p in ranked if p not in set(byes)]
    pairing = pair(seated, met, sizes, budget=rules.search_budget)
    return Pairing(pairing.tables, byes, pairing.repeats, pairing.exhaustive)


def pair(
    ranked: Sequence[Player],
    met: Mapping[Player, set],
    sizes: Sequence[int],
    budget: int = SEARCH_BUDGET,
) -> Pairing:
    """Tables of ``sizes`` for ``ranked`` (best first), with as few repeats as found."""
    if sum(sizes) != len(ranked):
        raise ValueError(f"{len(ranked)} players do not fill tables of {list(sizes)}")
    index = {p: i for i, p in enumerate(ranked)}
    conflicts = [
        frozenset(index[o] for o in met.get(p, ()) if o in index and o != p) for p in ranked
    ]
    sizes = sorted(sizes, reverse=True)
    top_down = _top_down(len(ranked), sizes)
    fill_repeats = sum(_repeats(t, conflicts) for t in top_down)
    found, exhaustive = _search(conflicts, sizes, budget, most=fill_repeats)
    if found is not None:
        tables = found
    elif exhaustive:  # nothing has fewer repeats than the standings' own order
        tables = top_down
    else:
        tables = _improve(conflicts, top_down)
    repeats = sum(_repeats(t, conflicts) for t in tables)
    return Pairing(
        tuple(tuple(ranked[i] for i in t) for t in tables),
        repeats=repeats,
        exhaustive=exhaustive,
    )


def _repeats(table: Sequence[int], conflicts: Sequence[frozenset]) -> int:
    return sum(1 for i, a in enumerate(table) for b in table[i + 1 :] if b in conflicts[a])


def _top_down(n: int, sizes: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    return tables


class _OutOfBudget(Exception):
    pass


def _search(  # noqa: C901 - a backtracking search with its pruning, kept in one piece
    conflicts: Sequence[frozenset], sizes: Sequence[int], budget: int, most: int
) -> tuple[list[list[int]] | None, bool]:
    """Tables with the fewest repeats below ``most`` (None when there are none), and
    whether the answer is proved (False when the budget ran out first).

    Tables are sets, so the best player still unseated always leads the next table (no
    loss of generality); only the table's size and its other members are chosen, in the
    standings' order, so the first answer found keeps the scores as close as it can. The
    search allows 0 repeats, then 1, then 2...: each pass proves the one before impossible.
    """
    n = len(conflicts)
    nodes = 0

    def attempt(allowed: int) -> list[list[int]] | None:
        free = [True] * n
        left = Counter(sizes)
        tables: list[list[int]] = []
        repeats = 0

        def fill(table: list[int], size: int, start: int) -> bool:
            nonlocal nodes, repeats
            if len(table) == size:
                tables.append(list(table))
                if place():
                    return True
                tables.pop()
                return False
            need = size - len(table)
            for j in range(start, n - need + 1):
                if not free[j]:
                    continue
                nodes += 1
                if nodes > budget:
                    raise _OutOfBudget
                added = sum(1 for m in table if j in conflicts[m])
                if repeats + added > allowed:
                    continue
                free[j] = False
                table.append(j)
                repeats += added
                if fill(table, size, j + 1):
                    return True
                repeats -= added
                table.pop()
                free[j] = True
            return False

        def place() -> bool:
            try:
                top = free.index(True)
            except ValueError:
                return True
            for size in sorted(left, reverse=True):
                if not left[size]:
                    continue
                left[size] -= 1
                free[top] = False
                if fill([top], size, top + 1):
                    return True
                free[top] = True
                left[size] += 1
            return False

        return tables if place() else None

    try:
        for allowed in range(most):
            found = attempt(allowed)
            if found is not None:
                return found, True
    except _OutOfBudget:
        return None, False
    return None, True


def _improve(conflicts: Sequence[frozenset], tables: list[list[int]]) -> list[list[int]]:
    """Swaps between tables, nearest tables first, kept when they lower (repeats, spread).

    The spread of a table is its worst minus its best place in the standings: counted
    after the repeats, it stops a swap from mixing the leaders with the last for nothing.
    """
    n = len(conflicts)

    def cost(table: list[int]) -> int:
        return _repeats(table, conflicts) * (n + 1) + max(table) - min(table)

    costs = [cost(t) for t in tables]
    evaluations = 0
    distance = 1
    while distance < len(tables) and evaluations < SWAP_BUDGET:
        improved = True
        while improved and evaluations < SWAP_BUDGET:
            improved = False
            for i in range(len(tables)):
                for j in range(i + 1, min(len(tables), i + distance + 1)):
                    for a in range(len(tables[i])):
                        for b in range(len(tables[j])):
                            evaluations += 1
                            ti, tj = tables[i], tables[j]
                            ti[a], tj[b] = tj[b], ti[a]
                            ci, cj = cost(ti), cost(tj)
                            if ci + cj < costs[i] + costs[j]:
                                costs[i], costs[j] = ci, cj
                                improved = True
                            else:
                                ti[a], tj[b] = tj[b], ti[a]
        if not any(_repeats(t, conflicts) for t in tables):
            break
        distance *= 2
    return [sorted(t) for t in tables]
