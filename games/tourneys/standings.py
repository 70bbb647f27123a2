"""A tournament's standings, as the pure core computes them (issue 26: "the tournament has
its own standings"). Swiss and knockout: points per place with the announced tie-breaks
(``games.tournaments.standings``); an arena: its points with streaks, the coin last."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from games.tournaments.standings import coin
from games.tourneys import rounds
from games.tourneys.models import Format, Tournament


@dataclass(frozen=True)
class Row:
    rank: int
    player_id: int
    points: int
    tiebreaks: tuple[tuple[str, float], ...]  # the announced order, with each value
    on_streak: bool = False


def standings(tournament: Tournament) -> list[Row]:
    players = list(
        tournament.entries.order_by("created_at", "id").values_list("player_id", flat=True)
    )
    if tournament.format == Format.ARENA:
        arena = rounds.arena_of(tournament)
        scores = arena.scores()
        order = sorted(
            players, key=lambda p: (scores.get(p, 0), coin(tournament.seed, p)), reverse=True
        )
        return [
            Row(i + 1, p, scores.get(p, 0), (("games", arena.games(p)),), arena.on_streak(p))
            for i, p in enumerate(order)
        ]
    rules = rounds.swiss_rules(tournament)
    rows = rules.standings(rounds.round_results(tournament), players)
    return [
        # The pairing's players are hashables; a tournament's are player ids.
        Row(s.rank, cast(int, s.player), s.points, tuple(t for t in s.tiebreaks if t[0] != "coin"))
        for s in rows
    ]
