"""What the public pages show about leagues and players: standings per game and season,
matches in progress, recent games and a player's ratings. Every function runs a fixed
number of queries, however much data there is."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any

from django.db.models import (
    Avg,
    Count,
    DateTimeField,
    FloatField,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from games import catalog
from games.leagues.models import League, Season
from games.play import levels
from games.play.models import ENDED_STATUSES, Game, GameStatus, Player, Seat
from games.play.table import Table
from games.ratings import display
from games.ratings.models import Rating, RatingChange


@dataclass
class Row:
    rank: int
    player_id: int
    name: str
    rating: float
    games: int
    wins: int
    average_score: float | None
    last_played: datetime

    @property
    def shown(self) -> display.Shown:
        return display.shown_ordinal(self.rating, self.games)


def season_bounds(season: Season) -> tuple[datetime, datetime | None]:
    """A season's dates as aware datetimes: from its first day's start to the end of its
    last day (exclusive), in the site's time zone."""
    tz = timezone.get_current_timezone()
    start = datetime.combine(season.starts_on, time.min, tzinfo=tz)
    end = None
    if season.ends_on is not None:
        end = datetime.combine(season.ends_on + timedelta(days=1), time.min, tzinfo=tz)
    return start, end


def table(
    league: League, game_type: str, season: Season | None = None, limit: int | None = None
) -> list[Row]:
    """The standings of one game in a league, all-time or in a season, best first; the
    first ``limit`` rows only, if given (a league of thousands shows its top and pages the
    rest through ``web.players.leaderboard``).

    Rating: all-time, the current league rating; in a season, the player's rating of that
    season, which starts afresh with the season (the all-time rating runs on). Games, wins
    (first place, shared on a tie) and average score count the rated games only.

    One query, from the ratings in the order of their index (``rating_table``): each row's
    games, wins, average and last game are counted from its own changes, so a top ten
    costs ten rows' worth, whatever the league's size."""
    changes = RatingChange.objects.filter(rating=OuterRef("pk")).order_by().values("rating")

    def per_rating(aggregate, output):
        return Subquery(changes.annotate(v=aggregate).values("v"), output_field=output)

    rows = (
        Rating.objects.filter(league=league, game_type=game_type, season=season)
        .annotate(
            n=per_rating(Count("pk"), IntegerField()),
            won=per_rating(Count("pk", filter=Q(rank=1)), IntegerField()),
            avg=per_rating(Avg("score"), FloatField()),
            last=per_rating(Max("played_at"), DateTimeField()),
        )
        .filter(n__gt=0)
        .order_by("-ordinal", "-n", "player__display_name")
        .values("player_id", "player__display_name", "ordinal", "n", "won", "avg", "last")
    )
    if limit is not None:
        rows = rows[:limit]
    out: list[Row] = []
    for i, r in enumerate(rows):
        # Equal ratings share a place (1, 1, 3), like the games' own ranks.
        same = out and round(out[-1].rating, 6) == round(r["ordinal"], 6)
        out.append(
            Row(
                rank=out[-1].rank if same else i + 1,
                player_id=r["player_id"],
                name=r["player__display_name"],
                rating=r["ordinal"],
                games=r["n"],
                wins=r["won"],
                average_score=r["avg"],
                last_played=r["last"],
            )
        )
    return out


def tables(
    league: League, season: Season | None = None, limit: int | None = None
) -> list[tuple[str, str, list[Row]]]:
    """(game type, its name, standings) for every game the league counts."""
    labels = dict(catalog.choices())
    return [(t, labels[t], table(league, t, season, limit)) for t in league.game_types]


def pick_season(league: League, requested: str | None) -> tuple[list[Season], Season | None]:
    """The league's seasons (newest first) and the one to show: the requested one ("all"
    for all-time), else the season running today, else all-time."""
    seasons = list(league.seasons.order_by("-starts_on"))
    if requested == "all":
        return seasons, None
    if requested:
        chosen = next((s for s in seasons if str(s.pk) == requested), None)
        if chosen is not None:
            return seasons, chosen
    today = timezone.localdate()
    return seasons, next((s for s in seasons if s.contains(today)), None)


