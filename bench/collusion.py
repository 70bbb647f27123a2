"""``python -m bench collusion``: the collusion statistic (``games.moderation.collusion``)
over seeded computer games: how many pairs it flags among honest games (false alarms),
whether it flags a planted pair, and its cost.

Honest games: a pool of players, each game a random table of them played to its end by
random computer players with the pure engine (the first game of the catalog that seats 3
to 5). Planted games: the same, with the partner at every table of the beneficiary,
throwing the game their way: the partner finishes last and the beneficiary one place
higher than the engine had them (one seat throwing points to another).

Prints exactly: ``collusion honest_games=<n> false_alarm_pairs=<k>
planted_flagged=<yes|no> seconds_per_100k=<x>``.
"""

from __future__ import annotations

import argparse
import random
import time

from games import catalog
from games.moderation.collusion import Game, placements, signals

SUMMARY = "the collusion statistic: false alarms over honest games, a planted pair found"

BENEFICIARY, PARTNER = 0, 1


def _kind():
    for kind in catalog.all_games():
        if kind.rules.min_players <= 3 and kind.rules.max_players >= 5:
            return kind
    return catalog.all_games()[0]


def _ranks(rules, n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    state = rules.setup(n, seed)
    while acting := rules.to_act(state):
        seat = rng.choice(acting)
        rules.apply_id(state, seat, rng.choice(rules.legal_ids(state, seat)))
    return list(rules.outcome(state).ranks)


def _thrown(ranks: list[int], beneficiary: int, partner: int) -> list[int]:
    """The places after the partner throws the game: last, and the beneficiary one up."""
    order = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    order.remove(partner)
    i = order.index(beneficiary)
    if i > 0:
        order[i - 1], order[i] = order[i], order[i - 1]
    order.append(partner)
    places = [0] * len(ranks)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def simulate(honest: int, planted: int, pool: int, seed: int) -> tuple[list[Game], list[Game]]:
    rules = _kind().rules
    low, high = max(rules.min_players, 3), min(rules.max_players, 5)
    rng = random.Random(seed)
    honest_games, planted_games = [], []
    for i in range(honest + planted):
        n = rng.randint(low, high)
        if i < honest:
            people = rng.sample(range(pool), n)
        else:
            others = rng.sample(range(2, pool), n - 2)
            people = [BENEFICIARY, PARTNER, *others]
            rng.shuffle(people)
        ranks = _ranks(rules, n, seed * 1_000_003 + i)
        if i >= honest:
            ranks = _thrown(ranks, people.index(BENEFICIARY), people.index(PARTNER))
        game = Game(i, dict(zip(people, placements(ranks), strict=True)))
        (honest_games if i < honest else planted_games).append(game)
    return honest_games, planted_games


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench collusion")
    parser.add_argument("--honest", type=int, default=1000)
    parser.add_argument("--planted", type=int, default=60)
    parser.add_argument("--pool", type=int, default=24)
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args(argv)
    honest, planted = simulate(args.honest, args.planted, args.pool, args.seed)
    alarms, _tested = signals(honest)
    false_pairs = {frozenset((s.beneficiary, s.partner)) for s in alarms}
    everything = honest + planted
    repeats = 5
    started = time.perf_counter()
    for _ in range(repeats):
        found, _tested = signals(everything)
    seconds = (time.perf_counter() - started) / repeats
    flagged = any(s.beneficiary == BENEFICIARY and s.partner == PARTNER for s in found)
    per_100k = seconds / len(everything) * 100_000
    print(
        f"collusion honest_games={len(honest)} false_alarm_pairs={len(false_pairs)} "
        f"planted_flagged={'yes' if flagged else 'no'} seconds_per_100k={per_100k:.2f}"
    )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
