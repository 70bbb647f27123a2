"""Bon Appétit! computer player: there is nothing to decide (B15), so it flips."""

from __future__ import annotations

import random

from bench.arena import play, win_rate
from games.computers import RandomStrategy, act
from games.kinds.bon_appetit.computers import STRATEGIES
from games.kinds.bon_appetit.engine import RULES


def test_B15_heuristic_flips_whenever_it_must_act():
    player = STRATEGIES["heuristic"]
    state = RULES.setup(4, 3)
    rng = random.Random(0)
    while seats := RULES.to_act(state):
        (seat,) = seats
        action = act(RULES, state, seat, player, rng)
        assert action == "flip"
        RULES.apply(state, seat, action)
    assert RULES.outcome(state) is not None


def test_B15_heuristic_uses_only_the_view_and_legal_actions():
    player = STRATEGIES["heuristic"]
    view = RULES.view(RULES.setup(3, 1), 0)
    assert player.choose(view, ["flip"], random.Random(1)) == "flip"


def test_B15_no_decisions_means_the_same_games_whoever_plays():
    # The outcome depends on the deal alone, so heuristic and random seats tie exactly.
    for seed in range(20):
        heuristic = play(RULES, 4, seed, [STRATEGIES["heuristic"]] * 4)
        randoms = play(RULES, 4, seed, [RandomStrategy() for _ in range(4)])
        assert heuristic == randoms
    assert win_rate("bon_appetit", 40, 4, heuristic=True) == win_rate(
        "bon_appetit", 40, 4, heuristic=False
    )
