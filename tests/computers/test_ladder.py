"""The computers' ladder (issue 47): five levels, each measured on the rating scale, and
a search whose decisions end on their playout count, not the clock."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from games.computers import LADDER, LEVELS, needs_history, strategies
from games.computers.ladder.fit import Scale, beats_below, fit
from games.computers.levels import BEGINNER_LAPSES, EASY_LAPSES, Weakened
from games.computers.search import DEFAULT_BUDGET, HARD_LIMIT, SearchStrategy
from games.engines import observations
from games.kinds.cats_and_dogs.engine import RULES as CATS_AND_DOGS

MODULES = {
    "felix": "games.kinds.felix.computers",
    "smoking_cat": "games.kinds.smoking_cat.computers",
    "cats_and_dogs": "games.kinds.cats_and_dogs.computers",
}
SCALE = Scale(beta=25 / 6, centre=1500, points_per_unit=24.0)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_issue_47_every_game_has_the_ladder_and_the_stored_names_keep_their_players(name):
    found = strategies(MODULES[name])
    assert set(LADDER) <= set(found) and set(LEVELS) <= set(LADDER)
    assert found["heuristic"] is found["normal"]
    beginner, easy = found["beginner"], found["easy"]
    assert isinstance(beginner, Weakened) and isinstance(easy, Weakened)
    assert beginner.lapses == BEGINNER_LAPSES > easy.lapses == EASY_LAPSES
    assert beginner.strategy is easy.strategy is found["normal"]
    strong, hard = found["strong"], found["hard"]
    assert isinstance(strong, SearchStrategy) and isinstance(hard, SearchStrategy)
    assert needs_history(strong) and needs_history(hard)
    for n in (2, 3, 4, 5, 6):
        view = {"n_players": n}
        if isinstance(hard.iterations, dict) and n not in hard.iterations:
            continue
        assert strong.playouts(view) < hard.playouts(view)  # a rung below hard
    # The clock is a safety only: the same cap for every level, above every p95.
    assert strong.budget == hard.budget == DEFAULT_BUDGET == HARD_LIMIT


# A process of its own that keeps a core busy. Not a fork of this one: a forked child
# runs the parent's after-fork handlers (kombu's closes the parent's Redis connections and
# can wait on them for ever), and a child left so stops the test run from ever exiting.
HOG = [sys.executable, "-c", "while True: pass"]


def _moves(decisions: int) -> tuple[list[str], list[bool]]:
    """The first ``decisions`` moves of a seeded two-player game between the two search
    levels, as the product plays them (their own counts and clock cap), and whether the
    clock ended any decision."""
    found = strategies(MODULES["cats_and_dogs"])
    players = [found["strong"], found["hard"]]
    rules, n, seed = CATS_AND_DOGS, 2, 47
    state = rules.setup(n, seed)
    rng = random.Random(seed)
    events: list[dict] = []
    moves, capped = [], []
    while (acting := rules.to_act(state)) and len(moves) < decisions:
        seat = acting[0]
        player = players[seat]
        view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
        move = player.choose(view, legal, rng, observations(events, seat))
        moves.append(move)
        capped.append(player.last_capped)
        events += rules.apply(state, seat, move)
    return moves, capped


def test_issue_47_a_game_replays_from_its_seed_the_same_on_a_loaded_machine():
    """The same seed gives the same moves with every core busy: each decision ends on its
    playout count, never on the clock."""
    quiet, capped = _moves(14)
    assert not any(capped)
    hogs = [subprocess.Popen(HOG) for _ in range(3)]
    try:
        loaded, capped = _moves(14)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert loaded == quiet
    assert not any(capped)


def test_issue_47_the_clock_cap_is_reported_when_it_ends_a_decision():
    hard = strategies(MODULES["cats_and_dogs"])["hard"].with_budget(0.0, iterations=10_000)
    state = CATS_AND_DOGS.setup(2, 3)
    seat = CATS_AND_DOGS.to_act(state)[0]
    view, legal = CATS_AND_DOGS.view(state, seat), CATS_AND_DOGS.legal_actions(state, seat)
    hard.choose(view, legal, random.Random(0), [])
    assert hard.last_capped or len(hard.candidates(view, legal)) == 1


def _pairing(n, hero, opponent, wins, games):
    return {"players": n, "hero": hero, "opponent": opponent, "wins": wins, "games": games}


def test_issue_47_the_fit_anchors_normal_and_measures_the_rest_in_order():
    records = [
        _pairing(4, "easy", "beginner", 80, 200),  # 40% against three: above fair 25%
        _pairing(4, "normal", "easy", 90, 200),
        _pairing(4, "strong", "normal", 70, 200),
        _pairing(4, "hard", "strong", 60, 200),
        _pairing(2, "hard", "strong", 1, 1),  # another table size: not this fit's
    ]
    rated = fit(records, 4, LADDER, SCALE)
    assert rated["normal"].rating == 1500 and rated["normal"].lo == rated["normal"].hi
    order = [rated[level].rating for level in LADDER]
    assert order == sorted(order) and len(set(order)) == 5
    for level in ("beginner", "easy", "strong", "hard"):
        r = rated[level]
        assert r.lo < r.rating < r.hi
    # Further from the anchor, wider: the differences add up along the chain.
    assert rated["hard"].hi - rated["hard"].lo > rated["strong"].hi - rated["strong"].lo
    # An even pairing at a fair share measures no difference.
    even = fit([_pairing(4, "hard", "normal", 50, 200)], 4, LADDER, SCALE)
    assert even["hard"].rating == 1500 and set(even) == {"normal", "hard"}
    assert beats_below(records, 4, "normal", "easy") == (0.45, 200)


def test_issue_47_a_fit_out_of_the_ladders_order_pools_the_levels_it_cannot_tell_apart():
    """Hard is strong with more playouts: a fit that puts hard below strong (few games,
    luck) shows them at one pooled rating, between the two, never in the wrong order; the
    anchor keeps its number, and levels in order keep theirs."""
    records = [
        _pairing(4, "strong", "normal", 70, 200),
        _pairing(4, "hard", "strong", 1, 8),  # 12.5% against three strong: below fair
        _pairing(4, "easy", "beginner", 80, 200),
        _pairing(4, "normal", "easy", 90, 200),
    ]
    rated = fit(records, 4, LADDER, SCALE)
    assert rated["normal"].rating == 1500
    assert rated["strong"].rating == rated["hard"].rating > 1500
    order = [rated[level].rating for level in LADDER]
    assert order == sorted(order)
    assert rated["beginner"].rating < rated["easy"].rating < 1500
    # A weaker level fitted above the anchor is pooled into it: the anchor stays exact.
    above = fit([_pairing(4, "normal", "easy", 5, 200)], 4, LADDER, SCALE)
    assert above["easy"].rating == above["normal"].rating == 1500


def test_issue_47_play_at_my_level_picks_the_nearest_rating(monkeypatch):
    from games.computers import ladder

    table = {"felix": {"4": {"easy": [1400, 1, 2], "normal": [1500, 1, 2], "hard": [1700, 1, 2]}}}
    monkeypatch.setattr(ladder, "table", lambda: table)
    offered = ["beginner", "easy", "normal", "strong", "hard"]
    assert ladder.nearest("felix", offered, 1500, 4) == "normal"
    assert ladder.nearest("felix", offered, 1650, 3) == "hard"  # the nearest size measured
    assert ladder.nearest("felix", offered, 1450, 4) == "easy"  # a tie goes to the weaker
    assert ladder.nearest("felix", offered, 100, 4) == "easy"
    assert ladder.nearest("smoking_cat", offered, 1500, 4) is None
    assert ladder.rating("felix", "hard", 5) == 1700
