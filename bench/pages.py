"""``python -m bench pages [--games N] [--players N] [--leagues N] [--requests N]
[--explain]``: the public pages' times with a big club in PostgreSQL.

Needs ``DATABASE_URL`` (PostgreSQL). Creates a database of its own beside the configured
one (``<name>_bench_pages``), migrates it, fills it (``bench.fill``: 100,000 games by
default, with their seats, players, leagues and ratings), then requests every public list
page ``--requests`` times with Django's test client, in-process (no network, no static
files), and drops the database. Prints one line per page::

    pages <name> p50_ms=<n> p95_ms=<n> cpu_p50_ms=<n> queries=<n>

and a last ``pages slowest_p95_ms=<n> target_ms=150``. The times are wall-clock, what a
visitor waits for; ``cpu_p50_ms`` is this process's own work (the views and templates,
not PostgreSQL's), which a busy machine does not inflate as much. ``--explain`` also prints
PostgreSQL's plan of each page's slowest query.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import warnings

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import override_settings, setup_test_environment

SUMMARY = "the public pages with a big club in PostgreSQL: p50/p95 ms and queries per page"
DJANGO = True  # python -m bench sets Django up before importing it

TARGET_MS = 150


class Queries:
    """Counts a request's queries and keeps the slowest (for ``--explain``)."""

    def __init__(self):
        self.n = 0
        self.slowest: tuple[float, str, object] = (0.0, "", None)

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            took = time.perf_counter() - started
            if took > self.slowest[0]:
                self.slowest = (took, sql, params)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench pages", description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--leagues", type=int, default=20)
    parser.add_argument("--requests", type=int, default=30, help="per page")
    parser.add_argument("--explain", action="store_true")
    opts = parser.parse_args(argv)

    if connection.vendor != "postgresql":
        sys.exit("python -m bench pages needs DATABASE_URL (PostgreSQL).")
    setup_test_environment()  # the test client's host, as the tests have it
    # Whitenoise looks for collected static files the pages do not need here.
    warnings.filterwarnings("ignore", message="No directory at", module="whitenoise")
    database = settings.DATABASES["default"]
    database["TEST"]["NAME"] = f"{database['NAME']}_bench_pages"
    original = database["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(opts)
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)


def run(opts) -> None:
    # Imported once Django is set up: the filler imports the models.
    from bench import fill

    started = time.perf_counter()
    filled = fill.fill(games=opts.games, players=opts.players, leagues=opts.leagues)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # as autovacuum would have, long before
    print(
        f"pages fill games={filled.games} players={filled.players} leagues={filled.leagues}"
        f" seats={filled.seats} rating_changes={filled.rating_changes}"
        f" seconds={time.perf_counter() - started:.1f}",
        flush=True,
    )
    cache.clear()
    # The filler's garbage is not the pages': collect it now, and keep what lives on out
    # of the collector's way.
    gc.collect()
    gc.freeze()
    client = Client()
    pages = urls()
    worst = 0.0
    # The pages, not the static files' manifest (made by collectstatic in production).
    plain = {"staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    # One client asks page after page as fast as it can: what a page costs is measured,
    # not the request rate a visitor's address is allowed.
    with override_settings(
        STORAGES={**settings.STORAGES, **plain}, REQUESTS_PER_SECOND_PER_ADDRESS=0
    ):
        for name, url in pages.items():
            times, cpu, queries = [], [], Queries()
            for i in range(opts.requests + 1):
                counter = Queries()
                with connection.execute_wrapper(counter):
                    t0, c0 = time.perf_counter(), time.process_time()
                    response = client.get(url)
                    took, work = time.perf_counter() - t0, time.process_time() - c0
                if response.status_code != 200:
                    sys.exit(f"pages {name}: {url} answered {response.status_code}")
                if i:  # the first request warms the caches (a replay, the templates)
                    times.append(took * 1000)
                    cpu.append(work * 1000)
                queries = counter
            p50 = statistics.median(times)
            p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
            worst = max(worst, p95)
            print(
                f"pages {name} p50_ms={p50:.1f} p95_ms={p95:.1f}"
                f" cpu_p50_ms={statistics.median(cpu):.1f} queries={queries.n}",
                flush=True,
            )
            if opts.explain and queries.slowest[1]:
                explain(connection, queries.slowest)
    print(f"pages slowest_p95_ms={worst:.1f} target_ms={TARGET_MS}")


def urls() -> dict[str, str]:
    """Every public list page, and a deep page of each long list (half-way down)."""
    # Imported once Django is set up.
    from django.db.models import Count

    from games import catalog
    from games.play.models import Game, Player, Seat
    from games.ratings.models import Rating

    slug = catalog.slugs()[0]  # one game's filter and leaderboard: the first offered

    games = Game.objects.filter(started_at__isnull=False).order_by("-started_at", "-pk")
    middle = games.values_list("pk", flat=True)[games.count() // 2]
    busy = (  # the player with the most games
        Seat.objects.values("player").annotate(n=Count("pk")).order_by("-n")[0]["player"]
    )
    of_one = games.filter(game_type=slug)
    of_one_middle = of_one.values_list("pk", flat=True)[of_one.count() // 2]
    players = Player.objects.order_by("display_name", "pk").values_list("pk", flat=True)
    player_middle = players[players.count() // 2]
    board = Rating.objects.filter(league=None, game_type=slug).order_by("-ordinal", "-pk")
    board_middle = board.values_list("pk", flat=True)[board.count() // 2]
    game = games.filter(status="finished").values_list("pk", flat=True).first()
    return {
        "home": "/",
        "leagues": "/leagues/",
        "league": "/leagues/league-1/?season=all",
        "archive": "/games/",
        "archive_game": f"/games/?game={slug}",
        "archive_league": "/games/?league=league-2",
        "archive_player": f"/games/?player={busy}",
        "archive_status_running": "/games/?status=running",
        "archive_status_aborted": "/games/?status=aborted",
        "archive_dates": "/games/?since=2024-06-01&until=2024-06-30",
        "archive_all_filters": (
            f"/games/?game={slug}&league=league-3&status=finished&since=2024-03-01"
            f"&until=2025-12-31&player={busy}"
        ),
        "archive_deep": f"/games/?after={middle}",
        "archive_deep_newer": f"/games/?before={middle}",
        "archive_game_deep": f"/games/?game={slug}&after={of_one_middle}",
        "players": "/players/",
        "players_deep": f"/players/?after={player_middle}",
        "players_search": "/players/?q=rossi",
        "players_search_rare": "/players/?q=1234",
        "leaderboard": f"/leaderboard/{slug}/",
        "leaderboard_deep": f"/leaderboard/{slug}/?after={board_middle}",
        "league_table": f"/leaderboard/{slug}/?league=league-1",
        "player": f"/players/{busy}/",
        "game": f"/games/{game}/",
    }


def explain(connection, slowest) -> None:
    took, sql, params = slowest
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        plan = "\n".join("    " + row[0] for row in cursor.fetchall())
    print(f"  slowest query ({took * 1000:.1f} ms): {sql[:300]}\n{plan}")


if __name__ == "__main__":
    sys.exit("python -m bench pages: the entry point sets Django up first")
