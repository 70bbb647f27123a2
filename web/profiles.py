"""A player's record per game for their public page: games, wins, win rate, average place,
peak rating, the current streak, the average score (points, or what the game counts
instead: ``GameKind.scoring``) and head-to-head against the people they meet most.

Everything counts the player's rated games in the overall scope (``RatingChange`` rows
of their overall rating): the games their rating stands on, each once, whatever league or
season it also counted for. Two queries, whatever the number of games."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from games import catalog
from games.capabilities import Scoring
from games.play.models import Player
from games.ratings import display
from games.ratings.models import RatingChange

OPPONENTS = 5  # head-to-head lines per game: the people met most often
HISTORY_POINTS = 300  # chart points per game: enough for a chart, bounded for the page


@dataclass
class Opponent:
    player_id: int
    name: str
    games: int = 0
    ahead: int = 0  # games the profile's player finished ahead of this opponent
    behind: int = 0
    level: int = 0  # same place (a shared rank)


@dataclass
class Streak:
    won: bool  # a run of wins, or a run of games without a win
    length: int


@dataclass
class Record:
    """One game's record of a player (rated games, overall scope)."""

    game_type: str
    name: str
    # How the game's scores read: what they count, and whether fewer is better.
    scoring: Scoring
    games: int = 0
    wins: int = 0
    ranks: list[int] = field(default_factory=list, repr=False)
    scores: list[float] = field(default_factory=list, repr=False)
    peak: float | None = None
    peak_games: int = 0  # the rated games the peak stood on (provisional or not)
    rating: float | None = None
    streak: Streak | None = None
    opponents: list[Opponent] = field(default_factory=list)
    points: list[tuple[datetime, float, int]] = field(default_factory=list, repr=False)

    @property
    def shown(self) -> display.Shown | None:
        return None if self.rating is None else display.shown_ordinal(self.rating, self.games)

    @property
    def peak_shown(self) -> display.Shown | None:
        return None if self.peak is None else display.shown_ordinal(self.peak, self.peak_games)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float | None:
        return sum(self.ranks) / len(self.ranks) if self.ranks else None

    @property
    def average_score(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None


def records(player: Player) -> list[Record]:
    """The player's record in each game they have rated games in, in catalog order."""
    mine = list(
        RatingChange.objects.filter(
            rating__player=player, rating__league__isnull=True, rating__season__isnull=True
        )
        .order_by("played_at", "id")
        .values_list("game_id", "rating__game_type", "rank", "score", "ordinal_after", "played_at")
    )
    by_type: dict[str, Record] = {}
    my_rank: dict[int, tuple[str, int]] = {}
    for game_id, game_type, rank, score, ordinal, played_at in mine:
        record = by_type.get(game_type)
        if record is None:
            try:
                kind = catalog.get(game_type)
            except catalog.UnknownGame:
                continue  # a game taken out of the catalog: its old rows have no page
            record = by_type[game_type] = Record(game_type, str(kind.name), scoring=kind.scoring)
        record.games += 1
        record.wins += rank == 1  # first place, shared on a tie, as in the standings
        record.ranks.append(rank)
        if score is not None:
            record.scores.append(score)
        if record.peak is None or ordinal > record.peak:
            record.peak, record.peak_games = ordinal, record.games
        record.rating = ordinal  # oldest first: the last one is the current rating
        record.points.append((played_at, ordinal, game_id))
        my_rank[game_id] = (game_type, rank)
    for record in by_type.values():
        record.streak = _streak(record.ranks)
        record.points = record.points[-HISTORY_POINTS:]
    _head_to_head(player, my_rank, by_type)
    order = {slug: i for i, slug in enumerate(catalog.slugs())}
    return sorted(by_type.values(), key=lambda r: order[r.game_type])


def _streak(ranks: list[int]) -> Streak | None:
    """The run the latest game belongs to: wins in a row, or games in a row without one."""
    if not ranks:
        return None
    won = ranks[-1] == 1
    length = 0
    for rank in reversed(ranks):
        if (rank == 1) != won:
            break
        length += 1
    return Streak(won, length)


def _head_to_head(
    player: Player, my_rank: dict[int, tuple[str, int]], by_type: dict[str, Record]
) -> None:
    """The other rated people at the player's rated games, and who finished ahead."""
    if not my_rank:
        return
    theirs = (
        RatingChange.objects.filter(
            game_id__in=RatingChange.objects.filter(
                rating__player=player, rating__league__isnull=True, rating__season__isnull=True
            ).values("game_id"),
            rating__league__isnull=True,
            rating__season__isnull=True,
        )
        .exclude(rating__player=player)
        .values_list("game_id", "rating__player_id", "rating__player__display_name", "rank")
    )
    met: dict[str, dict[int, Opponent]] = defaultdict(dict)
    for game_id, other_id, name, rank in theirs:
        if game_id not in my_rank:
            continue  # rated after the first query ran
        game_type, mine = my_rank[game_id]
        opponent = met[game_type].setdefault(other_id, Opponent(other_id, name))
        opponent.games += 1
        if mine < rank:
            opponent.ahead += 1
        elif mine > rank:
            opponent.behind += 1
        else:
            opponent.level += 1
    for game_type, opponents in met.items():
        ranked = sorted(opponents.values(), key=lambda o: (-o.games, o.name, o.player_id))
        by_type[game_type].opponents = ranked[:OPPONENTS]


def chart_series(records: list[Record]) -> list[dict]:
    """The rating history for the chart: one series per game (the overall rating, which
    every rated game moves), oldest point first: [time, shown rating, game id]."""
    return [
        {
            "game": r.game_type,
            "label": r.name,
            "points": [[at.isoformat(), display.points(v), game_id] for at, v, game_id in r.points],
        }
        for r in records
    ]
