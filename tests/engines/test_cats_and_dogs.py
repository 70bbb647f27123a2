"""Come Cani e Gatti: every clause of the rules specification cats-and-dogs.md (C1–C20i, I1–I4).

Scenario tests stack the set-up through the engine's options. The two-player layout used
throughout is Max (dog, 3 squares), Clarence (cat, 3), Rex (dog, 1), Luna (cat, 2).
"""

from __future__ import annotations

import importlib
import os
import random
from collections import Counter
from itertools import chain
from operator import le

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction
from games.kinds.cats_and_dogs.data import (
    ACTION_CARDS,
    ANIMALS,
    FOOD_COPIES,
    action_deck,
    food_deck,
)
from games.kinds.cats_and_dogs.engine import RULES
from tests.engines.harness import playout, replay

R = RULES
ID = {a.name: i for i, a in enumerate(ANIMALS)}
LAYOUT = [ID["Max"], ID["Clarence"], ID["Rex"], ID["Luna"]]
MAX, CLARENCE, REX, LUNA = range(4)


def game(n: int = 2, **options):
    """A stacked game; two players on LAYOUT, seat 0 first, unless told otherwise."""
    if n == 2:
        options.setdefault("layout", LAYOUT)
    options.setdefault("first", 0)
    return R.setup(n, 7, options)


def act(state, *actions: str) -> list[dict]:
    """Apply actions in order, each by the seat to act."""
    events = []
    for action in actions:
        events += R.apply(state, R.to_act(state)[0], action)
    return events


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# Which tokens of an action name animals (the others are seats or food cards).
ANIMAL_TOKENS = {
    "mark": [1], "feed": [1], "shoo": [1], "wander": [1, 2], "switch": [1, 2],
    "snatch": [1], "bowl": [1, 3], "trade": [1, 3], "swap": [1, 2], "clean": [1],
}  # fmt: skip


def animals_in(action: str) -> list[int]:
    tokens = action.split(":")
    return [int(tokens[i]) for i in ANIMAL_TOKENS.get(tokens[0], [])]


def heads(state, seat: int | None = None) -> set[str]:
    seat = R.to_act(state)[0] if seat is None else seat
    return {a.split(":")[0] for a in R.legal_actions(state, seat)}


def invariants(state) -> None:
    # Kept lean: it runs at every step of thousands of games.
    food, markers = state.food, state.markers
    held = len(state.pile) + sum(map(len, food)) + len(state.discard) + (state.drawn is not None)
    assert held == 54, "I1: food cards are conserved"
    placed = Counter(chain.from_iterable(markers))
    assert all(state.supply[s] + placed[s] == 6 for s in range(state.n)), "I2: markers"
    assert max(map(len, food)) <= 5, "I3: at most 5 food cards"
    squares = [ANIMALS[aid].squares for aid in state.layout]
    assert all(map(le, map(len, markers), squares)), "I3: no more markers than squares"


def check_view(state, seat, view) -> None:
    """Only a seat's own action cards, and never the pile's order."""
    assert "hands" not in view and "pile" not in view
    if seat is None:
        assert "hand" not in view
    else:
        assert view["hand"] == sorted(state.hands[seat])
    assert view["action_cards"] == [len(h) for h in state.hands]
    assert view["food_left"] == len(state.pile)
    if len(state.pile) > 1:
        assert all(value != state.pile for value in view.values()), "the pile's order"


# ---- components ---------------------------------------------------------------------


def test_C1_eighteen_animals_nine_dogs_nine_cats_one_to_three_squares():
    assert len(ANIMALS) == 18
    for kind in ("dog", "cat"):
        squares = Counter(a.squares for a in ANIMALS if a.kind == kind)
        assert squares == {1: 3, 2: 3, 3: 3}  # the Interpretation of C1
    assert len({a.name for a in ANIMALS}) == 18
    assert ANIMALS[ID["Clarence"]].kind == "cat"


