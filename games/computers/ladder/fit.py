"""The ladder's ratings from its measured pairings, on the site's rating scale.

A pairing seats one player of level ``hero`` against ``players - 1`` of level
``opponent`` (``bench.arena``: the hero's seat rotates, every game has its own seed). Its
result is the hero's win share (a first place shared by k seats is 1/k of a win).

The model is the site's own (``games.ratings.maths``): openskill's Plackett–Luce, in
which a player of skill mu places first at a table with probability
``exp(mu/c) / sum(exp(mu_j/c))``, ``c = beta * sqrt(n)`` for players whose skill is known
(sigma 0). So a hero winning a share ``p`` against ``n - 1`` equals is ``c * ln(p (n-1) /
(1-p))`` above them, with variance ``c² / (N p (1-p))`` over N games (the delta method).
Every pairing of a table size is one such measured difference; the levels' skills are
their weighted least-squares fit (exact for a chain, and it uses any extra pairing, e.g.
hard against normal, too), with ``normal`` anchored at the rating a newcomer starts at
(the display's ``CENTRE``, 1500): a newcomer who asks for a game at their level
gets the everyday player, and every other level's number is measured from it. Skills
become shown points as people's do (``POINTS_PER_UNIT`` per unit of skill), and each
rating's ci95 is ±1.96 standard errors of the fit.

Pure Python (no numpy), and below the ratings layer: the bench passes the model's
``beta`` and the display's scale (``Scale.site()`` there); the site reads only the fit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ANCHOR = "normal"
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Scale:
    """The rating system's constants: openskill's beta, the shown number of the anchor
    and the shown points per unit of skill."""

    beta: float
    centre: float
    points_per_unit: float


@dataclass(frozen=True)
class Rated:
    level: str
    rating: int
    lo: int
    hi: int
    games: int  # the games of the pairings that measured it


def difference(wins: float, games: int, n: int, beta: float) -> tuple[float, float]:
    """The skill difference (hero - opponent) a win share measures, and its variance."""
    # Half a game either way keeps a clean sweep finite (a 0/N or N/N pairing).
    p = min(max(wins, 0.5), games - 0.5) / games
    c = beta * math.sqrt(n)
    return c * math.log(p * (n - 1) / (1 - p)), c * c / (games * p * (1 - p))


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a handful of unknowns)."""
    size = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(size):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][size] / a[i][i] for i in range(size)]


def fit(
    pairings: Iterable[dict[str, Any]], n: int, levels: tuple[str, ...], scale: Scale
) -> dict[str, Rated]:
    """The ratings of ``levels`` at a table of ``n`` from the pairings of that size
    (records with ``hero``, ``opponent``, ``wins`` and ``games``). A level no pairing
    links to the anchor has no rating."""
    totals: dict[tuple[str, str], list[float]] = {}
    for p in pairings:
        if p["players"] == n and p["hero"] in levels and p["opponent"] in levels:
            t = totals.setdefault((p["hero"], p["opponent"]), [0.0, 0])
            t[0] += p["wins"]
            t[1] += p["games"]
    linked = {ANCHOR}
    grew = True
    while grew:
        grew = False
        for hero, opponent in totals:
            if (hero in linked) != (opponent in linked):
                linked |= {hero, opponent}
                grew = True
    unknowns = [lv for lv in levels if lv in linked and lv != ANCHOR]
    if not unknowns:
        return {}
    index = {lv: i for i, lv in enumerate(unknowns)}
    size = len(unknowns)
    normal = [[0.0] * size for _ in range(size)]
    right = [0.0] * size
    counted = dict.fromkeys(levels, 0)
    for (hero, opponent), (wins, games) in totals.items():
        if hero not in linked or opponent not in linked:
            continue
        d, var = difference(wins, int(games), n, scale.beta)
        w = 1 / var
        counted[hero] += int(games)
        counted[opponent] += int(games)
        # One observation: mu_hero - mu_opponent = d, the anchor's mu fixed at 0.
        row = [(lv, s) for lv, s in ((hero, 1.0), (opponent, -1.0)) if lv in index]
        for a, sa in row:
            right[index[a]] += w * sa * d
            for b, sb in row:
                normal[index[a]][index[b]] += w * sa * sb
    skills = solve(normal, right)
    centre, ppu = scale.centre, scale.points_per_unit
    out = {ANCHOR: Rated(ANCHOR, round(centre), round(centre), round(centre), counted[ANCHOR])}
    for lv, i in index.items():
        unit = [1.0 if j == i else 0.0 for j in range(size)]
        se = math.sqrt(max(solve(normal, unit)[i], 0.0))  # the fit's covariance, diagonal
        rating = centre + ppu * skills[i]
        half = Z95 * se * ppu
        out[lv] = Rated(lv, round(rating), round(rating - half), round(rating + half), counted[lv])
    return in_order(out, levels)


def in_order(rated: dict[str, Rated], levels: tuple[str, ...]) -> dict[str, Rated]:
    """The fit held to the ladder's order: each level is made weaker (more slips) or
    stronger (more playouts) than the one below by construction, so a fit that puts one
    below its lower neighbour says only that their games have not separated them yet.
    Such neighbours are pooled (pool-adjacent-violators, weighted by the fit's precision:
    the anchor, known exactly, keeps its number) and show one rating, with the pooled
    interval, until more games tell them apart."""
    blocks: list[tuple[list[str], float, float]] = []  # levels, weighted mean, weight
    for lv in (lv for lv in levels if lv in rated):
        r = rated[lv]
        half = (r.hi - r.lo) / 2
        weight = math.inf if half == 0 else 1 / half**2
        blocks.append(([lv], float(r.rating), weight))
        while len(blocks) > 1 and blocks[-2][1] > blocks[-1][1]:
            (a, ma, wa), (b, mb, wb) = blocks.pop(-2), blocks.pop()
            if math.isinf(wa) or math.isinf(wb):
                mean = ma if math.isinf(wa) else mb
                weight = math.inf
            else:
                mean, weight = (ma * wa + mb * wb) / (wa + wb), wa + wb
            blocks.append((a + b, mean, weight))
    out = {}
    for members, mean, weight in blocks:
        half = 0.0 if math.isinf(weight) else 1 / math.sqrt(weight)
        for lv in members:
            if len(members) == 1:
                out[lv] = rated[lv]
            else:
                games = rated[lv].games
                out[lv] = Rated(lv, round(mean), round(mean - half), round(mean + half), games)
    return out


def beats_below(
    pairings: Iterable[dict[str, Any]], n: int, hero: str, below: str
) -> tuple[float, int]:
    """The hero's win share at a table of ``below`` alone (and the games behind it)."""
    wins = games = 0.0
    for p in pairings:
        if (p["players"], p["hero"], p["opponent"]) == (n, hero, below):
            wins += p["wins"]
            games += p["games"]
    return (wins / games if games else math.nan), int(games)
