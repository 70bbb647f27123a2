"""Post-game review benchmark (issues 27, 47): ``python -m bench review [--games N]
[--short] [--jobs J] [slug ...]``.

Plays ``N`` games of each game that has a search player (every seat the easy computer,
seeded), then reviews them as if every seat were a person (the most a game can cost),
with the product's default budget: the hard player's playouts per decision and at most
``--max-decisions`` full decisions a game. Prints two lines per game kind::

    review <slug> players=<n> games=<n> decisions/game=<p50> p50_s=<s> p95_s=<s> \
        max_s=<s> goal_s=30 <ok|over>
    review <slug> graded/game inaccuracy=<mean> mistake=<mean> blunder=<mean>

(the first is one line, wrapped here). Seconds are the CPU time of the process that
reviewed the game (one core), so a busy machine does not inflate them. The goal
(issue 47) is at most 30 s for a game: ``ok`` when the p95 is within it. ``--short`` is
CI's size (2 games a kind in 2 processes: a few minutes in all); ``--jobs`` reviews that
many games at once, each on its own core. No Django set-up: the catalog is read for the
games' modules only.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module

from bench.harness.stats import at_fraction as percentile
from bench.harness.stats import say
from games import catalog
from games.computers import act
from games.computers.review import BLUNDER, INACCURACY, MISTAKE, Played, review_game

SUMMARY = "the post-game review's cost: p50/p95 seconds per game"

# The games with a search player (the hard level), their engine's and computers' modules,
# and the table size measured (the usual table).
GAMES = {
    kind.slug: (kind.engine, kind.computers, kind.table_players)
    for kind in catalog.all_games()
    if kind.computers and "hard" in kind.strategies()
}
# The product's defaults (config/settings.py: REVIEW_SCALE, REVIEW_MAX_DECISIONS).
SCALE = 1.0
MAX_DECISIONS = 90
GOAL_S = 30.0  # issue 47: a game's review, on one core
SHORT_GAMES, SHORT_JOBS = 2, 2  # --short: CI's two cores


def play(rules, strategy, n: int, seed: int) -> list[Played]:
    state = rules.setup(n, seed)
    rng = random.Random(seed)
    moves = []
    while acting := rules.to_act(state):
        seat = acting[0]
        action = act(rules, state, seat, strategy, rng)
        rules.apply(state, seat, action)
        moves.append(Played(seat, action))
    return moves


def review_one(slug: str, seed: int, scale: float, max_decisions: int) -> tuple[float, list[str]]:
    """One game of ``slug`` played from ``seed`` and reviewed: the review's CPU seconds
    (this process's: one core) and the grades given."""
    engine, computers, n = GAMES[slug]
    rules = import_module(engine).RULES
    strategies = import_module(computers).STRATEGIES
    search = strategies["hard"]
    cap = int(max_decisions * search.playouts({"n_players": n}))
    moves = play(rules, strategies["easy"], n, seed)
    started = time.process_time()
    verdicts = review_game(rules, search, n, seed, {}, moves, scale=scale, max_playouts=cap)
    return time.process_time() - started, [v.grade for v in verdicts]


def lines(slug: str, reviews: list[tuple[float, list[str]]]) -> list[str]:
    """The two lines of one game kind from its games' reviews."""
    n = GAMES[slug][2]
    games = len(reviews)
    seconds = [s for s, _ in reviews]
    decisions = [len(grades) for _, grades in reviews]
    graded = {INACCURACY: 0, MISTAKE: 0, BLUNDER: 0}
    for _, grades in reviews:
        for g in grades:
            if g:
                graded[g] += 1
    p95 = percentile(seconds, 0.95)
    return [
        f"review {slug} players={n} games={games}"
        f" decisions/game={statistics.median(decisions):.0f}"
        f" p50_s={percentile(seconds, 0.5):.1f} p95_s={p95:.1f} max_s={max(seconds):.1f}"
        f" goal_s={GOAL_S:.0f} {'ok' if p95 <= GOAL_S else 'over'}",
        f"review {slug} graded/game "
        + " ".join(f"{grade}={count / games:.1f}" for grade, count in graded.items()),
    ]


def bench(slug: str, games: int, scale: float, max_decisions: int) -> list[str]:
    return lines(slug, [review_one(slug, seed, scale, max_decisions) for seed in range(games)])


def run(slugs: list[str], games: int, scale: float, max_decisions: int, jobs: int) -> None:
    """Print each kind's lines as soon as its games are reviewed; with ``jobs`` > 1 the
    games run in that many processes (each review still on one core)."""
    if jobs <= 1:
        for slug in slugs:
            for line in bench(slug, games, scale, max_decisions):
                say(line)
        return
    # Spawned, not forked: a fork of a process with threads (a test's, a site's) can
    # copy a lock held by another thread, and the child waits on it for ever.
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {
            slug: [
                pool.submit(review_one, slug, seed, scale, max_decisions) for seed in range(games)
            ]
            for slug in slugs
        }
        for slug in slugs:
            for line in lines(slug, [f.result() for f in futures[slug]]):
                say(line)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench review", description=__doc__)
    parser.add_argument("slugs", nargs="*", metavar="slug", help=", ".join(GAMES))
    parser.add_argument("--games", type=int, default=None, help="games per kind (default 3)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default 1)")
    parser.add_argument(
        "--short",
        action="store_true",
        help=f"CI's size: {SHORT_GAMES} games a kind in {SHORT_JOBS} processes",
    )
    parser.add_argument("--scale", type=float, default=SCALE)
    parser.add_argument("--max-decisions", type=int, default=MAX_DECISIONS)
    args = parser.parse_args(argv)
    games = args.games or (SHORT_GAMES if args.short else 3)
    jobs = args.jobs or (SHORT_JOBS if args.short else 1)
    for slug in args.slugs:
        if slug not in GAMES:
            parser.error(f"no review for {slug!r} (known: {', '.join(GAMES)})")
    run(args.slugs or list(GAMES), games, args.scale, args.max_decisions, jobs)


if __name__ == "__main__":
    main()
