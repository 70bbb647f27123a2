"""The shared simulation harness for every engine.

``playout`` plays one seeded random game and, at every step, checks the engine contract:
the acting seats and the outcome agree, legal actions are short and unique and all apply,
illegal actions raise ``IllegalAction`` without touching the state, ``dump``/``load``
round-trip through JSON, ``clone`` is independent, views are JSON and pass the game's own
leak check, events are JSON with a type and an audience, and the game's invariants hold.

A game's tests pass ``invariants(state)`` (raise AssertionError when broken) and
``check_view(state, seat, view)`` (raise when a view shows what that seat may not see).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.engines import MAX_ACTION_BYTES, IllegalAction, Result, Rules, Termination

MAX_STATE_BYTES = 4096
GARBAGE_ACTIONS = ("", "nonsense", "pass:", "play:", "bid:-1", "bid:x", "place:", ":", "🐱")


@dataclass
class Playout:
    state: Any
    steps: int = 0
    events: list[dict] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)


def as_json(obj: Any) -> Any:
    return json.loads(json.dumps(obj))


def snapshot(rules: Rules, state: Any) -> str:
    return json.dumps(rules.dump(state), sort_keys=True)


def check_step(
    rules: Rules,
    state: Any,
    rng: random.Random,
    *,
    invariants: Callable[[Any], None] | None,
    check_view: Callable[[Any, int | None, dict], None] | None,
) -> None:
    """Every contract check that does not advance the game."""
    n = rules.n_players(state)
    acting = rules.to_act(state)
    outcome = rules.outcome(state)
    assert (outcome is None) == bool(acting), (acting, outcome)
    assert all(0 <= s < n for s in acting) and len(set(acting)) == len(acting)
    if invariants:
        invariants(state)

    before = snapshot(rules, state)
    data = rules.dump(state)
    assert len(json.dumps(data)) < MAX_STATE_BYTES, len(json.dumps(data))
    reloaded = rules.load(as_json(data))
    assert snapshot(rules, reloaded) == before, "dump/load does not round-trip"
    for seat in [None, *range(n)]:
        view = rules.view(state, seat)
        assert as_json(view) == view, "view is not plain JSON"
        assert rules.view(reloaded, seat) == view
        if check_view:
            check_view(state, seat, view)

    for seat in range(n):
        legal = rules.legal_actions(state, seat)
        if seat not in acting:
            assert legal == [], (seat, legal)
            continue
        assert legal, f"seat {seat} must act but has no legal action"
        assert len(set(legal)) == len(legal), legal
        assert all(len(a.encode()) <= MAX_ACTION_BYTES for a in legal), legal
        assert rules.legal_actions(reloaded, seat) == legal

    # Illegal actions raise and change nothing: garbage, and a real action by a seat
    # that is not to act.
    if acting:
        seat = rng.choice(acting)
        legal = rules.legal_actions(state, seat)
        for bad in (*GARBAGE_ACTIONS, legal[0] + "x"):
            if bad not in legal:
                expect_illegal(rules, state, seat, bad, before)
        waiting = [s for s in range(n) if s not in acting]
        if waiting:
            expect_illegal(rules, state, rng.choice(waiting), rng.choice(legal), before)

        # clone is independent: advancing the copy leaves the original alone.
        copy = rules.clone(state)
        rules.apply(copy, seat, rng.choice(legal))
        assert snapshot(rules, state) == before, "clone shares state with the original"
    else:
        for seat in range(n):
            expect_illegal(rules, state, seat, "pass", before)


def expect_illegal(rules: Rules, state: Any, seat: int, action: str, before: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, seat, action)
    assert str(refused.value), "IllegalAction needs a reason a player can read"
    assert snapshot(rules, state) == before, f"illegal {action!r} changed the state"


def playout(
    rules: Rules,
    n_players: int,
    seed: int,
    *,
    options: dict | None = None,
    invariants: Callable[[Any], None] | None = None,
    check_view: Callable[[Any, int | None, dict], None] | None = None,
    deep: bool = True,
    max_steps: int = 20_000,
    choose: Callable[[random.Random, list[str]], str] | None = None,
) -> Playout:
    """Play one random game to the end. ``deep=False`` checks only the invariants and
    the events (for fast, many-game runs); ``deep=True`` checks the whole contract."""
    rng = random.Random(seed)
    state = rules.setup(n_players, seed, options)
    result = Playout(state)
    while True:
        if deep:
            check_step(rules, state, rng, invariants=invariants, check_view=check_view)
        elif invariants:
            invariants(state)
        acting = rules.to_act(state)
        if not acting:
            assert rules.outcome(state) is not None
            break
        seat = rng.choice(acting)
        legal = rules.legal_actions(state, seat)
        action = choose(rng, legal) if choose else rng.choice(legal)
        events = rules.apply(state, seat, action)
        assert isinstance(events, list)
        for ev in events:
            assert isinstance(ev.get("type"), str) and "to" in ev, ev
            assert ev["to"] is None or all(0 <= s < n_players for s in ev["to"]), ev
        assert as_json(events) == events, "events are not plain JSON"
        result.events.extend(events)
        result.actions.append((seat, action))
        result.steps += 1
        assert result.steps < max_steps, "the game does not end"
    check_outcome(rules, state)
    return result


def check_outcome(rules: Rules, state: Any) -> None:
    outcome = rules.outcome(state)
    n = rules.n_players(state)
    assert isinstance(outcome, Result) and isinstance(outcome.termination, Termination)
    assert len(outcome.scores) == n and len(outcome.ranks) == n
    # What a game's row stores reads back as the same result.
    assert Result.from_json(as_json(outcome.to_json())) == outcome
    ranks = outcome.ranks
    assert min(ranks) == 1
    for r in ranks:  # 1 + number of strictly better seats
        assert r == 1 + sum(1 for o in ranks if o < r)


def replay(rules: Rules, n_players: int, seed: int, actions, options: dict | None = None):
    """Replay (seed, options, actions) from scratch; the log is the truth."""
    state = rules.setup(n_players, seed, options)
    for seat, action in actions:
        rules.apply(state, seat, action)
    return state
