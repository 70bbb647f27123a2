"""The Felix heuristic player: legal, view-only, and clearly better than random."""

from __future__ import annotations

import random

import pytest

from bench.arena import play, win_rate
from games.computers import RandomStrategy, act
from games.kinds.felix.computers import HEURISTIC, STRATEGIES, row_value
from games.kinds.felix.engine import RULES, SET


def without(card: str) -> list[str]:
    return [c for c in SET if c != card]


def test_get_player_returns_the_heuristic():
    assert STRATEGIES["heuristic"] is HEURISTIC


@pytest.mark.parametrize("n", [3, 4, 5])
def test_heuristic_plays_whole_games_with_legal_actions_from_its_view(n):
    for seed in range(10):
        state = RULES.setup(n, seed)
        rng = random.Random(seed)
        while acting := RULES.to_act(state):
            seat = rng.choice(acting)
            action = act(RULES, state, seat, HEURISTIC, rng)
            assert action in RULES.legal_actions(state, seat)
            RULES.apply(state, seat, action)
        assert RULES.outcome(state) is not None


def test_heuristic_against_itself_ends_every_game():
    for seed in range(5):
        assert play(RULES, 4, seed, [HEURISTIC] * 4).ranks


def test_row_value_applies_the_dogs():
    # F19's example: -5, 11 and the small dog are worth 11; with the big dog, -5.
    assert row_value(("-5", "11", "d"), 0) == 11
    assert row_value(("-5", "11", "D"), 0) == -5
    assert row_value((), 1) == pytest.approx(29 / 10)  # one card of a set, on average
    assert row_value(("15",), 2) > row_value(("-8",), 2)


def test_places_its_worst_card():
    state = RULES.setup(4, 1, {"hands": [without("-8"), without("D")] * 2, "first": 0})
    rng = random.Random(0)
    # The big dog spoils a row more than the -5; without the big dog, the -8 goes.
    assert HEURISTIC.choose(RULES.view(state, 0), RULES.legal_actions(state, 0), rng) == "place:D"
    assert HEURISTIC.choose(RULES.view(state, 1), RULES.legal_actions(state, 1), rng) == "place:-8"


def test_bids_the_minimum_on_a_good_row_and_passes_on_a_bad_one():
    state = RULES.setup(4, 1, {"hands": [without("R")] * 4, "first": 0})
    for seat, card in enumerate(["15", "-8", "-5", "3"]):
        RULES.apply(state, seat, f"place:{card}")
    rng = random.Random(0)
    # Seat 0 sees its 15 up and knows nothing else: a rich row, worth a cheap bid.
    assert HEURISTIC.choose(RULES.view(state, 0), RULES.legal_actions(state, 0), rng) == "bid:1"
    RULES.apply(state, 0, "bid:14")
    # Seat 1 knows its own face-down -8: the row is worth less than 15 plus a pass's 2.
    assert HEURISTIC.choose(RULES.view(state, 1), RULES.legal_actions(state, 1), rng) == "pass"


def test_takes_the_last_offer_of_a_good_row_and_declines_a_bad_one():
    for cards, expected in ((["5", "11", "8", "15"], "bid:1"), (["-8", "-5", "D", "3"], "pass")):
        state = RULES.setup(4, 1, {"hands": [without("R")] * 4, "first": 0})
        for seat, card in enumerate(cards):
            RULES.apply(state, seat, f"place:{card}")
        for seat in range(3):
            RULES.apply(state, seat, "pass")
        assert RULES.legal_actions(state, 3) == ["bid:1", "pass"]
        choice = HEURISTIC.choose(RULES.view(state, 3), ["bid:1", "pass"], random.Random(0))
        assert choice == expected


def test_heuristic_uses_only_the_view_it_is_given():
    """Same view and legal actions, same choice: no hidden state, no memory."""
    state = RULES.setup(5, 3)
    for seat in range(5):
        RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    (seat,) = RULES.to_act(state)
    view, legal = RULES.view(state, seat), RULES.legal_actions(state, seat)
    choices = {HEURISTIC.choose(dict(view), list(legal), random.Random(i)) for i in range(5)}
    assert len(choices) == 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_heuristic_clearly_beats_random(n):
    games = 120
    heuristic = win_rate("felix", games, n, heuristic=True)
    assert heuristic > 0.55, heuristic  # random seats win about 1/n
    assert heuristic > 2 * win_rate("felix", games // 2, n, heuristic=False)


def test_random_player_is_a_legal_baseline():
    state = RULES.setup(4, 2)
    rng = random.Random(2)
    assert act(RULES, state, 0, RandomStrategy(), rng) in RULES.legal_actions(state, 0)