def test_C2_fifty_four_food_cards_27_bones_27_fish():
    deck = Counter(food_deck())
    assert sum(deck.values()) == 54
    for kind in "bf":
        assert {v: deck[f"{kind}{v}"] for v in range(1, 7)} == FOOD_COPIES
    assert FOOD_COPIES == {1: 4, 2: 5, 3: 6, 4: 5, 5: 4, 6: 3}


def test_C3_eighteen_action_cards_two_of_each_of_nine_types():
    assert len(ACTION_CARDS) == 9
    assert Counter(action_deck()) == {card.code: 2 for card in ACTION_CARDS}


def test_C4_six_markers_each_two_to_six_players():
    for n in range(2, 7):
        state = R.setup(n, 1)
        assert R.view(state, None)["markers_left"] == [6] * n
        assert R.n_players(state) == n
    for n in (1, 7):
        with pytest.raises(ValueError, match="played by 2 to 6 players"):
            R.setup(n, 1)


# ---- set-up -------------------------------------------------------------------------


def test_C5_layout_is_twice_the_players_shuffled_by_seed():
    for n in range(2, 7):
        animals = R.view(R.setup(n, 3), None)["animals"]
        assert len(animals) == 2 * n
        assert len({a["id"] for a in animals}) == 2 * n
        for a in animals:
            assert set(a) >= {"kind", "name", "squares", "markers", "food", "sated", "score"}
    layouts = {tuple(R.setup(4, seed).layout) for seed in range(20)}
    assert len(layouts) > 15
    assert R.setup(4, 5).layout == R.setup(4, 5).layout  # same seed, same game


def test_C6_food_pile_is_the_shuffled_deck_face_down():
    piles = [R.setup(2, seed).pile for seed in range(5)]
    for pile in piles:
        assert Counter(pile) == Counter(food_deck())
    assert len({tuple(p) for p in piles}) == 5
    view = R.view(R.setup(2, 0), 0)
    assert view["food_left"] == 54 and view["drawn"] is None


def test_C7_three_hidden_action_cards_each_rest_unused():
    state = R.setup(5, 11)
    assert [len(h) for h in state.hands] == [3] * 5
    assert not Counter(c for h in state.hands for c in h) - Counter(action_deck())
    for seat in range(5):
        view = R.view(state, seat)
        assert view["hand"] == sorted(state.hands[seat])
        assert view["action_cards"] == [3] * 5
        check_view(state, seat, view)
    assert "hand" not in R.view(state, None)


