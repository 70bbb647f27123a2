"""Computer players against each other: ``python -m bench arena [options] [slug ...]``.

A table seats one player of the *hero* kind and the *opponent* kind everywhere else; the
hero's seat rotates with the game number and every game has its own seed, so each
table size sees the same deals whatever the kinds. A win is rank 1; a first place shared
by k seats counts 1/k for each, so the fair share of a seat is exactly 1/n (the interval
then treats the fractional wins as counts: a slight approximation). For each game and
table size it prints::

    <slug> players=<n> <hero> vs <opponent> games=<N> win=<pct> ci95=<lo>-<hi> fair=<pct>
        rank=<hero mean>/<opponent mean> points=<hero mean>/<opponent mean>
    <slug> players=<n> time <kind> decisions=<N> p50_ms=<x> p95_ms=<y> max_ms=<z>

The interval is Wilson's score interval at 95%. A kind is ``random``, ``easy``,
``normal``, ``heuristic`` or ``hard``; ``hard@0.05`` is the search player with a 50 ms
budget per decision (time-capped, not iteration-capped: strength at a budget), counted on
the CPU clock of the process (so the figures hold on a busy machine). With the optional
``open_spiel`` installed, ``openspiel_ismcts@0.05`` and ``openspiel_mcts@0.05`` are
OpenSpiel's information-set MCTS and its determinized MCTS on the games as OpenSpiel games
(``games.openspiel``, issue 27), on the same clock and budget per decision (0.05 s when no
budget is given). Games run in ``--jobs`` processes. ``--fast`` plays a couple of tiny
games (for tests).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from statistics import mean

from bench.harness.stats import nearest_rank as percentile
from bench.harness.stats import say
from games import catalog
from games.computers import RandomStrategy, needs_history, strategies

SUMMARY = "computer players against each other: win share ± 95% CI, mean rank, decision times"

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# Budgets are counted on the process's CPU clock: "50 ms per decision" is 50 ms of one
# core whether or not the machine is busy with other work (the arena's own processes
# included), and the decision times printed are CPU times, "on one core".
CLOCK = time.process_time

OPENSPIEL_KINDS = ("openspiel_ismcts", "openspiel_mcts")
OPENSPIEL_BUDGET = 0.05


def make_player(slug: str, kind: str):
    """A strategy by kind name; ``name@seconds`` makes a search player purely
    time-budgeted (no iteration cap); a search player without it keeps its own."""
    name, _, budget = kind.partition("@")
    if name in OPENSPIEL_KINDS:
        # Imported here: OpenSpiel is optional, the other kinds run without it.
        from games.openspiel import bots

        return bots.make(name, slug, float(budget or OPENSPIEL_BUDGET), clock=CLOCK)
    strategy = strategies(catalog.get(slug).computers)[name]
    if budget:
        strategy = strategy.with_budget(float(budget), clock=CLOCK)
    elif hasattr(strategy, "with_budget"):
        strategy = strategy.with_budget(strategy.budget, strategy.iterations, clock=CLOCK)
    return strategy


def play(rules, n: int, seed: int, players: list) -> dict:
    """One seeded game between ``players`` (one per seat); its outcome."""
    return play_timed(rules, n, seed, players, [str(i) for i in range(n)])["outcome"]


def win_rate(slug: str, games: int, n: int, heuristic: bool) -> float:
    """The share of games a heuristic seat (rotating) wins among random players (or, with
    ``heuristic`` False, a random seat does): rank 1, shared or not."""
    kind = catalog.get(slug)
    rules = kind.rules
    wins = 0
    for i in range(games):
        players = [RandomStrategy() for _ in range(n)]
        hero = i % n
        if heuristic:
            players[hero] = kind.strategy("heuristic")
        wins += play(rules, n, 10_000 + i, players).ranks[hero] == 1
    return wins / games


def play_timed(rules, n: int, seed: int, players: list, kinds: list[str]) -> dict:
    """One game; returns the outcome and each kind's decision times (seconds)."""
    state = rules.setup(n, seed)
    rng = random.Random(seed)
    histories: list[list[dict]] = [[] for _ in range(n)]
    keep = [needs_history(p) for p in players]
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    while acting := rules.to_act(state):
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        player = players[seat]
        view = rules.view(state, seat)
        legal = rules.legal_actions(state, seat)
        start = CLOCK()
        if keep[seat]:
            action = player.choose(view, legal, rng, histories[seat])
        else:
            action = player.choose(view, legal, rng)
        times[kinds[seat]].append(CLOCK() - start)
        events = rules.apply(state, seat, action)
        for s in range(n):
            if keep[s]:
                hist = histories[s]
                hist.extend(ev for ev in events if ev["to"] is None or s in ev["to"])
    return {"outcome": rules.outcome(state), "times": times}


