"""The tournament bench (issue 26, part 5): ``python -m bench tournament [--short] [--pure]``.

By default through the real pipeline (``bench.tournament_pipeline``: PostgreSQL, Redis,
Celery workers, the games played by computers): a 128-player Swiss, 5 rounds, tables of
4, then a 64-player, 30-minute Arena, each of a game the catalog has for it
(``bench.harness.games``). One line per tournament::

    tournament swiss players=128 rounds=5 pairing_ms_max=<x> repeats=<k> total_s=<x>
        round_gap_ms_max=<x> games=<k>
    tournament arena players=64 minutes=30 games=<k> reseat_p50_ms=<x> reseat_p95_ms=<x>
        reseat_max_ms=<x> mean_ms=<x>

``--short`` plays a 16-player, 3-round Swiss and an 8-player, 1-minute Arena (CI).

``--pure`` plays no game: the pairing and the arena's lobby (``games.tournaments``) under
simulated results, with no database, in the same two lines (the arena's with
``compute_p95_ms``); ``--short`` there is a 32-player, 3-round Swiss and a 16-player,
20-minute arena.

- **Swiss**: the catalog's first game that allows tables of 3 to 5, tables of 4 (only 3
  used when the count does not divide), random places from the seed. ``pairing_ms_max`` is
  the slowest round's pairing (standings included), ``repeats`` the pairs seated together
  in the whole tournament who had already met (issue 26: 0 in 5 rounds, pairing <= 1 s).
- **Arena**: the catalog's first game played at one table size only, at that size (4),
  everyone joins at the start, each game lasts a random 8 to 15 simulated minutes, no
  table starts after the window. After a game each player reads the result for 2 to 30
  simulated seconds before asking for another (the arena keeps them paused until then), so
  players come back one by one. A *reseat* is a player's time from coming back to their
  next table: the simulated wait for enough players plus the wall time of the seating
  computation (added to the simulated clock, so a slow seating delays everyone).
  ``compute_p95_ms`` is the computation alone, which is the whole reseat when enough
  players already wait (issue 26: p95 <= 3 s then).
"""

from __future__ import annotations

import argparse
import heapq
import random
import sys
import time

from bench.harness.games import arena_game, swiss_game
from bench.harness.stats import nearest_rank as percentile
from bench.harness.stats import say
from games import catalog
from games.tournaments.pairing.arena import Arena, ArenaRules
from games.tournaments.pairing.results import RoundResult, TableResult, count_repeats
from games.tournaments.pairing.swiss import SwissRules, history, next_round

SUMMARY = (
    "Swiss pairing and arena seating: pairing ms, repeats, reseat p50/p95 (--pure: no database)"
)

FULL = {"swiss": (128, 5), "arena": (64, 30)}
SHORT = {"swiss": (32, 3), "arena": (16, 20)}  # the pure simulation's
PIPELINE_SHORT = {"swiss": (16, 3), "arena": (8, 1)}


def random_places(tables, rng: random.Random) -> tuple[TableResult, ...]:
    results = []
    for table in tables:
        ranks = list(range(1, len(table) + 1))
        rng.shuffle(ranks)
        results.append(TableResult(tuple(table), tuple(ranks)))
    return tuple(results)


def swiss(players: int, rounds: int, seed: int) -> dict:
    rules_ = catalog.get(swiss_game()).rules
    rules = SwissRules(
        rounds=rounds,
        table_size=4,
        allowed_sizes=frozenset(range(rules_.min_players, rules_.max_players + 1)),
        seed=seed,
    )
    rng = random.Random(f"swiss:{seed}")
    entrants = [f"player{i}" for i in range(players)]
    results: list[RoundResult] = []
    pairing_s, repeats = [], 0
    started = time.perf_counter()
    for _ in range(rounds):
        met, _ = history(results)
        t0 = time.perf_counter()
        pairing = next_round(entrants, results, rules)
        pairing_s.append(time.perf_counter() - t0)
        repeats += count_repeats(pairing.tables, met)
        results.append(RoundResult(random_places(pairing.tables, rng), pairing.byes))
    return {
        "players": players,
        "rounds": rounds,
        "pairing_ms_max": max(pairing_s) * 1e3,
        "repeats": repeats,
        "total_s": time.perf_counter() - started,
    }


