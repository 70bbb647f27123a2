"""The search player ("hard") and the difficulty levels of every game with decisions."""

from __future__ import annotations

import json
import random
import time

import pytest

from games.computers import RandomStrategy, act, needs_history, strategies
from games.computers.levels import Weakened
from games.computers.search import HARD_LIMIT, SearchStrategy
from games.engines import observations
from games.kinds.cats_and_dogs.engine import RULES as CATS_AND_DOGS
from games.kinds.felix.engine import RULES as FELIX
from games.kinds.smoking_cat.engine import RULES as SMOKING_CAT

GAMES = {
    "felix": (FELIX, 4, "games.kinds.felix.computers"),
    "smoking_cat": (SMOKING_CAT, 4, "games.kinds.smoking_cat.computers"),
    "cats_and_dogs": (CATS_AND_DOGS, 4, "games.kinds.cats_and_dogs.computers"),
}
NAMES = sorted(GAMES)


def position(rules, n: int, seed: int, steps: int):
    """A position after ``steps`` heuristic moves where the seat to act has a choice."""
    rng = random.Random(seed)
    state = rules.setup(n, seed)
    events: list[dict] = []
    module = next(module for r, _, module in GAMES.values() if r is rules)
    normal = strategies(module)["normal"]
    k = 0
    while acting := rules.to_act(state):
        seat = acting[0]
        legal = rules.legal_actions(state, seat)
        if k >= steps and len(legal) > 1:
            return state, events, seat
        events += rules.apply(state, seat, act(rules, state, seat, normal, rng))
        k += 1
    raise AssertionError("the game ended before a choice came up")


@pytest.mark.parametrize("name", NAMES)
def test_levels_are_easy_normal_hard_and_heuristic_is_normal(name):
    _, _, module = GAMES[name]
    found = strategies(module)
    assert {"random", "easy", "normal", "hard", "heuristic"} <= set(found)
    assert found["heuristic"] is found["normal"]  # stored seats use the old name
    assert isinstance(found["hard"], SearchStrategy) and needs_history(found["hard"])
    assert isinstance(found["easy"], Weakened)
    assert not needs_history(found["normal"]) and not needs_history(found["easy"])
    assert not needs_history(RandomStrategy())


@pytest.mark.parametrize("name", NAMES)
def test_search_picks_a_legal_action_from_the_view_and_history_alone(name):
    rules, n, module = GAMES[name]
    hard = strategies(module)["hard"].with_budget(0.2, iterations=40)
    for seed, steps in ((1, 2), (2, 9), (3, 25)):
        state, events, seat = position(rules, n, seed, steps)
        view = json.loads(json.dumps(rules.view(state, seat)))
        history = json.loads(json.dumps(observations(events, seat)))
        legal = rules.legal_actions(state, seat)
        assert hard.choose(view, legal, random.Random(seed), history) in legal


@pytest.mark.parametrize("name", NAMES)
def test_search_is_deterministic_for_a_seed_with_an_iteration_budget(name):
    """An iteration budget, met well within the time cap, makes the choice a function of
    the rng's seed alone."""
    rules, n, module = GAMES[name]
    hard = strategies(module)["hard"].with_budget(HARD_LIMIT, iterations=30)
    state, events, seat = position(rules, n, 4, 6)
    view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
    history = observations(events, seat)
    picks = {hard.choose(view, legal, random.Random(9), history) for _ in range(3)}
    assert len(picks) == 1
    assert hard.last_iterations <= 30


