"""Heuristic against random: ``python -m bench.arena [--games N] [slug ...]``.

For each game, N seeded games with one heuristic seat (rotating) and random players in the
other seats, then N all-random games as the baseline. A win is rank 1 (shared wins count).
Prints ``<slug> players=<n> heuristic_win=<pct> random_win=<pct> games=<N>``.
"""

from __future__ import annotations

import argparse
import random

from games import catalog
from games.computers import RandomStrategy, act


def play(rules, n: int, seed: int, players: list) -> dict:
    state = rules.setup(n, seed)
    rng = random.Random(seed)
    while acting := rules.to_act(state):
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        rules.apply(state, seat, act(rules, state, seat, players[seat], rng))
    return rules.outcome(state)


def win_rate(slug: str, games: int, n: int, heuristic: bool) -> float:
    kind = catalog.get(slug)
    rules = kind.rules
    wins = 0
    for i in range(games):
        players = [RandomStrategy() for _ in range(n)]
        hero = i % n
        if heuristic:
            players[hero] = kind.strategy("heuristic")
        wins += play(rules, n, 10_000 + i, players)["ranks"][hero] == 1
    return wins / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", default=list(catalog.slugs()))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=0, help="0: the usual table size")
    args = parser.parse_args(argv)
    for slug in args.slugs:
        n = args.players or catalog.get(slug).table_players
        h = win_rate(slug, args.games, n, heuristic=True)
        r = win_rate(slug, args.games, n, heuristic=False)
        print(
            f"{slug} players={n} heuristic_win={h:.1%} random_win={r:.1%} games={args.games}",
            flush=True,
        )


if __name__ == "__main__":
    main()
