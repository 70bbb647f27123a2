"""Fill an empty PostgreSQL database with a large, plausible club for ``bench.pages``:
leagues with members, players, games of every kind (mostly finished, some aborted, some
running) with their seats and results, and the rating rows the pages read (overall and
league ratings, one change per seat and scope, a rating decision per ended game).

Rows go in with PostgreSQL's COPY, not through the models: 100,000 games take seconds,
not many minutes. The ratings are a random walk, not openskill's maths: the pages only
read them."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import connection

from games import catalog
from games.leagues.models import League, LeagueMember
from games.play.models import AbortReason, Game, GameStatus, Player, Seat
from games.ratings.models import RatedGame, Rating, RatingChange

START = datetime(2024, 1, 1, tzinfo=UTC)
FIRST = [
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Fabio",
    "Giulia",
    "Hugo",
    "Irene",
    "João",
    "Kiko",
    "Luca",
    "Marta",
    "Nino",
    "Olga",
    "Paolo",
    "Rosa",
    "Sara",
    "Tito",
    "Ugo",
    "Vera",
    "Zeno",
]
LAST = [
    "Rossi",
    "Bianchi",
    "Silva",
    "Santos",
    "Ferrari",
    "Costa",
    "Romano",
    "Gallo",
    "Conti",
    "Ricci",
    "Lima",
    "Moreira",
    "Marino",
    "Greco",
    "Bruno",
    "Souza",
]


@dataclass
class Filled:
    games: int
    players: int
    leagues: int
    seats: int
    rating_changes: int


def copy(model, columns: list[str], rows: Iterable[tuple]) -> int:
    """COPY ``rows`` into ``model``'s table; the number of rows.

    Columns left out that have a default in the model get it: COPY knows only the
    database's defaults, and Django keeps its own in Python (a new field with a default
    must not break the fill). A text field without one gets Django's implicit empty
    string, as a model instance would."""
    n = 0
    defaults = [
        (f.column, f.get_default())
        for f in model._meta.concrete_fields
        if f.column not in columns
        and (f.has_default() or (f.empty_strings_allowed and not f.null and not f.primary_key))
    ]
    extra = tuple(value for _column, value in defaults)
    names = ", ".join(f'"{c}"' for c in [*columns, *(c for c, _ in defaults)])
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor: Django's has no COPY
        with raw.copy(f'COPY "{model._meta.db_table}" ({names}) FROM STDIN') as out:
            for row in rows:
                out.write_row((*row, *extra))
                n += 1
    return n


def reset_sequences(*models) -> None:
    with connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            cursor.execute(  # a model's own table name, formatted in
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "  # noqa: S608
                f'(SELECT COALESCE(MAX(id), 1) FROM "{table}"))'
            )


def fill(*, games: int, players: int, leagues: int, running: int = 300, seed: int = 1) -> Filled:
    """The club: ``leagues`` leagues of ``players // leagues`` regulars each (a third of
    the games are outside leagues, between anyone), ``games`` games over two years."""
    rng = random.Random(seed)
    now = START + timedelta(days=730)
    kinds = list(catalog.all_games())
    slugs = [k.slug for k in kinds]

    copy(
        League,
        ["id", "name", "slug", "description", "game_types", "word", "is_active", "created_at"],
        (
            (i, f"League {i}", f"league-{i}", "", json.dumps(slugs), "GATTO", True, START)
            for i in range(1, leagues + 1)
        ),
    )
    copy(
        Player,
        [
            "id",
            "telegram_id",
            "display_name",
            "username",
            "language",
            "reachable",
            "is_banned",
            "ban_reason",
            "created_at",
            "last_seen",
        ],
        (
            (
                i,
                10_000_000 + i,
                f"{rng.choice(FIRST)} {rng.choice(LAST)} {i}",
                "",
                "en",
                True,
                False,
                "",
                START,
                now,
            )
            for i in range(1, players + 1)
        ),
    )
    per_league = max(players // leagues, 6)

    def people(league: int | None, n: int) -> list[int]:
        if league is None:
            return rng.sample(range(1, players + 1), n)
        first = (league - 1) * per_league + 1
        return rng.sample(range(first, min(first + per_league, players + 1)), n)

    game_rows, seat_rows, decided = [], [], []
    members: set[tuple[int, int]] = set()
    step = (now - START) / games
    for gid in range(1, games + 1):
        kind = rng.choice(kinds)
        n = rng.randint(kind.rules.min_players, min(kind.rules.max_players, 5))
        league = rng.randint(1, leagues) if rng.random() < 2 / 3 else None
        who = people(league, n)
        started = START + step * gid
        if gid > games - running:
            status, finished, result = GameStatus.RUNNING, None, None
        elif rng.random() < 0.04:
            status, finished, result = GameStatus.ABORTED, started + timedelta(minutes=5), None
        else:
            status, finished = GameStatus.FINISHED, started + timedelta(minutes=20)
            order = rng.sample(range(1, n + 1), n)
            result = {"ranks": order, "scores": [10 * (n - r) for r in order]}
        reason = AbortReason.CANCELLED if status == GameStatus.ABORTED else ""
        game_rows.append(
            (
                gid,
                kind.slug,
                -(10**12) - gid,
                league,
                status,
                who[0],
                gid,
                "{}",
                0,
                json.dumps(result) if result else None,
                reason,
                "",
                False,
                False,
                "",
                started,
                started,
                finished,
                finished or started,
            )
        )
        for number, player in enumerate(who):
            seat_rows.append((gid, number, player, "", False, 0, False))
            if league is not None:
                members.add((league, player))
        if finished is not None:
            decided.append((gid, kind.slug, league, who, result, finished))
    copy(
        Game,
        [
            "id",
            "game_type",
            "chat_id",
            "league_id",
            "status",
            "created_by_id",
            "seed",
            "options",
            "version",
            "result",
            "abort_reason",
            "abort_note",
            "auto_play",
            "flagged_not_rated",
            "not_rated_reason",
            "created_at",
            "started_at",
            "finished_at",
            "updated_at",
        ],
        game_rows,
    )
    n_seats = copy(
        Seat,
        [
            "game_id",
            "number",
            "player_id",
            "strategy",
            "replaced_by_computer",
            "timeouts",
            "forfeited",
        ],
        seat_rows,
    )
    copy(
        LeagueMember,
        ["league_id", "player_id", "joined_at", "note"],
        ((league, player, START, "") for league, player in sorted(members)),
    )
    n_changes = _ratings(rng, decided)
    copy(
        RatedGame,
        ["game_id", "rated", "skipped", "league_id", "decided_at"],
        (
            (gid, result is not None, "" if result else "aborted", league, at)
            for gid, _kind, league, _who, result, at in decided
        ),
    )
    reset_sequences(League, Player, Game, Seat, LeagueMember, Rating, RatingChange)
    return Filled(games, players, leagues, n_seats, n_changes)


def _ratings(rng: random.Random, decided: list) -> int:
    """Overall and league ratings walked game by game, with a change row per seat and
    scope; the ratings themselves are written last, with their final values."""
    ratings: dict[tuple, list] = {}  # scope -> [id, mu, sigma, games]

    def changes() -> Iterator[tuple]:
        for gid, slug, league, who, result, at in decided:
            if result is None:
                continue
            n = len(who)
            for player, rank in zip(who, result["ranks"], strict=True):
                scopes = [(player, slug, None)] + ([(player, slug, league)] if league else [])
                for scope in scopes:
                    r = ratings.get(scope)
                    if r is None:
                        r = ratings[scope] = [len(ratings) + 1, 25.0, 25 / 3, 0]
                    mu, sigma = r[1], r[2]
                    r[1] = mu + ((n + 1) / 2 - rank) * sigma / 6 + rng.uniform(-0.2, 0.2)
                    r[2] = max(sigma * 0.97, 1.0)
                    r[3] += 1
                    yield (
                        r[0],
                        gid,
                        at,
                        rank,
                        10.0 * (n - rank),
                        mu,
                        sigma,
                        r[1],
                        r[2],
                        mu - 3 * sigma,
                        r[1] - 3 * r[2],
                    )

    # The walk hands out the ratings' ids and ends with their final values: the changes
    # are worked out first, the ratings written, then the changes that point at them.
    rows = list(changes())
    copy(
        Rating,
        [
            "id",
            "player_id",
            "game_type",
            "league_id",
            "mu",
            "sigma",
            "ordinal",
            "games",
            "updated_at",
        ],
        (
            (r[0], player, slug, league, r[1], r[2], r[1] - 3 * r[2], r[3], START)
            for (player, slug, league), r in ratings.items()
        ),
    )
    return copy(
        RatingChange,
        [
            "rating_id",
            "game_id",
            "played_at",
            "rank",
            "score",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "ordinal_before",
            "ordinal_after",
        ],
        rows,
    )
