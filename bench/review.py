"""Post-game review benchmark (issue 27): ``python -m bench review [--games N] [slug ...]``.

Plays ``N`` games of each game that has a search player (every seat the easy computer,
seeded), then reviews them as if every seat were a person (the most a game can cost),
with the product's default budget: the hard player's playouts per decision and at most
``--max-decisions`` full decisions a game. Prints one line per game kind::

    <slug> players=<n> games=<n> decisions/game=<p50> review_s/game p50=<s> p95=<s> max=<s>
    <slug> graded/game inaccuracy=<mean> mistake=<mean> blunder=<mean>

Seconds are CPU time of this process (one core), so a busy machine does not inflate
them. The goal is at most 30 s for a game. No Django set-up: the catalog is read for the
games' modules only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
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


def bench(slug: str, games: int, scale: float, max_decisions: int) -> list[str]:
    engine, computers, n = GAMES[slug]
    rules = import_module(engine).RULES
    strategies = import_module(computers).STRATEGIES
    search = strategies["hard"]
    cap = int(max_decisions * search.playouts({"n_players": n}))
    seconds, decisions, graded = [], [], {INACCURACY: 0, MISTAKE: 0, BLUNDER: 0}
    for seed in range(games):
        moves = play(rules, strategies["easy"], n, seed)
        started = time.process_time()
        verdicts = review_game(rules, search, n, seed, {}, moves, scale=scale, max_playouts=cap)
        seconds.append(time.process_time() - started)
        decisions.append(len(verdicts))
        for v in verdicts:
            if v.grade:
                graded[v.grade] += 1
    return [
        f"{slug} players={n} games={games} decisions/game={statistics.median(decisions):.0f}"
        f" review_s/game p50={percentile(seconds, 0.5):.1f} p95={percentile(seconds, 0.95):.1f}"
        f" max={max(seconds):.1f}",
        f"{slug} graded/game "
        + " ".join(f"{grade}={count / games:.1f}" for grade, count in graded.items()),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench review", description=__doc__)
    parser.add_argument("slugs", nargs="*", metavar="slug", help=", ".join(GAMES))
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--scale", type=float, default=SCALE)
    parser.add_argument("--max-decisions", type=int, default=MAX_DECISIONS)
    args = parser.parse_args(argv)
    for slug in args.slugs or list(GAMES):
        for line in bench(slug, args.games, args.scale, args.max_decisions):
            say(line)


if __name__ == "__main__":
    main()