def test_C8_random_first_player_then_clockwise():
    firsts = {R.to_act(R.setup(4, seed))[0] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = game(3, first=2, food=["b1", "b2", "b3", "b4"])
    seen = []
    for _ in range(3):
        seen.append(R.to_act(state)[0])
        act(state, "mark:0", "draw", "feed:1", "stop")
    assert seen == [2, 0, 1]


# ---- a turn -------------------------------------------------------------------------


def test_C9_marker_first_on_a_free_square_even_if_unsuitable():
    state = game(food=["f6", "b6"], plates=[["f6"], [], [], []])
    assert R.legal_actions(state, 0) == ["mark:0", "mark:1", "mark:2", "mark:3"]
    with pytest.raises(IllegalAction, match="marker"):
        R.apply(state, 0, "draw")
    act(state, "mark:0")  # Max, a dog full of fish: allowed though it hurts
    assert state.markers[MAX] == [0]
    assert R.view(state, 0)["markers_left"] == [5, 6]
    assert "mark" not in heads(state)  # one marker per turn


def test_C9_own_markers_stack_but_not_beyond_the_squares():
    state = game(markers=[[0, 0], [], [1], [0, 1]])
    assert R.legal_actions(state, 0) == ["mark:0", "mark:1"]  # Rex and Luna are full
    act(state, "mark:0")
    assert state.markers[MAX] == [0, 0, 0]


def test_C9_no_marker_step_without_a_marker_or_a_free_square():
    full = [[0, 0, 0], [1, 1, 1], [0], [1, 0]]
    state = game(markers=full, hands=[[], []])
    assert R.view(state, 0)["phase"] == "play" and R.legal_actions(state, 0) == ["draw"]
    spent = [[0, 0, 0], [0, 0, 0], [], []]
    state = game(markers=spent)
    assert R.view(state, 0)["markers_left"][0] == 0
    assert "mark" not in heads(state)
    act(state, "draw", "feed:2", "stop")
    assert R.legal_actions(state, 1) == ["mark:2", "mark:3"]


def test_C9_marker_sent_home_is_placed_again_one_per_turn():
    spent = [[0, 0, 0], [0, 0, 0], [], []]
    state = game(markers=spent, first=1, hands=[[], ["shoo", "shoo"]], food=["b1", "b2"])
    act(state, "mark:3", "shoo:0:0")
    assert state.supply[0] == 1 and R.view(state, 0)["phase"] == "mark"
    act(state, "mark:2")
    assert state.supply[0] == 0 and R.view(state, 0)["phase"] == "play"


def test_C10_feed_or_play_a_card_only_feed_without_cards():
    state = game(hands=[["clean"], []], plates=[["b1"], [], [], []])
    act(state, "mark:0")
    assert R.legal_actions(state, 0) == ["draw", "clean:0"]
    act(state, "clean:0", "mark:1")
    assert R.legal_actions(state, 1) == ["draw"]  # seat 1 holds no card
    act(state, "draw")
    assert R.view(state, 0)["phase"] == "feed"


def test_C11_drawn_card_seen_by_all_then_placed_on_any_hungry_animal():
    state = game(food=["b5", "f1"])
    events = act(state, "mark:1", "draw")
    drew = [e for e in events if e["type"] == "drew"]
    assert drew == [{"type": "drew", "to": None, "seat": 0, "card": "b5"}]
    for seat in (None, 0, 1):
        assert R.view(state, seat)["drawn"] == "b5"
    assert R.legal_actions(state, 0) == ["feed:0", "feed:1", "feed:2", "feed:3"]
    act(state, "feed:1")  # a bone on Clarence, a cat: allowed
    view = R.view(state, None)
    assert view["animals"][CLARENCE]["food"] == ["b5"]
    assert view["animals"][CLARENCE]["score"] == -5 and view["drawn"] is None


def test_C12_more_food_goes_on_the_same_animal():
    state = game(food=["f2", "b3", "f4"])
    act(state, "mark:1", "draw", "feed:1")
    assert R.legal_actions(state, 0) == ["more", "stop"]
    events = act(state, "more")
    assert events[-1] == {"type": "fed", "to": None, "seat": 0, "animal": 1, "card": "b3"}
    assert state.food[CLARENCE] == ["f2", "b3"]
    events = act(state, "stop")
    assert types(events) == ["stopped", "turn"] and R.to_act(state) == [1]


def test_C13_feeding_stops_at_four_cards():
    state = game(food=["f1", "f2", "f3", "f4", "f5", "f6"])
    act(state, "mark:1", "draw", "feed:1", "more", "more")
    events = act(state, "more")
    assert state.food[CLARENCE] == ["f1", "f2", "f3", "f4"]
    assert types(events) == ["fed", "turn"] and R.to_act(state) == [1]


def test_C13_feeding_stops_at_four_cards_in_total():
    state = game(food=["f1", "f2", "f3"], plates=[[], ["b1", "b2"], [], []])
    act(state, "mark:1", "draw", "feed:1")
    assert R.legal_actions(state, 0) == ["more", "stop"]
    events = act(state, "more")
    assert len(state.food[CLARENCE]) == 4 and types(events)[-1] == "turn"


def test_C13_fifth_card_is_the_only_card_placed_that_turn():
    state = game(food=["f5", "f6", "b1"], plates=[[], ["b1", "b2", "b3", "b4"], [], []])
    events = act(state, "mark:0", "draw", "feed:1")
    assert types(events)[-3:] == ["fed", "sated", "turn"]
    assert R.view(state, None)["animals"][CLARENCE]["sated"] is True
    assert R.to_act(state) == [1] and R.view(state, None)["phase"] == "mark"


def test_C14_card_is_discarded_and_not_replaced():
    state = game(hands=[["clean", "snatch", "shoo"], []], plates=[["b1"], [], [], []])
    events = act(state, "mark:0", "clean:0")
    assert events[1]["type"] == "action" and events[1]["to"] is None
    assert state.hands[0] == ["snatch", "shoo"]
    assert R.view(state, None)["action_cards"] == [2, 0]


def test_C14_card_without_a_legal_target_cannot_be_played():
    hand = ["shoo", "wander", "switch", "snatch", "bowl", "trade", "swap", "clean", "helping"]
    state = game(hands=[hand[:5], hand[5:]], food=["b1"])  # empty table, one food card
    assert R.legal_actions(state, 0) == [f"mark:{a}" for a in range(4)]
    for card in hand[:5]:
        with pytest.raises(IllegalAction):
            R.apply(state, 0, card)
    act(state, "mark:0")
    # Shoo and Wander now have targets (seat 0's own marker); nothing else does.
    assert heads(state) == {"draw", "shoo", "wander"}
    with pytest.raises(IllegalAction, match="no legal target"):
        R.apply(state, 0, "snatch:0:b1")
    act(state, "draw", "feed:0")  # the last card: the game ends
    assert R.outcome(state) is not None


def test_C14_an_action_that_changes_nothing_has_no_target():
    plates = [["b1", "f2"], ["f2", "b1"], ["b3"], ["b3"]]
    state = game(hands=[["swap", "trade", "clean"], []], plates=plates)
    act(state, "mark:0")
    legal = R.legal_actions(state, 0)
    # Identical plates are not swapped, equal cards not traded, and only a < b is listed.
    assert "swap:0:1" not in legal and "swap:2:3" not in legal
    assert "swap:0:2" in legal and "swap:2:0" not in legal
    assert "trade:0:b1:1:b1" not in legal and "trade:2:b3:3:b3" not in legal
    assert "trade:0:b1:1:f2" in legal
    state = game(hands=[["clean"], []], plates=[["b1"], [], [], []])
    act(state, "mark:0")
    assert [a for a in R.legal_actions(state, 0) if a.startswith("clean")] == ["clean:0"]


def test_C15_a_sated_animal_is_out_of_reach():
    hand = ["shoo", "wander", "switch", "snatch", "bowl", "trade", "swap", "clean", "helping"]
    plates = [["b1"] * 3 + ["b2"] * 2, ["f1"], ["f2"], []]
    markers = [[0, 1], [0], [1], []]
    state = game(hands=[hand[:5], hand[5:]], plates=plates, markers=markers)
    assert R.view(state, None)["animals"][MAX]["sated"] is True
    assert "mark:0" not in R.legal_actions(state, 0)
    act(state, "mark:3")
    assert R.legal_actions(state, 0)[1:]  # the cards have targets, only not Max
    for action in R.legal_actions(state, 0):
        assert MAX not in animals_in(action), action
    act(state, "draw")
    assert "feed:0" not in R.legal_actions(state, 0)
    act(state, "feed:3", "stop", "mark:3")
    assert R.legal_actions(state, 1)[1:]
    for action in R.legal_actions(state, 1):
        assert MAX not in animals_in(action), action


# ---- end and scoring ----------------------------------------------------------------


def test_C16_ends_when_all_animals_but_one_are_sated():
    full = ["b1", "b2", "b3", "b4", "b5"]
    plates = [full, ["f1", "f2", "f3", "f4"], ["b6"] * 3 + ["b5"] * 2, []]
    state = game(plates=plates, markers=[[], [0], [], []], food=["f6", "f5"])
    events = act(state, "mark:3", "draw", "feed:1")
    assert types(events)[-3:] == ["fed", "sated", "over"]
    assert events[-1]["reason"] == "sated" and R.to_act(state) == []
    assert list(R.outcome(state).scores) == [16, 0] and len(state.pile) == 1
    for seat in (0, 1):
        assert R.legal_actions(state, seat) == []
        with pytest.raises(IllegalAction, match="over"):
            R.apply(state, seat, "draw")


def test_C16_ends_when_the_last_food_card_is_placed_mid_feeding():
    state = game(food=["f1", "f2"])
    events = act(state, "mark:1", "draw", "feed:1", "more")
    assert types(events)[-2:] == ["fed", "over"] and events[-1]["reason"] == "food"
    assert R.view(state, None)["over"] is True and list(R.outcome(state).scores) == [3, 0]


def test_C16_first_helping_takes_the_last_card_no_second_helping():
    state = game(food=["f1", "f2"], hands=[["helping"], []])
    events = act(state, "mark:1", "helping")
    assert types(events)[-2:] == ["action", "drew"]
    events = act(state, "feed:1", "more")
    assert types(events)[-1] == "over" and state.food[CLARENCE] == ["f1", "f2"]
    assert R.outcome(state) is not None


def test_C16_ends_in_the_middle_of_the_second_helping():
    state = game(food=["f1", "f2", "f3"], hands=[["helping"], []])
    act(state, "mark:1", "helping", "feed:1", "stop", "feed:3")
    assert R.legal_actions(state, 0) == ["more", "stop"]
    events = act(state, "more")
    assert types(events)[-2:] == ["fed", "over"] and state.food[LUNA] == ["f2", "f3"]


def test_C16_second_helping_skipped_when_the_first_feeding_ends_the_game():
    full = ["b1", "b2", "b3", "b4", "b5"]
    plates = [full, ["f1", "f2", "f3", "f4"], ["b6"] * 3 + ["b5"] * 2, []]
    state = game(plates=plates, food=["f6", "f5", "f4"], hands=[["helping"], []])
    events = act(state, "mark:3", "helping", "feed:1")
    assert types(events)[-1] == "over" and state.pile == ["f5", "f4"]
    assert R.outcome(state) is not None and state.drawn is None


def test_C16_six_players_cannot_end_by_satiation():
    assert 11 * 5 > 54  # 12 animals: 11 sated would need 55 food cards
    for seed in range(30):
        result = playout(R, 6, seed, deep=False)
        assert result.state.reason == "food" and not result.state.pile


def test_C17_clarence_a_cat_with_fish_5_and_bones_7_scores_minus_2():
    state = game(plates=[["b3", "f2"], ["f5", "b3", "b4"], [], []])
    animals = R.view(state, None)["animals"]
    assert animals[CLARENCE]["name"] == "Clarence" and animals[CLARENCE]["score"] == -2
    assert animals[MAX]["score"] == 1  # a dog: bones add, fish subtract


def test_C18_each_marker_scores_its_animal_two_on_clarence_is_minus_4():
    plates = [["b3", "f2"], ["f5", "b3", "b4"], [], []]
    state = game(plates=plates, markers=[[1], [0, 0, 1], [], []], food=["b1"])
    act(state, "mark:2", "draw", "feed:3")  # Luna has no markers: the scores stand
    assert R.outcome(state).places() == {"scores": [-4, -1], "ranks": [2, 1]}


def test_C19_tied_players_share_the_victory():
    layout = [ID["Rex"], ID["Fido"], ID["Clarence"], ID["Luna"], ID["Max"], ID["Bella"]]
    markers = [[0], [1], [2], [], [], []]
    plates = [["b2"], ["b2"], [], [], [], []]
    state = game(3, layout=layout, markers=markers, plates=plates, food=["f1"])
    act(state, "mark:5", "draw", "feed:3")  # Bella and Luna score nothing
    assert R.outcome(state).places() == {"scores": [2, 2, 0], "ranks": [1, 1, 3]}


# ---- the nine action cards ----------------------------------------------------------


def test_C20a_shoo_sends_any_marker_home():
    state = game(hands=[["shoo"], []], markers=[[1, 0], [1], [], []])
    act(state, "mark:3")
    targets = [a for a in R.legal_actions(state, 0) if a.startswith("shoo")]
    assert targets == ["shoo:0:0", "shoo:0:1", "shoo:1:1", "shoo:3:0"]
    events = act(state, "shoo:0:1")
    assert events[0] == {
        "type": "action", "to": None, "seat": 0, "card": "shoo", "animal": 0, "owner": 1
    }  # fmt: skip
    assert state.markers[MAX] == [0] and state.supply == [4, 5]


def test_C20b_wander_moves_your_marker_to_a_free_square():
    state = game(hands=[["wander"], []], markers=[[0], [1, 1, 1], [1], []])
    act(state, "mark:0")
    targets = [a for a in R.legal_actions(state, 0) if a.startswith("wander")]
    assert targets == ["wander:0:3"]  # Clarence and Rex are full, Max is where it is
    act(state, "wander:0:3")
    assert state.markers[MAX] == [0] and state.markers[LUNA] == [0]


def test_C20c_switch_seats_swaps_your_marker_with_anothers():
    state = game(hands=[["switch"], []], markers=[[0], [1, 0], [], [1]])
    act(state, "mark:2")
    targets = [a for a in R.legal_actions(state, 0) if a.startswith("switch")]
    assert "switch:0:1:1" in targets and "switch:1:3:1" in targets
    assert "switch:1:1:1" not in targets  # a different animal
    assert not any(a.endswith(":0") for a in targets)  # another player's marker
    act(state, "switch:0:3:1")
    assert state.markers[MAX] == [1] and state.markers[LUNA] == [0]
    assert state.supply == [3, 4]


def test_C20d_snatch_discards_one_food_card():
    state = game(hands=[["snatch"], []], plates=[["b2", "b2", "f1"], [], [], []])
    act(state, "mark:0")
    targets = [a for a in R.legal_actions(state, 0) if a.startswith("snatch")]
    assert targets == ["snatch:0:b2", "snatch:0:f1"]  # equal cards offered once
    act(state, "snatch:0:b2")
    assert state.food[MAX] == ["b2", "f1"] and R.view(state, 1)["discard"] == ["b2"]


def test_C20e_pass_the_bowl_moves_a_card_and_may_sate():
    plates = [["b6"], ["f1", "f2", "f3", "f4"], [], []]
    state = game(hands=[["bowl", "bowl"], []], plates=plates, food=["b1", "b2", "b3"])
    act(state, "mark:0")
    targets = [a for a in R.legal_actions(state, 0) if a.startswith("bowl")]
    assert "bowl:0:b6:1" in targets and "bowl:0:b6:0" not in targets
    events = act(state, "bowl:0:b6:1")
    assert types(events) == ["action", "sated", "turn"]
    assert state.food[CLARENCE] == ["f1", "f2", "f3", "f4", "b6"] and state.food[MAX] == []


def test_C20e_pass_the_bowl_can_end_the_game():
    plates = [["b1"] * 4 + ["b2"], ["f1", "f2", "f3", "f4"], ["b6"] * 3 + ["b5"] * 2, ["f6"]]
    state = game(hands=[["bowl"], []], plates=plates, food=["b4"])
    events = act(state, "mark:3", "bowl:3:f6:1")
    assert types(events)[-2:] == ["sated", "over"] and events[-1]["reason"] == "sated"


def test_C20f_trade_a_bite_swaps_one_card_each():
    plates = [["b1", "b6"], ["f4"], ["b6"], []]
    state = game(hands=[["trade"], []], plates=plates)
    act(state, "mark:0")
    targets = [a for a in R.legal_actions(state, 0) if a.startswith("trade")]
    assert targets == ["trade:0:b1:1:f4", "trade:0:b1:2:b6", "trade:0:b6:1:f4", "trade:1:f4:2:b6"]
    act(state, "trade:0:b6:1:f4")
    assert state.food[MAX] == ["b1", "f4"] and state.food[CLARENCE] == ["b6"]


def test_C20f_trade_a_bite_targets_can_be_chosen_one_token_at_a_time():
    plates = [["b1", "b2", "b3", "b4"], ["f1", "f2", "f3", "f4"]] + [["f5", "b5", "f6", "b6"]] * 2
    state = game(hands=[["trade"], []], plates=plates)
    act(state, "mark:0")
    trades = [a.split(":") for a in R.legal_actions(state, 0) if a.startswith("trade")]
    assert len(trades) > 50 and all(len(":".join(t)) <= 40 for t in trades)
    # Step by step: each prefix narrows the choices, every path ends in one action.
    firsts = sorted({t[1] for t in trades})
    assert firsts == ["0", "1", "2"]
    assert {t[2] for t in trades if t[1] == "0"} == {"b1", "b2", "b3", "b4"}


def test_C20g_swap_dinners_swaps_all_food():
    state = game(hands=[["swap"], []], plates=[["b1", "b2"], ["f6"], [], []])
    act(state, "mark:0")
    targets = [a for a in R.legal_actions(state, 0) if a.startswith("swap")]
    assert targets == ["swap:0:1", "swap:0:2", "swap:0:3", "swap:1:2", "swap:1:3"]
    act(state, "swap:0:1")
    assert state.food[MAX] == ["f6"] and state.food[CLARENCE] == ["b1", "b2"]


def test_C20h_clean_the_bowl_discards_all_its_food():
    state = game(hands=[["clean"], []], plates=[[], ["b5", "b6"], [], []])
    act(state, "mark:1")
    assert [a for a in R.legal_actions(state, 0) if a.startswith("clean")] == ["clean:1"]
    act(state, "clean:1")
    assert state.food[CLARENCE] == [] and sorted(state.discard) == ["b5", "b6"]


def test_C20i_second_helping_feeds_two_different_animals():
    state = game(hands=[["helping"], []], food=["f1", "f2", "f3", "b1", "b2", "b3"])
    events = act(state, "mark:1", "helping")
    assert types(events)[-2:] == ["action", "drew"] and R.view(state, 1)["drawn"] == "f1"
    act(state, "feed:1", "more")
    events = act(state, "stop")
    assert types(events) == ["stopped", "drew"] and R.to_act(state) == [0]
    assert R.view(state, None)["not_on"] == CLARENCE
    assert R.legal_actions(state, 0) == ["feed:0", "feed:2", "feed:3"]
    with pytest.raises(IllegalAction, match="another animal"):
        R.apply(state, 0, "feed:1")
    act(state, "feed:3", "more", "more")
    events = act(state, "stop")
    assert types(events) == ["stopped", "turn"] and R.to_act(state) == [1]
    assert state.food[CLARENCE] == ["f1", "f2"] and state.food[LUNA] == ["f3", "b1", "b2"]


def test_C20i_second_helping_needs_two_food_cards():
    state = game(hands=[["helping"], []], food=["f1"])
    act(state, "mark:1")
    assert R.legal_actions(state, 0) == ["draw"]


def test_C20i_second_helping_after_a_fifth_card():
    plates = [["b1", "b2", "b3", "b4"], [], [], []]
    state = game(hands=[["helping"], []], plates=plates, food=["b5", "f1", "f2"])
    events = act(state, "mark:0", "helping", "feed:0")
    assert types(events)[-3:] == ["fed", "sated", "drew"]
    assert R.legal_actions(state, 0) == ["feed:1", "feed:2", "feed:3"]


# ---- contract, options, determinism -------------------------------------------------


def test_options_are_validated():
    bad = [
        {"layout": [0, 0, 1, 2]},
        {"layout": [0, 1, 2]},
        {"layout": [0, 1, 2, 99]},
        {"food": ["b7"]},
        {"food": ["b1"] * 5},
        {"food": []},
        {"hands": [["fly"], []]},
        {"hands": [["shoo"] * 3, []]},
        {"first": 2},
        {"markers": [[0, 0, 0], [], [], []], "layout": LAYOUT[::-1]},  # Luna holds 2
        {"plates": [["b1"] * 6, [], [], []]},
        {"colour": "red"},
    ]
    for options in bad:
        with pytest.raises(ValueError):  # noqa: PT011 - each bad option has its own message
            R.setup(2, 1, options)


def test_view_keys_and_hidden_hands():
    state = R.setup(4, 3)
    public = R.view(state, None)
    assert set(public) >= {
        "animals", "food_left", "drawn", "markers_left", "action_cards",
        "to_act", "phase", "over",
    }  # fmt: skip
    assert public["markers_left"] == [6] * 4 and public["action_cards"] == [3] * 4
    for seat in range(4):
        check_view(state, seat, R.view(state, seat))


def test_actions_are_short_and_documented_prefixes():
    prefixes = set()
    for seed in range(30):
        result = playout(R, 4, seed, deep=False)
        prefixes |= {a.split(":")[0] for _, a in result.actions}
        assert all(len(a.encode()) <= 40 for _, a in result.actions)
    doc = importlib.import_module(R.__module__).__doc__
    assert prefixes <= {"mark", "draw", "feed", "more", "stop", *(c.code for c in ACTION_CARDS)}
    for prefix in prefixes:
        assert prefix in doc


def test_replay_is_deterministic():
    for n in (2, 4, 6):
        result = playout(R, n, 99 + n, deep=False)
        again = replay(R, n, 99 + n, result.actions)
        assert R.dump(again) == R.dump(result.state)
        assert R.outcome(again) == R.outcome(result.state)


def test_all_events_are_public():
    for seed in range(20):
        assert all(e["to"] is None for e in playout(R, 3, seed, deep=False).events)


# ---- invariants over many random games ----------------------------------------------


# Random games per player count; CATS_AND_DOGS_GAMES=300 for a quick local run.
GAMES = int(os.environ.get("CATS_AND_DOGS_GAMES", "2000"))


@pytest.mark.parametrize("n", range(2, 7))
def test_I1_I2_I3_I4_hold_over_many_random_games(n):
    longest = 0
    for seed in range(GAMES):
        result = playout(R, n, seed, deep=False, invariants=invariants, max_steps=600)
        invariants(result.state)
        longest = max(longest, sum(e["type"] == "turn" for e in result.events))
    # I4: every turn draws food or spends an action card: at most 54 + 18 turns.
    assert longest < 54 + 18


@pytest.mark.parametrize("n", range(2, 7))
def test_full_contract_over_random_games(n):
    for seed in range(12):
        playout(R, n, 1000 + seed, deep=True, invariants=invariants, check_view=check_view)


def card_heavy(rng: random.Random, legal: list[str]) -> str:
    """Random, but plays action cards whenever it can: reaches their corner cases."""
    cards = [a for a in legal if a.split(":")[0] not in {"draw", "more", "stop"}]
    return rng.choice(cards or legal)


@pytest.mark.parametrize("n", range(2, 7))
def test_full_contract_with_action_cards_first(n):
    for seed in range(6):
        playout(
            R, n, 2000 + seed, deep=True, invariants=invariants, check_view=check_view,
            choose=card_heavy,
        )  # fmt: skip


TOKENS = [
    "0",
    "1",
    "2",
    "3",
    "5",
    "11",
    "12",
    "01",
    "²",
    " 1",
    "b1",
    "b3",
    "f2",
    "f6",
    "x",
    "",
    "-1",
]
HEADS = ["mark", "draw", "feed", "more", "stop", *(c.code for c in ACTION_CARDS), "pass"]


@settings(deadline=None, max_examples=150)
@given(
    n=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 80),
    head=st.sampled_from(HEADS),
    args=st.lists(st.sampled_from(TOKENS), max_size=4),
)
def test_apply_accepts_exactly_the_legal_actions(n, seed, steps, head, args):
    rng = random.Random(seed)
    state = R.setup(n, seed)
    for _ in range(steps):
        if not R.to_act(state):
            break
        seat = R.to_act(state)[0]
        R.apply(state, seat, card_heavy(rng, R.legal_actions(state, seat)))
    action = ":".join([head, *args])
    for seat in range(n):
        before = R.dump(state)
        legal = R.legal_actions(state, seat)
        if action in legal:
            R.apply(R.clone(state), seat, action)
        else:
            with pytest.raises(IllegalAction):
                R.apply(state, seat, action)
            assert R.dump(state) == before