def win_credit(ranks: list[int], seat: int) -> float:
    """A first place shared by k seats is 1/k of a win for each: the wins of a game sum
    to one, so the fair share of a seat is exactly 1/n."""
    return 1 / ranks.count(1) if ranks[seat] == 1 else 0.0


def play_games(slug: str, n: int, hero: str, opponent: str, games: list[int]) -> list[dict]:
    """A batch of games (one process's share): hero at seat ``i % n`` of game ``i``."""
    rules = catalog.get(slug).rules
    hero_player, opponent_player = make_player(slug, hero), make_player(slug, opponent)
    results = []
    for i in games:
        seat = i % n
        players = [opponent_player] * n
        kinds = [opponent] * n
        players[seat], kinds[seat] = hero_player, hero
        result = play_timed(rules, n, 10_000 + i, players, kinds)
        outcome = result["outcome"]
        results.append(
            {
                "seat": seat,
                "ranks": list(outcome.ranks),
                "scores": list(outcome.scores),
                "times": result["times"],
            }
        )
    return results


def table(
    slug: str, n: int, hero: str, opponent: str, games: int, jobs: int, first: int = 0
) -> dict:
    """Play ``games`` games of a table size in ``jobs`` processes; the statistics."""
    numbers = list(range(first, first + games))
    if jobs > 1:
        shares = [numbers[j::jobs] for j in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(play_games, slug, n, hero, opponent, s) for s in shares]
            results = [r for f in futures for r in f.result()]
    else:
        results = play_games(slug, n, hero, opponent, numbers)
    wins = sum(win_credit(r["ranks"], r["seat"]) for r in results)
    hero_ranks = [r["ranks"][r["seat"]] for r in results]
    opp_ranks = [x for r in results for s, x in enumerate(r["ranks"]) if s != r["seat"]]
    hero_points = [r["scores"][r["seat"]] for r in results]
    opp_points = [x for r in results for s, x in enumerate(r["scores"]) if s != r["seat"]]
    times: dict[str, list[float]] = {}
    for r in results:
        for kind, ts in r["times"].items():
            times.setdefault(kind, []).extend(ts)
    lo, hi = wilson(wins, len(results))
    return {
        "slug": slug,
        "n": n,
        "hero": hero,
        "opponent": opponent,
        "games": len(results),
        "win": wins / len(results),
        "ci": (lo, hi),
        "fair": 1 / n,
        "rank": (mean(hero_ranks), mean(opp_ranks)),
        "points": (mean(hero_points), mean(opp_points)),
        "times": times,
    }


def report(t: dict) -> list[str]:
    lo, hi = t["ci"]
    lines = [
        f"{t['slug']} players={t['n']} {t['hero']} vs {t['opponent']} games={t['games']}"
        f" win={t['win']:.1%} ci95={lo:.1%}-{hi:.1%} fair={t['fair']:.1%}"
        f" ratio={t['win'] / t['fair']:.2f}"
        f" rank={t['rank'][0]:.2f}/{t['rank'][1]:.2f}"
        f" points={t['points'][0]:.1f}/{t['points'][1]:.1f}"
    ]
    for kind, ts in t["times"].items():
        lines.append(
            f"{t['slug']} players={t['n']} time {kind} decisions={len(ts)}"
            f" p50_ms={percentile(ts, 50) * 1e3:.2f} p95_ms={percentile(ts, 95) * 1e3:.2f}"
            f" max_ms={max(ts, default=0) * 1e3:.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(
        prog="python -m bench arena", description=__doc__.splitlines()[0]
    )
    parser.add_argument("slugs", nargs="*", help="default: every game that has both levels")
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--vs", default="normal", dest="opponent")
    parser.add_argument("--games", type=int, default=100, help="per table size")
    parser.add_argument("--players", type=int, nargs="*", default=[], help="table sizes")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first game number")
    parser.add_argument("--fast", action="store_true", help="2 games per size, 5 ms budget")
    args = parser.parse_args(argv)
    games, hero = args.games, args.hero
    if not args.slugs:
        # The games whose computers have both levels played (a game without decisions has
        # only the random player and the heuristic, and nothing to measure).
        levels = {hero.partition("@")[0], args.opponent.partition("@")[0]} - set(OPENSPIEL_KINDS)
        args.slugs = [k.slug for k in catalog.all_games() if levels <= set(k.strategies())]
    if args.fast:
        games = 2
        if hero.startswith(("hard", *OPENSPIEL_KINDS)) and "@" not in hero:
            hero += "@0.005"
    tables = []
    for slug in args.slugs:
        sizes = args.players or [catalog.get(slug).table_players]
        for n in sizes:
            t = table(slug, n, hero, args.opponent, games, args.jobs, args.first)
            tables.append(t)
            for line in report(t):
                say(line)
    return tables


if __name__ == "__main__":
    main()