def test_search_runs_the_iteration_count_of_its_table_size():
    """An iteration budget given per table size: a 4-player table runs its own count (in
    whole rounds of the candidates), whatever the other sizes get."""
    hard = strategies("games.kinds.cats_and_dogs.computers")["hard"]
    assert isinstance(hard.iterations, dict) and set(hard.iterations) == set(range(2, 7))
    state, events, seat = position(CATS_AND_DOGS, 4, 4, 6)
    view, legal = CATS_AND_DOGS.view(state, seat), CATS_AND_DOGS.legal_actions(state, seat)
    history = observations(events, seat)
    for count in (12, 40):
        search = hard.with_budget(HARD_LIMIT, iterations={2: 400, 4: count, 6: 400})
        search.choose(view, legal, random.Random(3), history)
        arms = len(search.candidates(view, legal))
        assert arms > 1
        assert search.last_iterations == count // arms * arms


@pytest.mark.parametrize("name", NAMES)
def test_search_keeps_its_time_budget_and_the_hard_limit(name):
    rules, n, module = GAMES[name]
    state, events, seat = position(rules, n, 5, 3)
    view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
    history = observations(events, seat)
    for budget, most in ((0.05, 0.25), (30.0, HARD_LIMIT + 0.3)):
        hard = strategies(module)["hard"].with_budget(budget)
        start = time.thread_time()  # the search's own clock: its thread's CPU time
        hard.choose(view, legal, random.Random(0), history)
        assert time.thread_time() - start < most
        assert hard.last_iterations > 0


def test_act_hands_the_history_only_to_players_that_need_it():
    seen = []

    class Recorder:
        needs_history = True

        def choose(self, view, legal, rng, history=()):
            seen.append(list(history))
            return legal[0]

    class Plain:
        def choose(self, view, legal, rng):  # an old-style strategy: no history argument
            return legal[-1]

    state = SMOKING_CAT.setup(4, 1)
    events = [{"type": "x", "to": None}]
    assert act(SMOKING_CAT, state, 0, Recorder(), random.Random(0), events)
    assert seen == [events]
    assert act(SMOKING_CAT, state, 0, Plain(), random.Random(0), events)


@pytest.mark.parametrize("name", NAMES)
def test_easy_lapses_sometimes_but_always_plays_legally(name):
    rules, n, module = GAMES[name]
    found = strategies(module)
    easy, normal = found["easy"], found["normal"]
    differs = 0
    for seed in range(20):
        state, _, seat = position(rules, n, seed, seed % 7)
        view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
        pick = easy.choose(view, legal, random.Random(seed))
        assert pick in legal
        differs += pick != normal.choose(view, legal, random.Random(seed))
    assert differs > 0


def test_smoking_cat_easy_never_throws_down_by_lapse():
    easy = strategies("games.kinds.smoking_cat.computers")["easy"]
    assert easy.allowed("throw") is False and easy.allowed("play:LO")


@pytest.mark.parametrize("name", ["felix", "smoking_cat"])
def test_search_without_the_history_it_needs_plays_the_heuristic(name):
    """A caller that gathered no history (mid-game) gets the normal player's move rather
    than a search over states the seat's knowledge rules out."""
    rules, n, module = GAMES[name]
    found = strategies(module)
    state, _, seat = position(rules, n, 6, 30)
    view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
    with pytest.raises(ValueError, match="the history does not account for"):
        rules.sampler(view, ())
    pick = found["hard"].choose(view, legal, random.Random(0), ())
    assert pick == found["normal"].choose(view, legal, random.Random(0))


def test_search_with_full_trust_in_its_heuristic_plays_the_heuristic():
    """``trust``: the fallback's move stands unless beaten by that many standard errors."""
    found = strategies("games.kinds.cats_and_dogs.computers")
    stubborn = found["hard"].with_budget(0.2, iterations=60)
    stubborn.trust = 1e9
    for seed in range(3):
        state, events, seat = position(CATS_AND_DOGS, 4, seed, 4 + seed)
        view, legal = CATS_AND_DOGS.view(state, seat), CATS_AND_DOGS.legal_actions(state, seat)
        pick = stubborn.choose(view, legal, random.Random(1), observations(events, seat))
        assert pick == found["normal"].choose(view, legal, random.Random(0))
