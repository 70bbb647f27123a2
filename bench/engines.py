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
    <slug> fused playouts/s=<n> us/action=<n>
    openspiel_hearts fast playouts/s=<n> us/action=<n> us/decision=<n>
    <versus>/openspiel_hearts us/action_ratio=<n> us/decision_ratio=<n> playout_ratio=<n>
        path=<fused|generic>[ generic_action_ratio=<n>]

(the last on one line). A ``fused`` line follows the fast line of a game whose rules fuse
the playout into one function (``Rules.playout``, ``fused_playout``): the same uniformly
random choices and the same actions counted, without a method call per action, future
deals drawn from the playout's rng. It is what the search's ``random_rollout`` pays, so
the compared pair's ratios use it when there is one (``path=fused``), and
``generic_action_ratio`` gives the per-action ratio of the generic loop beside it.

The compared game's lines and Hearts' are timed in turns, a playout of the one with
less time so far at a time (``paired``, ``in_turns``), so that a load coming and going on
a shared machine weighs on all alike rather than on whichever ran in its moment.
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
from collections.abc import Iterator

from bench.harness.stats import say
from games import catalog

SUMMARY = "the game engines alone: games/s, µs per action, state size"

# CPU time of this process: see the module's docstring.
clock = time.process_time
# One playout: its time, its actions, its decisions.
Playout = tuple[float, int, int]


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


def fast_playouts(rules, n: int, seed: int = 1) -> Iterator[Playout]:
    """Random playouts on the integer fast path, from a fresh set-up each: per playout,
    its time, its actions and its decisions (the same: our engines deal inside apply)."""
    rng = random.Random(seed)
    choice = rng.choice
    to_act, legal_ids, apply_id = rules.to_act, rules.legal_ids, rules.apply_id
    while True:
        game_seed = rng.randrange(2**31)
        start = clock()
        state = rules.setup(n, game_seed)
        count = 0
        while acting := to_act(state):
            seat = acting[0] if len(acting) == 1 else choice(acting)
            apply_id(state, seat, choice(legal_ids(state, seat)))
            count += 1
        yield clock() - start, count, count


def fused_playouts(rules, n: int, seed: int = 1) -> Iterator[Playout]:
    """``fast_playouts`` through the rules' own ``playout`` (one call per playout), from
    a fresh set-up each; the actions it reports are the ones the generic loop counts."""
    rng = random.Random(seed)
    setup, playout = rules.setup, rules.playout
    while True:
        game_seed = rng.randrange(2**31)
        start = clock()
        count = playout(setup(n, game_seed), rng)
        yield clock() - start, count, count


def drive_fast(rules, n: int, seconds: float, seed: int = 1) -> dict:
    """Random playouts on the integer fast path, from a fresh set-up each."""
    return totals(fast_playouts(rules, n, seed), seconds)


def totals(playouts: Iterator[Playout], seconds: float) -> dict:
    """Playouts taken until their time adds up to ``seconds``, and their rates."""
    played, elapsed = [], 0.0
    while elapsed < seconds:
        played.append(playout := next(playouts))
        elapsed += playout[0]
    return rates(played)


def paired(ours: Iterator[Playout], theirs: Iterator[Playout], seconds: float) -> tuple[dict, dict]:
    """Two engines' playouts taken in turns, the one with less time so far next, until
    each has ``seconds``: both are timed in the same moments, so a load that comes and
    goes on a shared machine weighs on both alike and their ratio stays put."""
    mine, other = in_turns([ours, theirs], seconds)
    return mine, other


def in_turns(sources: list[Iterator[Playout]], seconds: float) -> list[dict]:
    """``paired`` for any number of sources: the one with less time so far (the first
    of them on a tie) plays next, until each has ``seconds``."""
    played: list[list[Playout]] = [[] for _ in sources]
    spent = [0.0] * len(sources)
    while min(spent) < seconds:
        i = spent.index(min(spent))
        played[i].append(playout := next(sources[i]))
        spent[i] += playout[0]
    return [rates(p) for p in played]


def rates(played: list[Playout]) -> dict:
    elapsed = sum(t for t, _, _ in played)
    actions = sum(a for _, a, _ in played)
    decisions = sum(d for _, _, d in played)
    return {
        "playouts_per_s": len(played) / elapsed,
        "us_per_action": elapsed / actions * 1e6,
        "us_per_decision": elapsed / decisions * 1e6,
    }


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


def hearts_playouts(seed: int = 1) -> Iterator[Playout] | None:
    """OpenSpiel's Hearts by the same loop, chance outcomes counted as actions (not as
    decisions); None without the optional ``open_spiel`` package."""
    try:
        import pyspiel
    except ImportError:
        return None
    return _hearts_playouts(pyspiel.load_game("hearts"), seed)


def _hearts_playouts(game, seed: int) -> Iterator[Playout]:
    rng = random.Random(seed)
    choice = rng.choice
    while True:
        start = clock()
        state = game.new_initial_state()
        count = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(choice(state.legal_actions()))
            count += 1
        yield clock() - start, count, count - chance


def bench_openspiel_hearts(seconds: float, seed: int = 1) -> dict | None:
    playouts = hearts_playouts(seed)
    return None if playouts is None else totals(playouts, seconds)


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
    fused = {}
    hearts_fast = None
    for slug in args.slugs:
        kind = catalog.get(slug)
        rules, n = kind.rules, kind.table_players
        if not rules.n_actions:
            continue
        sources = [fast_playouts(rules, n)]
        if getattr(rules, "fused_playout", False):
            sources.append(fused_playouts(rules, n))
        theirs = hearts_playouts() if slug == versus else None
        if theirs is not None:  # the compared pair, timed in turns (see ``paired``)
            sources.append(theirs)
        measured = in_turns(sources, args.seconds) if len(sources) > 1 else []
        r = fast[slug] = measured[0] if measured else drive_fast(rules, n, args.seconds)
        if theirs is not None:
            hearts_fast = measured.pop()
        print(
            f"{slug} fast playouts/s={r['playouts_per_s']:.1f} us/action={r['us_per_action']:.2f}",
            flush=True,
        )
        if len(measured) > 1:
            r = fused[slug] = measured[1]
            print(
                f"{slug} fused playouts/s={r['playouts_per_s']:.1f}"
                f" us/action={r['us_per_action']:.2f}",
                flush=True,
            )
    if hearts is not None:
        # Hearts' figures from the turns it took with the compared game, when there was one.
        hf = hearts_fast or hearts
        print(
            f"openspiel_hearts fast playouts/s={hf['playouts_per_s']:.1f}"
            f" us/action={hf['us_per_action']:.2f}"
            f" us/decision={hf['us_per_decision']:.2f}",
            flush=True,
        )
        if versus in fast:
            # The search's own path: the fused playout where the game has one.
            sc = fused.get(versus, fast[versus])
            line = (
                f"{versus}/openspiel_hearts"
                f" us/action_ratio={sc['us_per_action'] / hf['us_per_action']:.2f}"
                f" us/decision_ratio={sc['us_per_action'] / hf['us_per_decision']:.2f}"
                f" playout_ratio={hf['playouts_per_s'] / sc['playouts_per_s']:.2f}"
            )
            if versus in fused:
                generic = fast[versus]["us_per_action"] / hf["us_per_action"]
                line += f" path=fused generic_action_ratio={generic:.2f}"
            else:
                line += " path=generic"
            print(line, flush=True)


if __name__ == "__main__":
    main()