def arena(players: int, minutes: int, seed: int) -> dict:
    size = catalog.get(arena_game()).table_players
    lobby = Arena(size, size, ArenaRules(closes_at=minutes * 60.0))
    rng = random.Random(f"arena:{seed}")
    events: list[tuple[float, int, str, object]] = []  # (time, order, kind, what)
    back_at: dict[str, float] = {}  # when a waiting player came back for another game
    reseat_s, compute_s = [], []
    games = 0
    for i in range(players):
        heapq.heappush(events, (0.0, len(events), "join", f"player{i}"))
    order = len(events)
    while events:
        now, _, kind, what = heapq.heappop(events)
        if kind == "join":
            lobby.join(what, now)
        elif kind == "back":
            lobby.join(what, now)
            back_at[what] = now
        else:
            # Paused until they tap for another game: a few seconds on the result first.
            for player in what.players:
                lobby.pause(player)
            lobby.finished(what, now)
            games += 1
            for player in what.players:
                order += 1
                heapq.heappush(events, (now + rng.uniform(2, 30), order, "back", player))
        t0 = time.perf_counter()
        tables = lobby.seat(now)
        spent = time.perf_counter() - t0
        now += spent  # the computation delays the start of the tables it forms
        if tables:
            compute_s.append(spent)
        for table in tables:
            for player in table:
                if player in back_at:
                    reseat_s.append(now - back_at.pop(player))
            order += 1
            result = random_places([table], rng)[0]
            heapq.heappush(events, (now + 60 * rng.uniform(8, 15), order, "end", result))
    return {
        "players": players,
        "minutes": minutes,
        "games": games,
        "reseat_p50_ms": percentile(reseat_s, 50) * 1e3,
        "reseat_p95_ms": percentile(reseat_s, 95) * 1e3,
        "compute_p95_ms": percentile(compute_s, 95) * 1e3,
    }


def main(argv: list[str] | None = None) -> list[str]:
    parser = argparse.ArgumentParser(
        prog="python -m bench tournament", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--short", action="store_true", help="a smaller pair, for CI")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--pure", action="store_true", help="no database: the pairing alone")
    parser.add_argument("--strategy", default="easy", help="the computers playing the games")
    parser.add_argument("--workers", type=int, default=4, help="Celery worker processes")
    parser.add_argument(
        "--timeout",
        type=float,
        default=1800.0,
        help="seconds a tournament may take (arena: past its window)",
    )
    parser.add_argument(
        "--arena-minutes", type=int, help="the arena's window instead of its size's (30 or 1)"
    )
    parser.add_argument("--only", choices=["swiss", "arena"], help="one of the two (pipeline)")
    args = parser.parse_args(argv)
    if not args.pure:
        return through_the_pipeline(args)
    sizes = SHORT if args.short else FULL
    s = swiss(*sizes["swiss"], args.seed)
    a = arena(*sizes["arena"], args.seed)
    lines = [
        f"tournament swiss players={s['players']} rounds={s['rounds']}"
        f" pairing_ms_max={s['pairing_ms_max']:.1f} repeats={s['repeats']}"
        f" total_s={s['total_s']:.2f}",
        f"tournament arena players={a['players']} minutes={a['minutes']} games={a['games']}"
        f" reseat_p50_ms={a['reseat_p50_ms']:.1f} reseat_p95_ms={a['reseat_p95_ms']:.1f}"
        f" compute_p95_ms={a['compute_p95_ms']:.3f}",
    ]
    for line in lines:
        say(line)
    return lines


def through_the_pipeline(args) -> list[str]:
    from bench.harness import project

    project.setup()
    # Imported once Django is set up: it imports the models. The pipeline imports nothing
    # of this module (what both need is the harness's), so this is no import loop.
    from bench import tournament_pipeline

    sizes = dict(PIPELINE_SHORT if args.short else FULL)
    if args.arena_minutes:
        sizes["arena"] = (sizes["arena"][0], args.arena_minutes)
    try:
        lines = tournament_pipeline.run(
            sizes["swiss"],
            sizes["arena"],
            seed=args.seed,
            strategy=args.strategy,
            workers=args.workers,
            timeout=args.timeout,
            report=say,
            only=args.only,
        )
    except (tournament_pipeline.BenchFailed, RuntimeError) as exc:
        sys.exit(f"tournament bench: {exc}")
    return lines
