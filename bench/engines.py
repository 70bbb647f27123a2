"""Engine benchmark: ``python -m bench engines [--seconds S] [--versus SLUG] [slug ...]``.

Prints one line per game::

    <slug> games/s=<n> us/action=<n> state_bytes=<n>

Random legal actions, seeded. ``us/action`` is the time of the whole loop (setup,
``to_act``, ``legal_actions``, the random choice and ``apply``) over the actions applied;
``state_bytes`` is the largest dumped state (compact JSON) seen at sampled steps. Time is
this process's CPU time (``time.process_time``), for every line: on a free core it is the
wall time, and on a shared, busy machine the other processes' turns on the core do not
count, so the ratios of one run compare the engines and not the moments they ran at.

When the optional ``open_spiel`` package is installed, OpenSpiel's Hearts is driven by the
same loop from Python in the same run (chance outcomes count as actions) and a line
``openspiel_hearts us/action=<n> ratio=<ours/openspiel>`` follows, ours being the game
``--versus`` names: by default the catalog's first game played by exactly four, Hearts'
table. A second line,
``openspiel_hearts_per_decision``, divides the same time by the players' decisions only:
our engines deal inside ``apply``, so this counts Hearts' dealing the way ours is counted.

A line ``python_loop us/action=<n>`` drives an engine that does nothing through the
same loop: the cost of the loop itself (the calls, the list handed back, the random
choice), which no Python engine can go below. Whatever an engine costs above it is its
own work.

Then the search's view: random playouts on the fast path (``legal_ids`` and
``apply_id``: integer actions, no events), from a fresh ``setup`` each, one line per game
that has an integer action space, OpenSpiel's Hearts the same way (``legal_actions`` and
``apply_action``, chance outcomes included), and their ratios::

    <slug> fast playouts/s=<n> us/action=<n>
    openspiel_hearts fast playouts/s=<n> us/action=<n> us/decision=<n>
    <versus>/openspiel_hearts us/action_ratio=<n> us/decision_ratio=<n> playout_ratio=<n>

``us/action_ratio`` divides the compared game's time per action by Hearts' per action, its
chance outcomes (the 52 cards dealt one by one, the pass direction) counted as actions;
``us/decision_ratio`` by Hearts' per decision, its dealing in the time but not in the
count, as our engines deal inside ``apply`` (every one of our actions is a decision). The
playout ratio compares whole games: a match of ours may be many deals, a Hearts game
one, so it says what a search pays per playout, not which engine is faster.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bench.harness.stats import say
from games import catalog

SUMMARY = "the game engines alone: games/s, µs per action, state size"

# CPU time of this process: see the module's docstring.
clock = time.process_time


def bench_engine(slug: str, seconds: float, seed: int = 1) -> dict:
    kind = catalog.get(slug)
    return {"slug": slug, **drive(kind.rules, kind.table_players, seconds, seed)}


def drive(rules, n: int, seconds: float, seed: int = 1) -> dict:
    rng = random.Random(seed)
    games = actions = 0
    state_bytes = 0
    to_act, legal_actions, apply, choice = (
        rules.to_act,
        rules.legal_actions,
        rules.apply,
        rng.choice,
    )
    elapsed = 0.0
    while elapsed < seconds:
        game_seed = rng.randrange(2**31)
        start = clock()
        state = rules.setup(n, game_seed)
        count = 0
        while True:
            acting = to_act(state)
            if not acting:
                break
            # One random draw per action when one seat acts, as in the OpenSpiel loop.
            seat = acting[0] if len(acting) == 1 else choice(acting)
            apply(state, seat, choice(legal_actions(state, seat)))
            count += 1
        elapsed += clock() - start
        # Size is sampled outside the timed loop: replay the same game and dump often.
        if games % 20 == 0:
            state_bytes = max(state_bytes, largest_dump(rules, n, game_seed, seed + games))
        games += 1
        actions += count
    return {
        "games_per_s": games / elapsed,
        "us_per_action": elapsed / actions * 1e6,
        "state_bytes": state_bytes,
    }


def drive_fast(rules, n: int, seconds: float, seed: int = 1) -> dict:
    """Random playouts on the integer fast path, from a fresh set-up each."""
    rng = random.Random(seed)
    choice = rng.choice
    to_act, legal_ids, apply_id = rules.to_act, rules.legal_ids, rules.apply_id
    games = actions = 0
    elapsed = 0.0
    while elapsed < seconds:
        game_seed = rng.randrange(2**31)
        start = clock()
        state = rules.setup(n, game_seed)
        while acting := to_act(state):
            seat = acting[0] if len(acting) == 1 else choice(acting)
            apply_id(state, seat, choice(legal_ids(state, seat)))
            actions += 1
        elapsed += clock() - start
        games += 1
    return {"playouts_per_s": games / elapsed, "us_per_action": elapsed / actions * 1e6}


def largest_dump(rules, n: int, game_seed: int, choice_seed: int) -> int:
    rng = random.Random(choice_seed)
    state = rules.setup(n, game_seed)
    largest = 0
    while True:
        largest = max(largest, len(json.dumps(rules.dump(state), separators=(",", ":"))))
        acting = rules.to_act(state)
        if not acting:
            return largest
        seat = rng.choice(acting)
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))


class NullRules:
    """An engine that does nothing: one seat acts, four actions are legal, ``apply``
    returns one event, and a game ends after ``LENGTH`` actions."""

    LENGTH = 100
    ACTIONS = ("play:LO", "play:HA", "play:B7", "throw")

    def setup(self, n_players: int, seed: int) -> list[int]:
        return [0]

    def to_act(self, state: list[int]) -> list[int]:
        return [state[0] & 3] if state[0] < self.LENGTH else []

    def legal_actions(self, state: list[int], seat: int) -> list[str]:
        return list(self.ACTIONS)

    def apply(self, state: list[int], seat: int, action: str) -> list[dict]:
        state[0] += 1
        return [{"type": "play", "to": None, "seat": seat, "action": action}]

    def dump(self, state: list[int]) -> dict:
        return {"n": state[0]}


def bench_openspiel_hearts(seconds: float, seed: int = 1) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    choice = rng.choice
    actions = decisions = games = 0
    elapsed = 0.0
    while elapsed < seconds:
        start = clock()
        games += 1
        state = game.new_initial_state()
        count = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(choice(state.legal_actions()))
            count += 1
        elapsed += clock() - start
        actions += count
        decisions += count - chance
    return {
        "us_per_action": elapsed / actions * 1e6,
        "us_per_decision": elapsed / decisions * 1e6,
        "playouts_per_s": games / elapsed,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench engines", description=__doc__.splitlines()[0]
    )
    parser.add_argument("slugs", nargs="*", default=list(catalog.slugs()))
    parser.add_argument("--seconds", type=float, default=3.0, help="per game")
    parser.add_argument(
        "--versus",
        default=next(
            (k.slug for k in catalog.all_games() if k.min_players == k.max_players == 4), ""
        ),
        help="the game compared with OpenSpiel's Hearts (default: the first one for exactly four)",
    )
    args = parser.parse_args(argv)
    versus = args.versus
    results = {}
    for slug in args.slugs:
        r = bench_engine(slug, args.seconds)
        results[slug] = r
        print(
            f"{slug} games/s={r['games_per_s']:.1f} us/action={r['us_per_action']:.2f}"
            f" state_bytes={r['state_bytes']}",
            flush=True,
        )
    hearts = bench_openspiel_hearts(args.seconds)
    if hearts is not None:
        for name, key in (
            ("openspiel_hearts", "us_per_action"),
            ("openspiel_hearts_per_decision", "us_per_decision"),
        ):
            line = f"{name} us/action={hearts[key]:.2f}"
            if versus in results:
                line += f" ratio={results[versus]['us_per_action'] / hearts[key]:.2f}"
            say(line)
    floor = drive(NullRules(), 4, args.seconds)
    say(f"python_loop us/action={floor['us_per_action']:.2f}")
    fast = {}
    for slug in args.slugs:
        kind = catalog.get(slug)
        if not kind.rules.n_actions:
            continue
        r = fast[slug] = drive_fast(kind.rules, kind.table_players, args.seconds)
        print(
            f"{slug} fast playouts/s={r['playouts_per_s']:.1f} us/action={r['us_per_action']:.2f}",
            flush=True,
        )
    if hearts is not None:
        print(
            f"openspiel_hearts fast playouts/s={hearts['playouts_per_s']:.1f}"
            f" us/action={hearts['us_per_action']:.2f}"
            f" us/decision={hearts['us_per_decision']:.2f}",
            flush=True,
        )
        if versus in fast:
            sc = fast[versus]
            print(
                f"{versus}/openspiel_hearts"
                f" us/action_ratio={sc['us_per_action'] / hearts['us_per_action']:.2f}"
                f" us/decision_ratio={sc['us_per_action'] / hearts['us_per_decision']:.2f}"
                f" playout_ratio={hearts['playouts_per_s'] / sc['playouts_per_s']:.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
