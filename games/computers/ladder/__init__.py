"""The ladder's measured ratings (issue 47): each level of each game's computers on the
same scale as people's ratings.

``pairings.jsonl`` keeps every measured pairing (one JSON object a line: the game, the
table size, the levels seated, the first game number and the count, which fix the seeds,
the hero's wins, the decision times, the CPU seconds and the command that ran it), so that
runs add up across sessions and anyone can re-run one. ``ratings.json`` is their fit
(``games.computers.ladder.fit``), written by ``python -m bench ladder``; the site reads
only that file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent
PAIRINGS = HERE / "pairings.jsonl"
RATINGS = HERE / "ratings.json"


Fitted = dict[str, dict[str, dict[str, list[int]]]]


@cache
def table() -> Fitted:
    """``{slug: {str(players): {level: [rating, lo, hi]}}}`` as last fitted."""
    try:
        fitted: Fitted = json.loads(RATINGS.read_text())
        return fitted
    except (OSError, ValueError):
        return {}


def ratings(slug: str, players: int) -> dict[str, int]:
    """Each measured level's rating in a game at ``players`` seats (the nearest measured
    table size: a level's strength changes little with the table's size)."""
    sizes = table().get(slug, {})
    if not sizes:
        return {}
    measured = sorted(int(n) for n in sizes)
    nearest = min(measured, key=lambda n: (abs(n - players), n))
    return {level: values[0] for level, values in sizes[str(nearest)].items()}


def rating(slug: str, level: str | None, players: int) -> int | None:
    """A level's rating in a game (None: no level, or not measured)."""
    return ratings(slug, players).get(level) if level else None


def nearest(slug: str, offered: list[str], person: int, players: int) -> str | None:
    """The offered level whose rating is nearest ``person``'s (ties: the weaker)."""
    measured = ratings(slug, players)
    rated = [lv for lv in offered if lv in measured]
    if not rated:
        return None
    return min(rated, key=lambda lv: (abs(measured[lv] - person), measured[lv]))