# --- Games -------------------------------------------------------------------------------
def seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))


@dataclass
class SeatLine:
    number: int
    name: str
    player_id: int | None
    is_computer: bool
    rank: int | None = None
    score: Any = None
    # A running match's progress (``GameKind.progress``): the seat's part of the target.
    marks: str | None = None
    # Its player forfeited the ended game: counted last (``games.ratings.places``), and the
    # game's page says so (issue 45).
    forfeits: bool = False
    # The overall shown rating's change, for a rated game (the game's page sets it).
    rating_delta: int | None = None


@dataclass
class GameLine:
    game: Game
    seats: list[SeatLine] = field(default_factory=list)
    # A running match's progress: what the page calls it, and the target the seats' marks
    # are part of (``GameKind.progress``).
    heading: str | None = None
    target: str | None = None

    @property
    def winners(self) -> list[SeatLine]:
        return [s for s in self.seats if s.rank == 1]


def computer_name(seat: Seat) -> str:
    """A computer seat's name on the public pages, with its level (issue 14)."""
    return levels.with_level(_("Computer %(seat)d") % {"seat": seat.number + 1}, seat)


def seat_lines(game: Game) -> list[SeatLine]:
    result = game.outcome
    lines = []
    for seat in game.seats.all():  # prefetched
        n = seat.number
        lines.append(
            SeatLine(
                number=n,
                name=seat.player.display_name if seat.player is not None else computer_name(seat),
                player_id=seat.player_id,
                is_computer=seat.is_computer,
                rank=result.ranks[n] if result and n < result.n_seats else None,
                score=result.score(n) if result else None,
                forfeits=game.status in ENDED_STATUSES and seat.forfeits,
            )
        )
    return lines


def recent_games(
    *, league: League | None = None, player: Player | None = None, limit: int = 10
) -> list[GameLine]:
    """The latest finished or aborted games, with their seats and results."""
    games = Game.objects.filter(status__in=ENDED_STATUSES)
    if league is not None:
        games = games.filter(league=league)
    if player is not None:
        games = games.filter(seats__player=player)
    games = games.select_related("league").prefetch_related(seats_prefetch())
    games = games.order_by("-finished_at", "-pk")[:limit]
    return [GameLine(g, seat_lines(g)) for g in games]


def running_matches(league: League) -> list[GameLine]:
    """The league's matches in progress of the games that show their progress
    (``GameKind.progress``, e.g. S15), from the public
    view (what anyone at the table can see); by game, in catalog order, then oldest
    first."""
    shown = {kind.slug: kind.progress for kind in catalog.all_games() if kind.progress}
    games = (
        Game.objects.filter(league=league, game_type__in=list(shown), status=GameStatus.RUNNING)
        .exclude(state__isnull=True)
        .prefetch_related(seats_prefetch())
        .order_by("started_at", "pk")
    )
    order = list(shown)
    out = []
    for game in sorted(games, key=lambda g: order.index(g.game_type)):  # stable
        progress = shown[game.game_type]
        target, marks = progress.marks(Table(game).view(None))
        lines = seat_lines(game)
        for line in lines:
            line.marks = marks[line.number] if line.number < len(marks) else ""
        out.append(GameLine(game, lines, heading=str(progress.heading), target=target))
    return out


# --- Players -------------------------------------------------------------------------------
def player_ratings(player: Player) -> list[Rating]:
    """A player's ratings, overall ones first, then per league: all-time, then each
    season, newest first (a season's rating started afresh with it)."""
    ratings = Rating.objects.filter(player=player).select_related("league", "season")
    return sorted(
        ratings,
        key=lambda r: (
            r.league is not None,
            r.league.name if r.league else "",
            r.game_type,
            r.season is not None,
            -r.season.starts_on.toordinal() if r.season else 0,
        ),
    )
