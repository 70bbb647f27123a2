"""Felix engine: one test (or more) per clause of the rules specification felix.md.

Scenario tests stack the deal with the options: each hand is a colour set minus one card
(``without(card)``), so a round can put any card of the set in the row; ``first`` fixes
the first player. ``play_round`` places the cards and runs an auction from a script.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import chain

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, visible_to
from games.kinds.felix.engine import CATS, RULES, SET, cat_points, chase
from tests.engines.harness import MAX_STATE_BYTES, playout, replay

PUBLIC_KEYS = {
    "game", "n_players", "round", "rounds", "phase", "over", "first", "to_act", "turn",
    "row", "row_seats", "placed", "stakes", "highest_bid", "highest_bidder", "passed",
    "last_offer", "mouse_cards", "pass_gain", "bank", "mice_out", "hand_counts", "sacks",
    "virtual_left", "discarded",
}  # fmt: skip
OUTCOME_KEYS = {"scores", "ranks", "cat_points"}
OWN_KEYS = {"seat", "hand", "mice", "score_pile", "missing", "my_card"}


# --- helpers ------------------------------------------------------------------------------
def without(card: str) -> list[str]:
    """A hand: the colour set minus ``card`` (the card removed at set-up)."""
    return [c for c in SET if c != card]


def pile(top: str) -> list[str]:
    """A virtual pile (3 players) of 9 distinct cards with ``top`` on top."""
    return [top, *[c for c in SET if c != top][:8]]


def deal(n: int = 4, first: int = 0, missing: str = "R", virtual=None, seed: int = 1) -> dict:
    options = {"hands": [without(missing)] * n, "first": first}
    if virtual is not None:
        options["virtual"] = virtual
    return RULES.setup(n, seed, options)


def place(state: dict, cards: dict[int, str] | list[str]) -> list[dict]:
    """Every seat places its card (in seat order; placement is simultaneous)."""
    items = cards.items() if isinstance(cards, dict) else enumerate(cards)
    events = []
    for seat, card in items:
        events += RULES.apply(state, seat, f"place:{card}")
    return events


def run(state: dict, *script: str) -> list[dict]:
    """The auction from a script of actions, each played by the seat to act."""
    events = []
    for action in script:
        (seat,) = RULES.to_act(state)
        events += RULES.apply(state, seat, action)
    return events


def play_round(state: dict, cards, *script: str) -> list[dict]:
    return place(state, cards) + run(state, *script)


def kinds(events: list[dict]) -> list[str]:
    return [ev["type"] for ev in events]


def find(events: list[dict], kind: str) -> dict:
    (ev,) = [ev for ev in events if ev["type"] == kind]
    return ev


def public(state: dict) -> dict:
    return RULES.view(state, None)


def edited(state: dict, **changes) -> dict:
    """A copy of ``state`` with some fields replaced (for situations play cannot reach)."""
    data = RULES.dump(state)
    data.update(changes)
    return RULES.load(json.loads(json.dumps(data)))


def sets_in_play(n: int) -> int:
    return 4 if n == 3 else n  # F30: the virtual player's set


ALL_CARDS = {n: sorted(SET * sets_in_play(n)) for n in (3, 4, 5)}


def invariants(state: dict) -> None:
    n, mice, stakes, passed = state["n"], state["mice"], state["stakes"], state["passed"]
    # I1: mice are conserved, and nobody ever holds a negative amount.
    on_cards = [on for _, on in state["cards"]]
    total = sum(mice) + state["bank"] + sum(on_cards) + sum(stakes) + state["mice_out"]
    assert total == 108, total
    assert min(mice) >= 0 and state["bank"] >= 0 and min(stakes) >= 0 and min(on_cards) >= 0
    # I2: every set in play keeps its 10 cards among hands, row, piles and out of game.
    cards = sorted(
        chain(
            chain.from_iterable(state["hands"]),
            filter(None, state["placed"]),
            state["row"],
            chain.from_iterable(state["piles"]),
            state["out"],
            state["removed"],
            state["virtual"],
        )
    )
    assert cards == ALL_CARDS[n], Counter(cards)
    # I3: one card per hand per round, nine rounds, then the game is over.
    rnd, phase = state["round"], state["phase"]
    assert 1 <= rnd <= 9
    if phase == "over":
        assert rnd == 9 and not any(state["hands"]) and not state["row"] and not any(stakes)
    else:
        sizes = [len(hand) for hand in state["hands"]]
        if phase == "auction":
            assert sizes == [9 - rnd] * n
        else:
            assert sizes == [9 - rnd + (c is None) for c in state["placed"]], sizes
    if n == 3:
        assert len(state["virtual"]) == 9 - rnd + (phase == "place")
    # Bids: only players still in hold a stake, so the highest bidder never passed.
    assert not any(stakes[s] for s in range(n) if passed[s])
    if phase == "auction":
        assert state["turn"] is not None and not passed[state["turn"]]


def rotate(card: str) -> str:
    return SET[(SET.index(card) + 1) % len(SET)]


def check_view(state: dict, seat: int | None, view: dict) -> None:
    """F17 and the face-down rule: a view shows the public table plus the seat's own
    things, and nothing else. Changing everything the seat may not know (the others'
    hands, mice and score piles, face-down cards, the virtual pile, the removed cards)
    leaves the view unchanged."""
    over = state["phase"] == "over"
    expected = PUBLIC_KEYS | (OUTCOME_KEYS if over else set())
    if seat is None:
        assert set(view) == expected
    else:
        assert set(view) == expected | OWN_KEYS
        assert view["hand"] == state["hands"][seat]
        assert view["mice"] == state["mice"][seat]
        assert view["score_pile"] == state["piles"][seat]
        assert view["missing"] == state["removed"][seat]
        assert {k: v for k, v in view.items() if k not in OWN_KEYS} == public(state)
    shown = state["shown"]
    assert view["row"] == state["row"][:shown] + [None] * (len(state["row"]) - shown)

    others = [s for s in range(state["n"]) if s != seat]
    hidden = RULES.dump(state)
    for s in others:
        hidden["hands"][s] = [rotate(c) for c in hidden["hands"][s]]
        if hidden["placed"][s] is not None:
            hidden["placed"][s] = rotate(hidden["placed"][s])
        if not over:  # at the end the scores are public, and with them mice and cats
            hidden["mice"][s] += 7
            hidden["piles"][s] = [rotate(c) for c in hidden["piles"][s]] + ["15"]
    for pos in range(shown, len(state["row"])):
        if RULES._row_seat(state, pos) != seat:
            hidden["row"][pos] = rotate(hidden["row"][pos])
    hidden["virtual"] = [rotate(c) for c in hidden["virtual"]]
    hidden["removed"] = [c if s == seat else rotate(c) for s, c in enumerate(hidden["removed"])]
    assert RULES.view(RULES.load(hidden), seat) == view


def pass_often(rng: random.Random, legal: list[str]) -> str:
    """A random player that passes half the time (short auctions, many F23/F24 rounds)."""
    return "pass" if legal[-1] == "pass" and rng.random() < 0.5 else rng.choice(legal)


def pass_always(rng: random.Random, legal: list[str]) -> str:
    return "pass" if legal[-1] == "pass" else rng.choice(legal)


def bid_always(rng: random.Random, legal: list[str]) -> str:
    """Always the lowest bid when there is one (long auctions, players go broke)."""
    return legal[0]


# --- components and set-up ----------------------------------------------------------------
def test_F1_colour_sets_of_cats_rabbit_and_two_dogs():
    assert SET == ("-8", "-5", "3", "5", "8", "11", "15", "R", "D", "d")
    assert CATS == {"-8": -8, "-5": -5, "3": 3, "5": 5, "8": 8, "11": 11, "15": 15}
    assert cat_points(["R", "D", "d"]) == 0  # rabbits and dogs are not cats
    state = RULES.setup(5, 3)
    for hand, gone in zip(state["hands"], state["removed"], strict=True):
        assert sorted([*hand, gone]) == sorted(SET)


@pytest.mark.parametrize(("n", "numbers"), [(3, [3, 6]), (4, [2, 4, 6]), (5, [2, 3, 4, 6])])
def test_F2_F7_F8_F28_mouse_cards_in_ascending_order_loaded_to_their_number(n, numbers):
    view = public(RULES.setup(n, 1))
    assert view["mouse_cards"] == [[k, k] for k in numbers]
    assert view["pass_gain"] == numbers[0]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_F3_I1_one_hundred_and_eight_mice_at_set_up(n):
    invariants(RULES.setup(n, 5))


def test_F4_one_card_of_each_set_removed_unseen_the_owner_knows_which():
    removed = Counter()
    for seed in range(60):
        state = RULES.setup(4, seed)
        for seat in range(4):
            hand = state["hands"][seat]
            assert len(hand) == 9 and len(set(hand)) == 9
            mine = RULES.view(state, seat)
            assert mine["missing"] == state["removed"][seat]
            assert mine["missing"] not in mine["hand"]
            removed[state["removed"][seat]] += 1
        assert "missing" not in public(state)
        assert "missing" not in json.dumps(public(state))
    assert set(removed) == set(SET)  # any card may be the one removed


@pytest.mark.parametrize(("n", "bank", "out"), [(3, 21 - 9, 42), (4, 27 - 12, 21), (5, 33 - 15, 0)])
def test_F5_F6_F29_fifteen_mice_each_bank_and_mice_out_of_game(n, bank, out):
    state = RULES.setup(n, 1)
    assert state["mice"] == [15] * n
    assert all(RULES.view(state, s)["mice"] == 15 for s in range(n))
    # F6/F29: the bank holds 33/27/21 and loads the mouse cards from that.
    view = public(state)
    assert view["bank"] == bank and view["mice_out"] == out


def test_F9_random_first_player_or_the_option():
    firsts = Counter(public(RULES.setup(4, seed))["first"] for seed in range(80))
    assert set(firsts) == {0, 1, 2, 3}
    assert public(RULES.setup(5, 9, {"first": 3}))["first"] == 3


def test_setup_is_seeded_same_arguments_same_game():
    assert RULES.setup(4, 42) == RULES.setup(4, 42)
    assert len({json.dumps(RULES.setup(4, seed)["hands"]) for seed in range(20)}) == 20


@pytest.mark.parametrize(
    ("n", "options", "message"),
    [
        (4, [], "must be a dict"),
        (4, {"colour": 1}, "unknown felix options: colour"),
        (4, {"first": 4}, "first must be a seat"),
        (4, {"first": True}, "first must be a seat"),
        (4, {"hands": [without("R")] * 3}, "list of 4 hands"),
        (4, {"hands": [without("R")] * 3 + [without("R")[:8]]}, r"hands\[3\] must be a list of 9"),
        (4, {"hands": [without("R")] * 3 + [["15"] * 9]}, "each card once"),
        (4, {"hands": [without("R")] * 3 + [[*without("R")[:8], "7"]]}, "unknown card '7'"),
        (4, {"virtual": without("R")}, "only used with 3 players"),
        (3, {"virtual": without("R")[:8]}, "virtual must be a list of 9"),
    ],
)
def test_options_are_validated(n, options, message):
    with pytest.raises(ValueError, match=message):
        RULES.setup(n, 1, options)


def test_player_count_is_checked():
    for n in (2, 6):
        with pytest.raises(ValueError, match="3 to 5 players"):
            RULES.setup(n, 1)


def test_options_stack_hands_and_leave_none_to_the_shuffle():
    state = RULES.setup(3, 8, {"hands": [without("15"), None, without("-8")], "first": 2})
    assert state["hands"][0] == without("15") and state["removed"][0] == "15"
    assert state["hands"][1] == RULES.setup(3, 8)["hands"][1]
    assert state["removed"][2] == "-8"


# --- a round ------------------------------------------------------------------------------
def test_F10_cards_placed_simultaneously_public_only_as_a_placement():
    state = deal(4, first=2)
    assert RULES.to_act(state) == [2, 3, 0, 1]  # everyone at once, listed from the first
    assert all(RULES.legal_actions(state, s) == [f"place:{c}" for c in without("R")]
               for s in range(4))  # fmt: skip
    events = RULES.apply(state, 0, "place:15")
    placed, mine = events
    assert placed == {"type": "placed", "to": None, "seat": 0}
    assert mine == {"type": "you_placed", "to": [0], "seat": 0, "card": "15"}
    assert RULES.to_act(state) == [2, 3, 1]
    assert RULES.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="already placed"):
        RULES.apply(state, 0, "place:11")
    assert public(state)["placed"] == [True, False, False, False]
    assert public(state)["hand_counts"] == [8, 9, 9, 9]
    assert RULES.view(state, 0)["my_card"] == "15" and "15" not in RULES.view(state, 0)["hand"]
    assert RULES.view(state, 1)["my_card"] is None
    with pytest.raises(IllegalAction, match="auction starts once everyone"):
        RULES.apply(state, 1, "bid:1")
    with pytest.raises(IllegalAction, match="not have that card"):
        RULES.apply(state, 1, "place:R")  # the removed card
    place(state, {1: "-8", 3: "3", 2: "5"})
    # The row in seat order from the first player (seat 2).
    assert state["row"] == ["5", "3", "15", "-8"]
    assert public(state)["row_seats"] == [2, 3, 0, 1]


def test_F11_the_first_players_card_is_turned_up():
    state = deal(4, first=1)
    events = place(state, ["8", "-5", "11", "3"])
    turned = find(events, "card_turned")
    assert turned == {"type": "card_turned", "to": None, "position": 0, "seat": 1, "card": "-5"}
    assert public(state)["row"] == ["-5", None, None, None]
    assert public(state)["phase"] == "auction" and RULES.to_act(state) == [1]
    assert RULES.view(state, 2)["my_card"] == "11"  # its owner still knows its own card


def test_F12_auction_from_the_first_player_clockwise_bids_must_rise():
    state = deal(4, first=2)
    place(state, ["3", "5", "8", "11"])
    assert RULES.to_act(state) == [2]
    legal = RULES.legal_actions(state, 2)
    assert legal[0] == "bid:1" and legal[-2] == "bid:15" and legal[-1] == "pass"
    with pytest.raises(IllegalAction, match="at least 1 mouse"):
        RULES.apply(state, 2, "bid:0")
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.apply(state, 3, "bid:1")
    events = run(state, "bid:5")
    assert events == [{"type": "bid", "to": None, "seat": 2, "amount": 5}]
    assert RULES.to_act(state) == [3]
    assert RULES.legal_actions(state, 3)[0] == "bid:6"
    for low in ("bid:5", "bid:3"):
        with pytest.raises(IllegalAction, match="higher than 5"):
            RULES.apply(state, 3, low)
    run(state, "pass", "bid:6")
    assert RULES.to_act(state) == [1]
    run(state, "pass")
    # Seat 3 passed, so the turn goes from seat 0 round to seat 2.
    assert RULES.to_act(state) == [2]
    view = public(state)
    assert view["highest_bid"] == 6 and view["highest_bidder"] == 0
    assert view["stakes"] == [6, 0, 5, 0]


def test_F13_a_bid_is_the_total_stake_and_cannot_exceed_the_mice_owned():
    state = deal(4, first=0)
    place(state, ["3", "5", "8", "11"])
    run(state, "bid:3", "bid:5", "pass", "pass")
    assert RULES.view(state, 0)["mice"] == 12
    run(state, "bid:7")  # seat 0 raises its total to 7: 4 more mice
    assert RULES.view(state, 0)["mice"] == 8 and public(state)["stakes"][0] == 7
    assert RULES.legal_actions(state, 1)[-2] == "bid:15"  # 10 mice + 5 on the table
    with pytest.raises(IllegalAction, match="more mice than you have"):
        RULES.apply(state, 1, "bid:16")
    for bad in ("bid:08", "bid:+8", "bid: 8", "bid:8.0", "bid:٨"):
        with pytest.raises(IllegalAction, match="whole number"):
            RULES.apply(state, 1, bad)


def test_F13_a_player_without_enough_mice_can_only_pass():
    state = deal(4, first=0)
    play_round(state, ["3", "5", "8", "11"], "bid:15", "pass", "pass", "pass")
    assert RULES.view(state, 0)["mice"] == 0 and public(state)["first"] == 0
    place(state, ["5", "8", "11", "15"])
    assert RULES.legal_actions(state, 0) == ["pass"]
    with pytest.raises(IllegalAction, match="more mice than you have"):
        RULES.apply(state, 0, "bid:1")
    # Mice now: seat 1 took 2 in round 1 (17), seat 2 took 4 (19), seat 3 took 6 (21).
    run(state, "pass", "bid:17")
    assert RULES.legal_actions(state, 2) == ["bid:18", "bid:19", "pass"]
    run(state, "bid:19", "bid:21")
    # Seat 1's 17 mice, all on the table, cannot top 21.
    assert RULES.legal_actions(state, 1) == ["pass"]


def test_F14_pass_returns_the_stake_and_takes_the_lowest_loaded_mouse_card():
    state = deal(4, first=0)
    place(state, ["3", "5", "8", "11"])
    run(state, "bid:2", "bid:3", "bid:4", "bid:5")
    events = run(state, "pass")  # seat 0: its 2 back plus the 2 on the lowest card
    assert find(events, "pass") == {
        "type": "pass", "to": None, "seat": 0, "returned": 2, "took": 2, "mouse_card": 2,
    }  # fmt: skip
    assert RULES.view(state, 0)["mice"] == 17
    assert public(state)["mouse_cards"] == [[2, 0], [4, 4], [6, 6]]
    assert public(state)["pass_gain"] == 4
    events = run(state, "pass")  # seat 1: 3 back, then the 4 (the 2 card is empty)
    assert find(events, "pass")["took"] == 4 and find(events, "pass")["mouse_card"] == 4
    assert RULES.view(state, 1)["mice"] == 19
    # A passed player is skipped and cannot bid again this round.
    assert RULES.to_act(state) == [2] and RULES.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.apply(state, 0, "bid:9")


def test_F14_a_pass_skips_mouse_cards_that_hold_no_mice():
    state = deal(5, first=0)
    place(state, ["3", "5", "8", "11", "15"])
    # Only reachable by editing: the lowest cards empty, a higher one still loaded.
    state = edited(state, cards=[[2, 0], [3, 0], [4, 4], [6, 6]], bank=state["bank"] + 5)
    assert find(run(state, "pass"), "pass")["took"] == 4
    assert public(state)["mouse_cards"] == [[2, 0], [3, 0], [4, 0], [6, 6]]


def test_F15_each_pass_turns_the_next_card():
    state = deal(5, first=3)
    place(state, ["-8", "-5", "3", "5", "8"])  # row: seat 3, 4, 0, 1, 2
    assert public(state)["row"] == ["5", None, None, None, None]
    run(state, "bid:1")
    events = run(state, "pass")  # seat 4
    assert find(events, "card_turned") == {
        "type": "card_turned", "to": None, "position": 1, "seat": 4, "card": "8",
    }  # fmt: skip
    assert public(state)["row"] == ["5", "8", None, None, None]
    run(state, "bid:2")  # a bid turns nothing
    assert public(state)["row"] == ["5", "8", None, None, None]
    run(state, "pass")
    assert public(state)["row"] == ["5", "8", "-8", None, None]


def test_F16_the_last_bidder_pays_the_bank_takes_the_row_and_the_marker():
    state = deal(4, first=0)
    bank = public(state)["bank"]
    events = play_round(state, ["3", "5", "8", "11"], "pass", "bid:4", "pass", "pass")
    turned = [ev["card"] for ev in events if ev["type"] == "card_turned"]
    assert turned == ["3", "5", "8", "11"]  # the whole row is up when it is sold
    sold = find(events, "sack_bought")
    assert sold == {"type": "sack_bought", "to": None, "seat": 1, "price": 4,
                    "cards": ["3", "5", "8", "11"]}  # fmt: skip
    assert state["piles"][1] == ["3", "5", "8", "11"]
    assert RULES.view(state, 1)["score_pile"] == ["3", "5", "8", "11"]
    assert RULES.view(state, 1)["mice"] == 11
    assert RULES.view(state, 1)["hand"] == [c for c in without("R") if c != "5"]
    view = public(state)
    assert view["first"] == 1 and view["sacks"] == [0, 1, 0, 0]
    # F16 + F21: 4 mice in, 12 out to refill the three cards.
    assert view["bank"] == bank + 4 - 12
    assert kinds(events)[-2:] == ["mouse_cards_refilled", "round_start"]
    assert find(events, "round_start") == {"type": "round_start", "to": None, "round": 2,
                                           "first": 1}  # fmt: skip
    assert RULES.to_act(state) == [1, 2, 3, 0]


def test_F17_bids_public_mice_and_score_piles_secret():
    state = deal(4, first=0)
    play_round(state, ["15", "5", "8", "11"], "bid:3", "pass", "pass", "pass")
    place(state, ["3", "-5", "-8", "d"])
    run(state, "pass", "bid:2")
    view = public(state)
    assert view["stakes"] == [0, 2, 0, 0]
    assert not {"mice", "hand", "score_pile"} & set(view)
    for seat in range(4):
        check_view(state, seat, RULES.view(state, seat))
    check_view(state, None, view)
    assert RULES.view(state, 0)["score_pile"] == ["15", "5", "8", "11"]
    assert RULES.view(state, 1)["score_pile"] == []


# --- dogs ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("dog", "kept", "chased"), [("d", ["11", "R"], "-5"),
                                                       ("D", ["-5", "R"], "11")])  # fmt: skip
def test_F18_F19_the_rule_books_example_small_dog_11_big_dog_minus_5(dog, kept, chased):
    state = deal(4, first=0, missing="3")
    events = play_round(state, ["-5", "11", dog, "R"], "bid:1", "pass", "pass", "pass")
    assert find(events, "dog_chase") == {"type": "dog_chase", "to": None, "dog": dog,
                                         "cat": chased}  # fmt: skip
    assert find(events, "sack_bought")["cards"] == kept
    assert state["piles"][0] == kept
    assert cat_points(kept) == (11 if dog == "d" else -5)
    assert public(state)["discarded"] == [dog, chased]  # both leave the game
    assert kinds(events).index("dog_chase") < kinds(events).index("sack_bought")


@pytest.mark.parametrize(
    ("row", "chased"),
    [
        (["D", "-8", "-5", "R"], "-5"),  # no positive cat: the negative closest to zero
        (["D", "3", "15", "-8"], "15"),
        (["d", "3", "15", "-5"], "-5"),
        (["d", "-5", "-8", "R"], "-8"),  # -8 before -5
        (["d", "3", "15", "R"], "3"),  # no negative cat: the lowest positive
        (["D", "R", "R", "-8"], "-8"),
    ],
)
def test_F19_which_cat_each_dog_chases(row, chased):
    kept, gone, events = chase(row)
    assert gone == [row[0], chased]
    assert sorted(kept + gone) == sorted(row)
    assert events == [{"type": "dog_chase", "to": None, "dog": row[0], "cat": chased}]


def test_F20_two_dogs_chase_each_other_no_cat_removed():
    state = deal(4, first=0)
    events = play_round(state, ["D", "15", "d", "-8"], "bid:1", "pass", "pass", "pass")
    assert find(events, "dogs_fight")["dogs"] == ["D", "d"]
    assert "dog_chase" not in kinds(events)
    assert state["piles"][0] == ["15", "-8"]
    assert public(state)["discarded"] == ["D", "d"]
    # Dogs of the same size (from two sets) fight too, three dogs as well.
    assert chase(["D", "D", "11", "-8"])[:2] == (["11", "-8"], ["D", "D"])
    assert chase(["d", "D", "d", "3"])[:2] == (["3"], ["d", "D", "d"])


def test_F20_a_lone_dog_without_cats_leaves_alone_and_rabbits_are_never_chased():
    assert chase(["R", "D", "R"]) == (
        ["R", "R"], ["D"], [{"type": "dog_chase", "to": None, "dog": "D", "cat": None}]
    )  # fmt: skip
    assert chase(["d", "R"])[:2] == (["R"], ["d"])
    state = deal(3, first=0, missing="3", virtual=pile("R"))
    events = play_round(state, ["D", "R", "R"], "bid:1", "pass", "pass")
    assert find(events, "sack_bought")["cards"] == ["R", "R", "R"]
    assert public(state)["discarded"] == ["D"]


# --- after the auction --------------------------------------------------------------------
def test_F21_mouse_cards_are_topped_up_to_their_numbers():
    state = deal(4, first=0)
    place(state, ["3", "5", "8", "11"])
    run(state, "bid:1", "pass", "pass")
    # Only reachable by editing: the 6 card still loaded when the auction ends.
    state = edited(state, cards=[[2, 0], [4, 1], [6, 6]], bank=state["bank"] - 1)
    bank = state["bank"]
    events = run(state, "pass")
    assert find(events, "pass")["took"] == 1
    assert find(events, "mouse_cards_refilled")["paid"] == 2 + 4
    assert public(state)["mouse_cards"] == [[2, 2], [4, 4], [6, 6]]
    assert public(state)["bank"] == bank + 1 - 6
    invariants(state)


def test_F22_when_the_bank_cannot_fill_every_card_none_is_filled():
    state = deal(4, first=0)
    assert public(state)["bank"] == 15
    play_round(state, ["3", "5", "8", "11"], "bid:1", "pass", "pass", "pass")
    assert public(state)["bank"] == 15 + 1 - 12
    events = play_round(state, ["5", "8", "11", "15"], "bid:1", "pass", "pass", "pass")
    assert find(events, "bank_short") == {"type": "bank_short", "to": None, "bank": 5,
                                          "need": 12}  # fmt: skip
    view = public(state)
    assert view["mouse_cards"] == [[2, 0], [4, 0], [6, 0]] and view["bank"] == 5
    assert view["pass_gain"] == 0
    # This round only the buyer gets something: passing pays nothing.
    place(state, ["8", "11", "15", "-8"])
    events = run(state, "pass", "bid:8", "pass", "pass")
    assert [ev["took"] for ev in events if ev["type"] == "pass"] == [0, 0, 0]
    assert all(ev["mouse_card"] is None for ev in events if ev["type"] == "pass")
    assert RULES.view(state, 0)["mice"] == 15 - 1 - 1  # only the stakes it paid, nothing won
    # The buyer's 8 mice let the bank fill the cards again.
    assert "mouse_cards_refilled" in kinds(events)
    assert public(state)["bank"] == 5 + 8 - 12


# --- special cases ------------------------------------------------------------------------
def test_F23_everyone_but_one_passes_without_a_bid_the_last_may_buy_for_one_mouse():
    state = deal(4, first=1)
    place(state, ["-8", "15", "11", "8"])
    events = run(state, "pass", "pass", "pass")
    assert [ev["card"] for ev in events if ev["type"] == "card_turned"] == ["11", "8", "-8"]
    assert find(events, "last_offer") == {"type": "last_offer", "to": None, "seat": 0,
                                          "price": 1}  # fmt: skip
    view = public(state)
    assert view["row"] == ["15", "11", "8", "-8"] and view["last_offer"] is True
    assert RULES.to_act(state) == [0]
    assert RULES.legal_actions(state, 0) == ["bid:1", "pass"]
    with pytest.raises(IllegalAction, match="for 1 mouse"):
        RULES.apply(state, 0, "bid:2")
    events = run(state, "bid:1")
    assert find(events, "sack_bought")["price"] == 1
    assert state["piles"][0] == ["15", "11", "8", "-8"]
    assert public(state)["first"] == 0 and RULES.view(state, 0)["mice"] == 14


def test_F23_a_last_player_without_mice_can_only_decline():
    state = deal(4, first=0)
    place(state, ["-8", "15", "11", "8"])
    run(state, "pass", "pass", "pass")
    state = edited(state, mice=[17, 19, 21, 0], bank=state["bank"] + 15)
    assert RULES.legal_actions(state, 3) == ["pass"]


def test_F24_if_the_last_player_passes_too_the_row_leaves_the_game():
    state = deal(4, first=1)
    bank = public(state)["bank"]
    place(state, ["-8", "-5", "D", "3"])
    events = run(state, "pass", "pass", "pass", "pass")
    assert find(events, "sack_discarded")["cards"] == ["-5", "D", "3", "-8"]
    assert [ev["took"] for ev in events if ev["type"] == "pass"] == [2, 4, 6, 0]
    assert "mouse_cards_refilled" not in kinds(events)
    view = public(state)
    assert view["round"] == 2 and view["first"] == 1  # same first player
    assert view["mouse_cards"] == [[2, 0], [4, 0], [6, 0]] and view["bank"] == bank
    assert view["discarded"] == ["-5", "D", "3", "-8"]
    assert view["hand_counts"] == [8, 8, 8, 8]  # F25: the round consumed a card each
    assert state["piles"] == [[], [], [], []]
    # The next round is played with empty mouse cards, then they are refilled.
    events = play_round(state, ["5", "8", "11", "15"], "pass", "bid:1", "pass", "pass")
    assert [ev["took"] for ev in events if ev["type"] == "pass"] == [0, 0, 0]
    assert public(state)["mouse_cards"] == [[2, 2], [4, 4], [6, 6]]
    assert public(state)["bank"] == bank + 1 - 12


# --- end and scoring ----------------------------------------------------------------------
def test_F25_the_game_ends_after_the_ninth_round_the_last_auction_is_paid():
    state = deal(4, first=0)
    hand = without("R")
    for rnd in range(1, 9):
        assert public(state)["round"] == rnd
        play_round(state, [hand[rnd - 1]] * 4, "pass", "pass", "pass", "pass")  # F24 rounds
    assert public(state)["round"] == 9 and public(state)["first"] == 0
    place(state, [hand[8]] * 4)
    bank = public(state)["bank"]
    events = run(state, "bid:3", "pass", "pass", "pass")
    assert kinds(events)[-1] == "game_over"
    assert "round_start" not in kinds(events) and "mouse_cards_refilled" not in kinds(events)
    assert public(state)["bank"] == bank + 3  # paid like any other
    assert public(state)["over"] and public(state)["phase"] == "over"
    assert RULES.to_act(state) == [] and RULES.legal_actions(state, 0) == []
    assert state["hands"] == [[], [], [], []]
    with pytest.raises(IllegalAction, match="game is over"):
        RULES.apply(state, 0, "pass")
    invariants(state)


def test_F26_score_is_cats_plus_mice_rabbits_zero_dogs_never():
    state = deal(4, first=0, missing="3")
    play_round(state, ["15", "R", "-5", "d"], "bid:4", "pass", "pass", "pass")
    assert state["piles"][0] == ["15", "R"]  # the small dog took the -5
    state = edited(state, round=9, phase="over", hands=[[]] * 4, mice=[11, 17, 19, 21],
                   cards=[[2, 0], [4, 0], [6, 0]], bank=state["bank"] + 12)  # fmt: skip
    outcome = RULES.outcome(state)
    assert outcome.details["cat_points"] == [15, 0, 0, 0]
    assert list(outcome.scores) == [26, 17, 19, 21]
    assert list(outcome.ranks) == [1, 4, 3, 2]
    assert RULES.outcome(deal(4)) is None


def test_F27_ties_broken_by_cat_points_then_shared():
    state = deal(5, first=0)
    state = edited(
        state, round=9, phase="over", hands=[[]] * 5, mice=[20, 10, 12, 25, 22],
        piles=[["5"], ["15"], ["8", "3", "-8", "R"], [], ["3", "R"]],
    )  # fmt: skip
    outcome = RULES.outcome(state)
    assert list(outcome.scores) == [25, 25, 15, 25, 25]
    # 25 with 15 cats beats 25 with 5 and 3; 25 with 0 cats is behind those; shared 2nd.
    assert outcome.details["cat_points"] == [5, 15, 3, 0, 3]
    assert list(outcome.ranks) == [2, 1, 5, 4, 3]


def test_F27_full_ties_share_the_victory():
    state = deal(4, first=0)
    state = edited(state, round=9, phase="over", hands=[[]] * 4, mice=[20, 10, 20, 30],
                   piles=[["5"], ["15"], ["5", "R"], ["-5"]])  # fmt: skip
    outcome = RULES.outcome(state)
    assert list(outcome.scores) == [25, 25, 25, 25]
    assert list(outcome.ranks) == [2, 1, 2, 4]
    state = edited(state, mice=[20, 20, 20, 0], piles=[["5"], ["5"], ["5"], []])
    assert list(RULES.outcome(state).ranks) == [1, 1, 1, 4]


def test_game_over_event_and_view_carry_the_outcome():
    game = playout(RULES, 4, 3, deep=False)
    last = game.events[-1]
    outcome = RULES.outcome(game.state)
    assert last == {"type": "game_over", "to": None, **outcome.to_json()}
    assert {k: public(game.state)[k] for k in OUTCOME_KEYS} == outcome.places()


# --- three players ------------------------------------------------------------------------
def test_F28_F29_three_players_cards_3_and_6_bank_21():
    state = RULES.setup(3, 2)
    view = public(state)
    assert view["mouse_cards"] == [[3, 3], [6, 6]]
    assert view["bank"] == 21 - 9 and view["mice_out"] == 108 - 45 - 21


def test_F30_the_virtual_pile_one_card_removed_the_rest_face_down_under_the_sack():
    state = RULES.setup(3, 4)
    assert len(state["virtual"]) == 9 and len(state["removed"]) == 4
    assert sorted([*state["virtual"], state["removed"][3]]) == sorted(SET)
    assert public(state)["virtual_left"] == 9
    virtual = ["11", "-8", "3", "5", "8", "15", "R", "D", "d"]
    state = deal(3, first=1, virtual=virtual)
    assert state["removed"][3] == "-5"
    place(state, ["3", "5", "8"])
    # The row: the virtual card, then the first player's (seat 1), then seats 2 and 0.
    assert state["row"] == ["11", "5", "8", "3"]
    assert public(state)["row_seats"] == [None, 1, 2, 0]
    assert public(state)["virtual_left"] == 8
    # The next round takes the next card of the pile.
    run(state, "bid:1", "pass", "pass")
    place(state, ["5", "3", "11"])
    assert state["row"][0] == "-8"


def test_F31_the_virtual_card_is_turned_first_the_first_players_stays_down():
    state = deal(3, first=0, virtual=pile("15"))
    events = place(state, ["-8", "3", "5"])
    assert find(events, "card_turned") == {"type": "card_turned", "to": None, "position": 0,
                                           "seat": None, "card": "15"}  # fmt: skip
    assert public(state)["row"] == ["15", None, None, None]
    assert RULES.to_act(state) == [0]
    assert RULES.view(state, 0)["my_card"] == "-8"


def test_F32_a_pass_turns_the_first_players_card_one_left_turns_the_last_two():
    state = deal(3, first=2, virtual=pile("15"))
    place(state, ["-8", "3", "5"])  # row: virtual, seat 2, seat 0, seat 1
    run(state, "bid:2")
    events = run(state, "pass")  # seat 0
    assert [ev["card"] for ev in events if ev["type"] == "card_turned"] == ["5"]
    assert public(state)["row"] == ["15", "5", None, None]
    events = run(state, "pass")  # seat 1: only seat 2 is left
    assert [ev["card"] for ev in events if ev["type"] == "card_turned"] == ["-8", "3"]
    assert find(events, "sack_bought")["cards"] == ["15", "5", "-8", "3"]


def test_F23_F32_three_players_all_pass_the_last_two_cards_turn():
    state = deal(3, first=0, virtual=pile("-5"))
    place(state, ["15", "11", "8"])
    events = run(state, "pass", "pass")
    assert [ev["card"] for ev in events if ev["type"] == "card_turned"] == ["15", "11", "8"]
    assert RULES.legal_actions(state, 2) == ["bid:1", "pass"]
    assert [ev["took"] for ev in events if ev["type"] == "pass"] == [3, 6]
    events = run(state, "pass")
    assert find(events, "sack_discarded")["cards"] == ["-5", "15", "11", "8"]
    assert public(state)["first"] == 0 and public(state)["round"] == 2


# --- actions and errors -------------------------------------------------------------------
def test_illegal_actions_have_reasons_and_change_nothing():
    state = deal(4, first=0)
    before = RULES.dump(state)
    cases = [
        (0, "bid:1", "auction starts once everyone"),
        (0, "place:", "not have that card"),
        (0, "place:R", "not have that card"),
        (0, "hello", "Unknown action"),
        (7, "place:3", "no such seat"),
        (-1, "place:3", "no such seat"),
    ]
    for seat, action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            RULES.apply(state, seat, action)
    assert RULES.dump(state) == before
    place(state, ["3", "5", "8", "11"])
    before = RULES.dump(state)
    for seat, action, message in [
        (1, "bid:1", "not your turn"),
        (0, "place:5", "already placed"),
        (0, "bid:", "whole number"),
        (0, "bid:-1", "whole number"),
        (0, "bid:16", "more mice than you have"),
        (0, "fold", "Unknown action"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            RULES.apply(state, seat, action)
    assert RULES.dump(state) == before


def test_actions_are_short_canonical_strings():
    state = RULES.setup(5, 1)
    assert max(len(a) for s in range(5) for a in RULES.legal_actions(state, s)) <= 40
    assert RULES.slug == "felix" and RULES.min_players == 3 and RULES.max_players == 5
    assert RULES.name and RULES.n_players(state) == 5


# --- events -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_events_never_show_a_face_down_card_to_others(n):
    game = playout(RULES, n, 11, deep=False, choose=pass_often)
    placed = {}
    for ev in game.events:
        if ev["type"] == "you_placed":
            assert ev["to"] == [ev["seat"]]
            placed[ev["seat"]] = ev["card"]
        else:
            assert ev["to"] is None  # everything else is public
        if ev["type"] == "placed":
            assert set(ev) == {"type", "to", "seat"}
        if ev["type"] == "card_turned" and ev["seat"] is not None:
            assert ev["card"] == placed[ev["seat"]]
    assert not [ev for ev in game.events if not visible_to(ev, None) and ev["type"] != "you_placed"]


# --- storage, determinism, invariants -----------------------------------------------------
def test_dump_is_small_json_and_round_trips():
    state = RULES.setup(5, 4)
    data = RULES.dump(state)
    assert len(json.dumps(data, separators=(",", ":"))) < 700
    assert RULES.dump(RULES.load(json.loads(json.dumps(data)))) == data
    copy = RULES.clone(state)
    copy["hands"][0].pop()
    copy["cards"][0][1] = 0
    assert len(state["hands"][0]) == 9 and state["cards"][0] == [2, 2]
    with pytest.raises(ValueError, match="not a felix state"):
        RULES.load({"n": 4})


@pytest.mark.parametrize("n", [3, 4, 5])
def test_replay_is_deterministic_same_seed_options_and_actions_same_game(n):
    options = {"first": 1, "hands": [without("D"), *[None] * (n - 1)]}
    game = playout(RULES, n, 77, options=options, deep=False)
    again = playout(RULES, n, 77, options=options, deep=False)
    assert game.events == again.events
    state = replay(RULES, n, 77, game.actions, options)
    assert RULES.dump(state) == RULES.dump(game.state)
    assert RULES.outcome(state) == RULES.outcome(game.state)


# Random players of four temperaments: uniform, passing half the time, always passing
# (every round is F23/F24), always raising by one (long auctions, broke players).
TEMPERAMENTS = (None, pass_often, None, pass_always, None, pass_often, None, bid_always)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_I1_I2_I3_thousands_of_random_games(n):
    seen = Counter()
    biggest = 0
    for seed in range(2000):
        choose = TEMPERAMENTS[seed % len(TEMPERAMENTS)]
        game = playout(RULES, n, seed, deep=False, invariants=invariants, choose=choose)
        seen.update(kinds(game.events))
        assert kinds(game.events).count("round_start") == 8  # I3: nine rounds
        assert RULES.outcome(game.state) is not None
        biggest = max(biggest, len(json.dumps(RULES.dump(game.state))))
    # The special cases all occur in random play.
    for kind in ("last_offer", "sack_discarded", "bank_short", "dogs_fight", "dog_chase"):
        assert seen[kind], kind
    assert biggest < MAX_STATE_BYTES


@pytest.mark.parametrize("n", [3, 4, 5])
def test_full_contract_deep_playouts(n):
    for seed in range(16):
        choose = TEMPERAMENTS[seed % len(TEMPERAMENTS)]
        playout(RULES, n, 5_000 + seed, invariants=invariants, check_view=check_view,
                choose=choose)  # fmt: skip


@settings(deadline=None, max_examples=8)
@given(n=st.integers(3, 5), seed=st.integers(0, 2**32), first=st.integers(0, 4))
def test_full_contract_any_seed_and_first_player(n, seed, first):
    options = {"first": first % n}
    playout(RULES, n, seed, options=options, invariants=invariants, check_view=check_view,
            choose=pass_often)  # fmt: skip
