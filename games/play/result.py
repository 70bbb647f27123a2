"""A finished game's result, typed (like python-chess's ``Outcome``): read it here rather
than picking keys out of the stored JSON by hand.

Engines return ``{"scores": [...], "ranks": [...], ...}`` from ``outcome``; the other keys
are the game's own details (Felix's cat points, Bon Appétit's tokens, Smoking Cat's
losers) and stay in ``details``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Result:
    scores: tuple[float, ...]
    ranks: tuple[int, ...]  # 1 is best; tied seats share a rank
    details: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        ranks = data.get("ranks")
        if not isinstance(ranks, list):
            raise ValueError("a result needs its ranks")
        scores = data.get("scores") or [None] * len(ranks)
        details = {k: v for k, v in data.items() if k not in ("scores", "ranks")}
        return cls(tuple(scores), tuple(int(r) for r in ranks), details)

    def to_json(self) -> dict:
        return {"scores": list(self.scores), "ranks": list(self.ranks), **self.details}

    @property
    def n_seats(self) -> int:
        return len(self.ranks)

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def score(self, seat: int) -> float | None:
        return self.scores[seat] if 0 <= seat < len(self.scores) else None

    def order(self) -> list[int]:
        """Seats best first (ties in seat order)."""
        return sorted(range(self.n_seats), key=lambda s: (self.ranks[s], s))

    def detail(self, key: str, seat: int, default: Any = None) -> Any:
        values = self.details.get(key)
        if isinstance(values, list) and 0 <= seat < len(values):
            return values[seat]
        return default
