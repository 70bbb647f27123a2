"""Collusion signals (issue 48): pairs of players whose results together are improbable.
Pure Python, apart from Django: the periodic job (``games.moderation.collusion_job``)
feeds it the finished rated games, the bench (``bench/collusion.py``) simulated ones.

A signal says only that the figures are unlikely by chance; it opens a case for a
moderator to look at, and acts on nobody by itself.

The statistic. Each game gives each human seat a placement between 0 (first) and 1
(last): ``(rank - 1) / (seats - 1)``, ties sharing a rank. For each ordered pair (A, B)
seated together in at least ``min_games`` games, and each apart from the other in at
least ``min_games`` too:

- A's gain: A's mean placement with B against A's mean without B, as a two-sample z
  score on A's own spread: ``z_gain = (mean_without - mean_with) / (sd * sqrt(1/n_with +
  1/n_without))``, large when A does better with B there;
- B's loss: the same for B, the other way round (large when B does worse with A there):
  the partner "playing far below their level only then".

The pair is flagged when both one-sided p-values (normal tail) are below ``alpha / M``,
``M`` the number of ordered pairs tested (Bonferroni): under honest play the chance of
any false alarm in a run is at most ``alpha``, whatever the number of pairs, since each
flag needs an event of probability at most ``alpha / M``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

MIN_GAMES = 10
ALPHA = 0.01
# A spread below this (a player who always places the same) would make any difference
# look infinitely unlikely: the floor keeps the z scores finite and honest.
MIN_SD = 0.05


def placements(ranks: Sequence[int]) -> list[float]:
    """Each seat's placement from 0 (first) to 1 (last); ``ranks`` are 1-based places."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    return [(r - 1) / (n - 1) for r in ranks]


@dataclass(frozen=True)
class Game:
    """One finished game's human seats: player -> placement (0 first, 1 last)."""

    id: int
    placements: dict[int, float]


@dataclass
class _Sums:
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x


@dataclass
class _Pair:
    # The lower id's placements (a) and the higher's (b) in the games they shared.
    a: _Sums = field(default_factory=_Sums)
    b: _Sums = field(default_factory=_Sums)
    games: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Signal:
    beneficiary: int
    partner: int
    games: tuple[int, ...]
    together: int
    gain_with: float  # the beneficiary's mean placement with the partner
    gain_without: float
    loss_with: float  # the partner's mean placement with the beneficiary
    loss_without: float
    z_gain: float
    z_loss: float
    p: float  # the larger of the two one-sided p-values
    threshold: float  # alpha / M

    def figure(self) -> str:
        return (
            f"together in {self.together} games; "
            f"beneficiary mean placement {self.gain_with:.3f} with, "
            f"{self.gain_without:.3f} without (z={self.z_gain:.2f}); "
            f"partner {self.loss_with:.3f} with, {self.loss_without:.3f} without "
            f"(z={self.z_loss:.2f}); p={self.p:.2e} < {self.threshold:.2e}"
        )


def _tail(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _z(all_: _Sums, with_: _Sums, better_with: bool) -> tuple[float, float, float]:
    """(z, mean with, mean without) for one player's placements with and without the
    other; ``better_with``: the gain (lower with) rather than the loss (higher with)."""
    n_without = all_.n - with_.n
    mean_with = with_.total / with_.n
    mean_without = (all_.total - with_.total) / n_without
    variance = max(all_.squares / all_.n - (all_.total / all_.n) ** 2, 0.0)
    sd = max(math.sqrt(variance * all_.n / max(all_.n - 1, 1)), MIN_SD)
    diff = mean_without - mean_with if better_with else mean_with - mean_without
    return diff / (sd * math.sqrt(1 / with_.n + 1 / n_without)), mean_with, mean_without


def signals(
    games: Iterable[Game], *, min_games: int = MIN_GAMES, alpha: float = ALPHA
) -> tuple[list[Signal], int]:
    """The flagged ordered pairs, most improbable first, and the number of pairs tested."""
    players: dict[int, _Sums] = defaultdict(_Sums)
    pairs: dict[tuple[int, int], _Pair] = defaultdict(_Pair)
    for game in games:
        seated = sorted(game.placements.items())
        for player, x in seated:
            players[player].add(x)
        for i, (a, xa) in enumerate(seated):
            for b, xb in seated[i + 1 :]:
                pair = pairs[(a, b)]
                pair.a.add(xa)
                pair.b.add(xb)
                pair.games.append(game.id)
    tested: list[tuple[int, int, _Pair]] = []
    for (a, b), pair in pairs.items():
        n = pair.a.n
        if n < min_games:
            continue
        if players[a].n - n < min_games or players[b].n - n < min_games:
            continue
        tested.append((a, b, pair))
    m = 2 * len(tested)
    threshold = alpha / m if m else 0.0
    flagged = []
    for a, b, pair in tested:
        for (x, sx), (y, sy) in (((a, pair.a), (b, pair.b)), ((b, pair.b), (a, pair.a))):
            z_gain, gain_with, gain_without = _z(players[x], sx, better_with=True)
            z_loss, loss_with, loss_without = _z(players[y], sy, better_with=False)
            p = max(_tail(z_gain), _tail(z_loss))
            if p < threshold:
                flagged.append(
                    Signal(
                        beneficiary=x,
                        partner=y,
                        games=tuple(pair.games),
                        together=pair.a.n,
                        gain_with=gain_with,
                        gain_without=gain_without,
                        loss_with=loss_with,
                        loss_without=loss_without,
                        z_gain=z_gain,
                        z_loss=z_loss,
                        p=p,
                        threshold=threshold,
                    )
                )
    flagged.sort(key=lambda s: s.p)
    return flagged, m
