"""A tournament's standings, as the pure core computes them (issue 26: "the tournament has
its own standings"). Swiss and knockout: points per place with the announced tie-breaks
(``games.tournaments.pairing.ranking``); an arena: its points with streaks, the coin last."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import cast

from games.tournaments import rounds
from games.tournaments.models import Format, Round, Tournament
from games.tournaments.pairing import duplicate
from games.tournaments.pairing.ranking import coin


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


def against_the_field(rnd: Round) -> dict[int, float]:
    """A duplicate round's like-with-like comparison (issue 26, part 2): player id -> score
    minus the mean of the others who held the same seat, with the same cards, at the
    round's other tables of the same size. Only tables whose games ended with scores count;
    a round dealt table by table has none."""
    if rnd.seed is None:
        return {}
    scored: dict[object, list[tuple[Hashable, float]]] = {
        t.number: list(zip(t.players, t.scores, strict=True))
        for t in rnd.tables.all()
        if not t.is_bye and t.scores and None not in t.scores
    }
    return cast(dict[int, float], duplicate.compare(scored))
