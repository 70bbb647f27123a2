"""The Smoking Cat heuristic: legal from the view alone, sensible choices, beats random."""

from __future__ import annotations

import json
import random

from bench.arena import play, win_rate
from games.computers import RandomStrategy
from games.kinds.smoking_cat.computers import HEURISTIC, STRATEGIES, hopeless
from games.kinds.smoking_cat.engine import RULES


def view(hand: str, trick=(), points=(0, 0, 0, 0), seat=0) -> dict:
    """A hand-made play-phase view with just what the heuristic reads."""
    return {
        "seat": seat,
        "hand": hand.split(),
        "trick": [list(t) for t in trick],
        "points": list(points),
        "phase": "play",
    }


def legal_for(hand: str, trick=()) -> list[str]:
    cards = hand.split()
    if trick:
        lead = trick[0][1][0]
        follow = [c for c in cards if c[0] == lead]
        cards = follow or cards
    return [f"play:{c}" for c in cards] + ["throw"]


def choose(hand: str, trick=(), points=(0, 0, 0, 0)) -> str:
    return HEURISTIC.choose(view(hand, trick, points), legal_for(hand, trick), random.Random(0))


def test_registered_as_the_heuristic():
    assert STRATEGIES["heuristic"] is HEURISTIC


def test_always_legal_and_uses_only_the_view():
    """Whole matches with the heuristic in every seat; it gets a JSON copy of the view."""
    for seed in range(12):
        state = RULES.setup(4, seed)
        rng = random.Random(seed)
        while acting := RULES.to_act(state):
            seat = rng.choice(acting)
            legal = RULES.legal_actions(state, seat)
            seen = json.loads(json.dumps(RULES.view(state, seat)))
            action = HEURISTIC.choose(seen, legal, rng)
            assert action in legal
            RULES.apply(state, seat, action)
        assert RULES.outcome(state) is not None


def test_passes_the_ober_and_high_hearts():
    state = RULES.setup(4, 1, {"dealer": 3, "decks": [deck_with_hand0("LO HA HK L7 B7 B8 A7 A8")]})
    assert choose_pass(state, 0) == ["LO", "HK", "HA"]


def test_passes_high_cards_of_a_short_suit_before_low_ones():
    state = RULES.setup(4, 1, {"dealer": 3, "decks": [deck_with_hand0("L7 L8 L9 LX BA A7 A8 A9")]})
    assert "BA" in choose_pass(state, 0)


def choose_pass(state, seat: int) -> list[str]:
    """S6: the heuristic's three passed cards, chosen one action at a time."""
    chosen = []
    for _ in range(3):
        legal = RULES.legal_actions(state, seat)
        action = HEURISTIC.choose(RULES.view(state, seat), legal, random.Random(0))
        assert action in legal
        RULES.apply(state, seat, action)
        chosen.append(action.removeprefix("pass:"))
    assert RULES.view(state, seat)["passed"][seat]
    return sorted(chosen, key=lambda code: "LHBA".index(code[0]) * 8 + "789XUOKA".index(code[1]))


def deck_with_hand0(hand: str) -> list[str]:
    """A deck (dealer 3) that deals ``hand`` to seat 0 and the rest to the others."""
    from games.kinds.smoking_cat.engine import CODES

    mine = hand.split()
    rest = [c for c in CODES if c not in mine]
    deck = []
    for i in range(32):
        deck.append(mine.pop(0) if i % 4 == 0 else rest.pop(0))
    return deck


def test_ducks_with_the_highest_card_that_still_loses():
    assert choose("B7 B9 BK BA", trick=[(1, "BO")]) == "play:B9"


def test_dumps_the_ober_under_a_higher_leaf():
    assert choose("L7 LO LX", trick=[(1, "LK")]) == "play:LO"


def test_when_void_dumps_the_ober_then_the_highest_heart():
    assert choose("LO HA B7", trick=[(1, "A7")]) == "play:LO"
    assert choose("H8 HA HU B7", trick=[(1, "A7")]) == "play:HA"


def test_last_to_play_and_forced_to_win_spares_the_ober():
    trick = [(1, "L7"), (2, "L8"), (3, "L9")]
    assert choose("LO LK", trick=trick) == "play:LK"


def test_leads_low_and_not_the_ober():
    assert choose("LO HA B7 AK") == "play:B7"


def test_throws_down_only_when_hopeless():
    assert not hopeless(view("B7", points=(10, 0, 0, 0)))
    assert not hopeless(view("B7", points=(16, 0, 10, 0)))  # 10 + 7 left could pass 16
    assert hopeless(view("B7", points=(16, 4, 4, 4)))  # 4 + the 5 left stays under 16
    assert choose("B7 B8", points=(16, 4, 4, 4)) == "throw"
    assert choose("B7 B8", points=(16, 0, 10, 0)) != "throw"


def test_beats_random_clearly():
    """Rank 1 (shared wins count) in far more matches than a random player gets."""
    heuristic = win_rate("smoking_cat", 120, 4, heuristic=True)
    baseline = win_rate("smoking_cat", 120, 4, heuristic=False)
    assert heuristic > 0.8 and heuristic > baseline + 0.3, (heuristic, baseline)


def test_beats_a_random_player_that_never_throws():
    """Throwing down loses deals on purpose, so also play against random players that
    never throw: the heuristic must still win most matches."""

    class NoThrow(RandomStrategy):
        def choose(self, view, legal, rng):
            return rng.choice([a for a in legal if a != "throw"] or legal)

    wins = 0
    for i in range(80):
        players = [NoThrow() for _ in range(4)]
        players[i % 4] = HEURISTIC
        wins += play(RULES, 4, 5000 + i, players).ranks[i % 4] == 1
    assert wins / 80 > 0.6
