"""The rating arithmetic, a pure function of results: openskill's Plackett–Luce model
for free-for-all games (one team per player), folded over games in order. No database
here: ``games.ratings.service`` applies it to rated games.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


@dataclass(frozen=True)
class Placing:
    """One rated seat's result: who, their place (1 is best; ties share) and score."""

    player_id: int
    rank: int
    score: float | None = None


@dataclass(frozen=True)
class Played:
    """A rated game as the fold sees it."""

    game_id: int
    played_at: datetime
    placings: tuple[Placing, ...]


@dataclass(frozen=True)
class Change:
    game_id: int
    played_at: datetime
    placing: Placing
    before: Skill
    after: Skill


def update(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """New skills after one game of free-for-all: one team per player, ranks as given."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("a rated game needs two or more players, each with a rank")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def fold(games: Iterable[Played], start: dict[int, Skill] | None = None):
    """Apply games in order. Returns the final skills, the games counted per player, and
    every change."""
    skills = dict(start or {})
    counts: dict[int, int] = {}
    changes: list[Change] = []
    for played in games:
        before = [skills.get(p.player_id, Skill()) for p in played.placings]
        after = update(before, [p.rank for p in played.placings])
        for placing, b, a in zip(played.placings, before, after, strict=True):
            skills[placing.player_id] = a
            counts[placing.player_id] = counts.get(placing.player_id, 0) + 1
            changes.append(Change(played.game_id, played.played_at, placing, b, a))
    return skills, counts, changes
