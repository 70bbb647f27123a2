"""Smoking Cat engine: every clause of the rules specification smoking-cat.md (S1-S17) and the
invariants I1-I3, on stacked decks and over many seeded random matches."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, Termination
from games.kinds.smoking_cat import engine as sc
from games.kinds.smoking_cat.engine import RULES
from tests.engines.harness import check_step, playout, replay

ALL_CODES = set(sc.CODES)


# --- helpers -----------------------------------------------------------------------------


def pass_first_cards(state) -> None:
    """S6: every seat passes the first three cards it is offered, one at a time."""
    for seat in range(4):
        for _ in range(sc.PASS_SIZE):
            RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])


def cards(text: str) -> list[str]:
    return text.split()


def stacked(final: dict[int, str], dealer: int, **options) -> tuple[object, list[dict]]:
    """A match whose first deal leaves seat s holding ``final[s]`` once everyone has passed.

    Each seat passes the first three cards of its left neighbour's final hand, so the
    dealt hands are worked out backwards; the deck is then laid out so that card i goes
    to seat (dealer + 1 + i) mod 4 (S5). Returns the state (passing done) and the events.
    """
    final_cards = {s: cards(text) for s, text in final.items()}
    assert sorted(c for hand in final_cards.values() for c in hand) == sorted(ALL_CODES)
    passes = {s: final_cards[(s + 1) % 4][:3] for s in range(4)}
    dealt = {
        s: [c for c in final_cards[s] if c not in passes[(s - 1) % 4]] + passes[s] for s in range(4)
    }
    deck = [dealt[(dealer + 1 + i) % 4][i // 4] for i in range(32)]
    decks = [deck, *options.pop("decks", [])]
    state = RULES.setup(4, 7, {"dealer": dealer, "decks": decks, **options})
    events = []
    for s in range(4):
        events += RULES.apply(state, s, "pass:" + ",".join(passes[s]))
    for s in range(4):
        assert sorted(RULES.view(state, s)["hand"]) == sorted(final_cards[s])
    return state, events


def play_tricks(state, tricks: list[dict[int, str]]) -> list[dict]:
    """Play each trick (seat -> card) in the order the engine asks for."""
    events = []
    for trick in tricks:
        for _ in range(4):
            (seat,) = RULES.to_act(state)
            events += RULES.apply(state, seat, "play:" + trick[seat])
    return events


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [ev for ev in events if ev["type"] == kind]


def roles(seating: dict[str, int], by_role: dict[str, str]) -> dict[int, str]:
    return {seating[role]: text for role, text in by_role.items()}


# Scenario "ober tie": single-suit tricks; A and B tie at 14 and A took the Ober of Leaves.
# A leads the first trick (so A sits at the dealer's left).
OBER_TIE_HANDS = {
    "A": "LA HX BK HK LU B9 A9 AK",
    "B": "LO H9 BA HA LX B8 A8 AO",
    "C": "L7 H8 BO HO LK BX AX AA",
    "D": "L8 H7 BU HU L9 B7 A7 AU",
}
OBER_TIE_TRICKS = [  # role -> card; the winner leads the next trick
    {"A": "LA", "B": "LO", "C": "L7", "D": "L8"},  # A takes the Ober: 10
    {"A": "HX", "B": "H9", "C": "H8", "D": "H7"},  # A: 4 more, 14
    {"A": "BK", "B": "BA", "C": "BO", "D": "BU"},  # B
    {"A": "HK", "B": "HA", "C": "HO", "D": "HU"},  # B: 14
    {"A": "LU", "B": "LX", "C": "LK", "D": "L9"},  # C
    {"A": "B9", "B": "B8", "C": "BX", "D": "B7"},  # C
    {"A": "A9", "B": "A8", "C": "AX", "D": "A7"},  # C
    {"A": "AK", "B": "AO", "C": "AA", "D": "AU"},  # C, the last trick: 5
]

# Scenario "plain tie": A and B tie at 11, C took the Ober (10), D has 1.
PLAIN_TIE_HANDS = {
    "A": "L7 H8 HA B7 B9 BX BU BO",
    "B": "L8 HO HK B8 BK AA AK AO",
    "C": "LA H9 HU H7 L9 LX LU LK",
    "D": "LO HX A7 BA A8 A9 AX AU",
}
PLAIN_TIE_TRICKS = [
    {"A": "L7", "B": "L8", "C": "LA", "D": "LO"},  # C takes the Ober: 10
    {"C": "H9", "D": "HX", "A": "H8", "B": "HO"},  # B: 6
    {"B": "HK", "C": "HU", "D": "A7", "A": "HA"},  # A: 11 (D is void in hearts)
    {"A": "B7", "B": "B8", "C": "H7", "D": "BA"},  # D: 1 (C is void in bells)
    {"D": "A8", "A": "B9", "B": "AO", "C": "L9"},  # B
    {"B": "AK", "C": "LX", "D": "A9", "A": "BX"},  # B
    {"B": "AA", "C": "LU", "D": "AX", "A": "BU"},  # B
    {"B": "BK", "C": "LK", "D": "AU", "A": "BO"},  # B, the last trick: 11
]

# Scenario "seventeen": seat 0 takes the Ober, then 7 points of hearts: 17 after 2 tricks.
SEVENTEEN_HANDS = {
    0: "LA HA BA BK BO AA AK AO",
    1: "LO HX HK HO HU L9 B8 A7",
    2: "L7 H9 H8 H7 LX LU B9 A8",
    3: "L8 B7 LK BX BU A9 AX AU",
}
SEVENTEEN_TRICKS = [
    {0: "LA", 1: "LO", 2: "L7", 3: "L8"},
    {0: "HA", 1: "HX", 2: "H9", 3: "B7"},  # seat 3 has no hearts
]


def scenario(hands, tricks, seating, dealer, **options):
    """Seat the roles, deal, pass, and play the tricks; returns (state, play events)."""
    state, _ = stacked(roles(seating, hands), dealer, **options)
    seat_tricks = [{seating[role]: card for role, card in trick.items()} for trick in tricks]
    return state, play_tricks(state, seat_tricks)


# --- the harness's checks ------------------------------------------------------------------


def invariants(state) -> None:
    """I2 (every card in one place), I3 (never off-suit while holding the suit led),
    and I1 for the deal that just ended, if it was played to the end."""
    places = list(state.hands) + list(state.taken)
    places += [sum(1 << c for c in state.trick)]
    if state.phase == sc.PASS:  # cards passed but not yet picked up are in transit
        places += list(state.passes)
    seen = 0
    for mask in places:
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == (1 << 32) - 1, "a card is missing"
    if state.trick:  # I3: hands only shrink, so a card of the suit led now was held then
        lead = state.trick[0] >> 3
        for i, card in enumerate(state.trick[1:], 1):
            seat = (state.leader + i) % 4
            assert card >> 3 == lead or not state.hands[seat] >> (lead * 8) & 255
    prev = state.previous
    if prev and prev["reason"] == "all_played":
        assert sum(prev["points"]) == 33  # I1
    if prev and prev["reason"] == "throw":
        assert sum(prev["points"]) == 33  # the thrower takes everything that was left


def strings_in(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for value in obj.values() for s in strings_in(value)]
    if isinstance(obj, list):
        return [s for value in obj for s in strings_in(value)]
    return []


def check_view(state, seat, view) -> None:
    """No view shows a card its seat may not see (UX 3, S6, S10)."""
    table = {sc.CODES[c] for c in state.trick}
    if state.last:
        table |= {sc.CODES[c] for c in state.last[1]}
    allowed = set(table)
    if seat is not None:
        allowed |= set(sc.mask_codes(state.hands[seat] | state.passes[seat]))
        right = (seat - 1) % 4
        if state.passed >> seat & 1 and state.passed >> right & 1:
            allowed |= set(sc.mask_codes(state.passes[right]))
        assert view["hand"] == sc.mask_codes(state.hands[seat])
    shown = {
        s
        for key, value in view.items()
        if key not in ("word", "letters")
        for s in strings_in(value)
    }
    leaked = (shown & ALL_CODES) - allowed
    assert not leaked, (seat, leaked)


def no_throw_unless(p: float):
    """A random player who throws down only with probability ``p`` at each turn."""

    def choose(rng: random.Random, legal: list[str]) -> str:
        if "throw" in legal and rng.random() >= p:
            return rng.choice([a for a in legal if a != "throw"])
        return rng.choice(legal)

    return choose


# --- S1-S3: cards and points ---------------------------------------------------------------


def test_S1_thirty_two_cards_four_suits_eight_ranks():
    assert len(sc.CODES) == 32 == len(set(sc.CODES))
    assert {c[0] for c in sc.CODES} == set("LHBA")
    assert {c[1] for c in sc.CODES} == set("789XUOKA")
    state = RULES.setup(4, 1)
    hands = [RULES.view(state, s)["hand"] for s in range(4)]
    assert sorted(itertools.chain(*hands)) == sorted(sc.CODES)


def test_S1_four_players_only():
    assert RULES.min_players == RULES.max_players == 4
    for n in (3, 5):
        with pytest.raises(ValueError, match="played by 4 to 4 players"):
            RULES.setup(n, 1)


def test_S2_rank_order_and_no_trumps():
    """The Unter beats the ten, the Ace beats the King; an off-suit Ace never wins."""
    _, events = scenario(OBER_TIE_HANDS, OBER_TIE_TRICKS[:1], dict(A=0, B=1, C=2, D=3), 3)
    assert of_type(events, "trick")[0]["winner"] == 0  # LA over LO, L8, L7
    ranks = [sc.CARD["L" + r] for r in "789XUOKA"]
    assert ranks == sorted(ranks)
    _, events = scenario(PLAIN_TIE_HANDS, PLAIN_TIE_TRICKS[:5], dict(A=0, B=1, C=2, D=3), 3)
    tricks = of_type(events, "trick")
    assert tricks[1]["winner"] == 1  # HO beats HX (Ober over ten)
    assert tricks[4]["cards"] == ["A8", "B9", "AO", "L9"] and tricks[4]["winner"] == 1


def test_S3_penalty_points():
    points = dict(zip(sc.CODES, sc.POINTS, strict=True))
    assert points["LO"] == 10
    assert [points["H" + r] for r in "789XUOKA"] == [1, 1, 1, 1, 2, 3, 4, 5]
    assert sum(sc.POINTS) + sc.LAST_TRICK == 33
    assert all(points[c] == 0 for c in sc.CODES if c[0] in "BA" or (c[0] == "L" and c != "LO"))


def test_S3_last_trick_takes_five_more():
    _, events = scenario(OBER_TIE_HANDS, OBER_TIE_TRICKS, dict(A=0, B=1, C=2, D=3), 3)
    last = of_type(events, "trick")[-1]
    assert last["winner"] == 2 and last["points"] == 5
    assert of_type(events, "deal_end")[0]["points"] == [14, 14, 5, 0]


# --- S4-S7: dealing, passing, the first lead ---------------------------------------------


def test_S4_first_dealer_random_but_seeded():
    dealers = {RULES.setup(4, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert RULES.setup(4, 5).dealer == RULES.setup(4, 5).dealer
    assert RULES.view(RULES.setup(4, 5, {"dealer": 2}), None)["dealer"] == 2


def test_S4_loser_deals_next():
    state, events = scenario(SEVENTEEN_HANDS, SEVENTEEN_TRICKS, {0: 0, 1: 1, 2: 2, 3: 3}, 3)
    (end,) = of_type(events, "deal_end")
    assert end["losers"] == [0]
    view = RULES.view(state, None)
    assert view["deal"] == 2 and view["dealer"] == 0
    assert of_type(events, "deal")[-1] == {"type": "deal", "to": None, "deal": 2, "dealer": 0}


def test_S5_eight_cards_each_dealt_clockwise_from_dealers_left():
    deck = list(sc.CODES)
    state = RULES.setup(4, 1, {"dealer": 1, "decks": [deck]})
    for seat in range(4):
        expected = [deck[i] for i in range(32) if (1 + 1 + i) % 4 == seat]
        assert RULES.view(state, seat)["hand"] == sorted(expected, key=sc.CARD.get)
    assert RULES.view(state, None)["hand_sizes"] == [8, 8, 8, 8]


def test_S6_passing_is_simultaneous_one_card_at_a_time():
    state = RULES.setup(4, 3)
    assert RULES.to_act(state) == [0, 1, 2, 3]
    hands = {s: RULES.view(state, s)["hand"] for s in range(4)}
    for seat in range(4):
        legal = RULES.legal_actions(state, seat)
        assert legal == [f"pass:{code}" for code in hands[seat]]  # canonical: sorted hand
    first, second, third = hands[2][1], hands[2][4], hands[2][0]
    events = RULES.apply(state, 2, f"pass:{first}")
    # a chosen card is private to its seat and never offered again
    assert events == [{"type": "pass_card", "to": [2], "seat": 2, "cards": [first]}]
    assert RULES.view(state, 2)["passed_cards"] == [first]
    assert first not in RULES.view(state, 2)["hand"]
    assert f"pass:{first}" not in RULES.legal_actions(state, 2)
    assert len(RULES.legal_actions(state, 2)) == 7
    assert "passed_cards" not in RULES.view(state, None)
    assert RULES.view(state, 3)["passed_cards"] == []
    assert RULES.to_act(state) == [0, 1, 2, 3]  # still choosing
    assert RULES.view(state, None)["passed"] == [False] * 4
    with pytest.raises(IllegalAction, match="already chosen"):
        RULES.apply(state, 2, f"pass:{first}")
    with pytest.raises(IllegalAction, match="one card at a time"):
        RULES.apply(state, 2, "pass:" + ",".join(hands[2][5:8]))
    RULES.apply(state, 2, f"pass:{second}")
    events = RULES.apply(state, 2, f"pass:{third}")
    assert [ev["type"] for ev in events] == ["pass_card", "pass"]
    assert events[1] == {"type": "pass", "to": None, "seat": 2}
    assert RULES.view(state, 2)["passed_cards"] == sorted([first, second, third], key=sc.CARD.get)
    assert RULES.view(state, None)["passed"] == [False, False, True, False]
    assert RULES.to_act(state) == [0, 1, 3]
    assert RULES.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="already passed"):
        RULES.apply(state, 2, "pass:" + ",".join(RULES.view(state, 2)["hand"][:3]))
    with pytest.raises(IllegalAction, match="already passed"):
        RULES.apply(state, 2, "pass:" + RULES.view(state, 2)["hand"][0])


def test_S6_cards_go_left_and_are_seen_only_after_own_pass():
    state = RULES.setup(4, 11, {"dealer": 0})
    hands = {s: RULES.view(state, s)["hand"] for s in range(4)}
    passes = {s: hands[s][-3:] for s in range(4)}
    # seat 1 passes first; seat 2 (its left) has not passed: it sees nothing yet
    events = RULES.apply(state, 1, "pass:" + ",".join(reversed(passes[1])))  # any order
    assert RULES.view(state, 2)["received"] is None
    assert RULES.view(state, 1)["received"] is None  # seat 0 (its right) has not passed
    assert RULES.view(state, 1)["passed_cards"] == passes[1]
    assert of_type(events, "received") == []
    # seat 2 passes: now it sees seat 1's cards, and only seat 2 is told
    events = RULES.apply(state, 2, "pass:" + ",".join(passes[2]))
    assert RULES.view(state, 2)["received"] == passes[1]
    assert of_type(events, "received") == [
        {"type": "received", "to": [2], "seat": 2, "cards": passes[1]}
    ]
    # seat 0 passes: seat 1 now sees seat 0's cards (seat 1 passed earlier)
    events = RULES.apply(state, 0, "pass:" + ",".join(passes[0]))
    assert RULES.view(state, 1)["received"] == passes[0]
    assert [ev["to"] for ev in of_type(events, "received")] == [[1]]
    assert RULES.view(state, 0)["received"] is None  # seat 3 has not passed
    assert RULES.view(state, None)["phase"] == "pass"
    for seat in range(4):  # nobody plays before all four have passed
        with pytest.raises(IllegalAction):
            RULES.apply(state, seat, "play:" + hands[seat][0])
    RULES.apply(state, 3, "pass:" + ",".join(passes[3]))
    assert RULES.view(state, None)["phase"] == "play"
    for seat in range(4):
        view = RULES.view(state, seat)
        kept = [c for c in hands[seat] if c not in passes[seat]]
        assert sorted(view["hand"]) == sorted(kept + passes[(seat - 1) % 4])
        assert view["received"] == passes[(seat - 1) % 4]


def test_S6_pass_validation():
    state = RULES.setup(4, 4)
    hand = RULES.view(state, 0)["hand"]
    other = RULES.view(state, 1)["hand"]
    bad = [
        "pass:" + ",".join(hand[:2]),
        "pass:" + ",".join(hand[:4]),
        "pass:" + ",".join([hand[0], hand[0], hand[1]]),
        "pass:" + ",".join([hand[0], hand[1], other[0]]),
        "pass:" + ",".join([hand[0], hand[1], "ZZ"]),
        "throw",
        "play:" + hand[0],
    ]
    before = json.dumps(RULES.dump(state))
    for action in bad:
        with pytest.raises(IllegalAction):
            RULES.apply(state, 0, action)
    assert json.dumps(RULES.dump(state)) == before


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 10**6), pick=st.permutations(range(8)), order=st.permutations(range(3)))
def test_S6_pass_accepts_cards_in_any_order(seed, pick, order):
    state = RULES.setup(4, seed)
    hand = RULES.view(state, 0)["hand"]
    chosen = [hand[i] for i in pick[:3]]
    RULES.apply(state, 0, "pass:" + ",".join(chosen[i] for i in order))
    assert sorted(RULES.view(state, 0)["passed_cards"]) == sorted(chosen)


def test_S7_dealers_left_leads_the_first_trick():
    for dealer in range(4):
        state = RULES.setup(4, 9, {"dealer": dealer})
        pass_first_cards(state)
        assert RULES.to_act(state) == [(dealer + 1) % 4]
        view = RULES.view(state, None)
        assert view["to_act"] == [(dealer + 1) % 4] and view["trick"] == []


# --- S8-S10: play ---------------------------------------------------------------------------


def test_S8_must_follow_suit():
    state, _ = stacked(roles(dict(A=0, B=1, C=2, D=3), PLAIN_TIE_HANDS), 3)
    RULES.apply(state, 0, "play:L7")
    assert RULES.legal_actions(state, 1) == ["play:L8", "throw"]
    before = json.dumps(RULES.dump(state))
    with pytest.raises(IllegalAction, match=r"You must follow suit \(Leaves\)\."):
        RULES.apply(state, 1, "play:HO")
    assert json.dumps(RULES.dump(state)) == before
    with pytest.raises(IllegalAction, match=r"It is not your turn\."):
        RULES.apply(state, 2, "play:LA")


def test_S8_void_player_may_play_any_card_and_any_card_may_be_led():
    state, _ = scenario(PLAIN_TIE_HANDS, PLAIN_TIE_TRICKS[:2], dict(A=0, B=1, C=2, D=3), 3)
    # B leads: hearts may be led at once (no restriction)
    assert "play:HK" in RULES.legal_actions(state, 1)
    RULES.apply(state, 1, "play:HK")
    RULES.apply(state, 2, "play:HU")
    legal = RULES.legal_actions(state, 3)  # D has no hearts left: anything goes
    assert legal == ["play:" + c for c in RULES.view(state, 3)["hand"]] + ["throw"]
    assert RULES.view(state, None)["lead_suit"] == "H"


def test_S9_highest_of_suit_led_wins_and_leads_next():
    state, events = scenario(PLAIN_TIE_HANDS, PLAIN_TIE_TRICKS[:3], dict(A=0, B=1, C=2, D=3), 3)
    assert [t["winner"] for t in of_type(events, "trick")] == [2, 1, 0]
    assert RULES.to_act(state) == [0]
    assert RULES.view(state, None)["points"] == [11, 6, 10, 0]
    assert RULES.view(state, None)["taken_ober"] == 2


def test_S10_last_trick_shown_until_next_trick_completes():
    state, _ = scenario(OBER_TIE_HANDS, OBER_TIE_TRICKS[:1], dict(A=0, B=1, C=2, D=3), 3)
    first = [[0, "LA"], [1, "LO"], [2, "L7"], [3, "L8"]]
    assert RULES.view(state, None)["last_trick"] == first
    RULES.apply(state, 0, "play:HX")
    RULES.apply(state, 1, "play:H9")
    view = RULES.view(state, 2)
    assert view["last_trick"] == first and view["trick"] == [[0, "HX"], [1, "H9"]]
    RULES.apply(state, 2, "play:H8")
    RULES.apply(state, 3, "play:H7")
    view = RULES.view(state, None)
    assert view["last_trick"] == [[0, "HX"], [1, "H9"], [2, "H8"], [3, "H7"]]
    assert "LA" not in strings_in(view)  # no history of earlier tricks


# --- S11-S12: early ends -------------------------------------------------------------------


def test_S11_deal_ends_at_once_at_17_points():
    state, events = scenario(SEVENTEEN_HANDS, SEVENTEEN_TRICKS[:1], {0: 0, 1: 1, 2: 2, 3: 3}, 3)
    assert RULES.view(state, None)["points"] == [10, 0, 0, 0]  # 10: the deal goes on
    assert of_type(events, "deal_end") == []
    events = play_tricks(state, SEVENTEEN_TRICKS[1:])
    (end,) = of_type(events, "deal_end")
    assert end["reason"] == "reached_17"
    assert end["points"] == [17, 0, 0, 0] and end["losers"] == [0]
    assert end["letters"] == ["G", "", "", ""] and end["taken_ober"] == 0
    view = RULES.view(state, None)
    assert view["deal"] == 2 and view["phase"] == "pass" and view["points"] == [0] * 4
    assert view["previous"]["reason"] == "reached_17"


def test_S12_throw_down_takes_everything_left_and_loses():
    state, _ = scenario(SEVENTEEN_HANDS, SEVENTEEN_TRICKS[:1], {0: 0, 1: 1, 2: 2, 3: 3}, 3)
    RULES.apply(state, 0, "play:HA")
    RULES.apply(state, 1, "play:HX")
    assert "throw" in RULES.legal_actions(state, 2)
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.apply(state, 3, "throw")
    events = RULES.apply(state, 2, "throw")
    (throw,) = of_type(events, "throw")
    # all 18 hearts points (two in the trick in progress) and the last trick's 5
    assert throw == {"type": "throw", "to": None, "seat": 2, "points": 23}
    assert "cards" not in throw  # the thrown cards stay face down
    (end,) = of_type(events, "deal_end")
    assert end["reason"] == "throw" and end["points"] == [10, 0, 23, 0]
    assert end["losers"] == [2] and end["taken_ober"] == 0
    assert RULES.view(state, None)["dealer"] == 2  # S4: the loser deals next


def test_S12_thrower_loses_whatever_the_others_points():
    """Interpretation: throwing down concedes, even with fewer points than another."""
    state, _ = scenario(OBER_TIE_HANDS, OBER_TIE_TRICKS[:4], dict(A=0, B=1, C=2, D=3), 3)
    assert RULES.view(state, None)["points"] == [14, 14, 0, 0]
    RULES.apply(state, 1, "play:LX")  # B leads; C throws down
    events = RULES.apply(state, 2, "throw")
    (end,) = of_type(events, "deal_end")
    assert end["points"] == [14, 14, 5, 0] and end["losers"] == [2]
    assert RULES.view(state, None)["letters"] == ["", "", "G", ""]


def test_S12_throw_with_the_ober_still_in_hand_takes_it():
    state = RULES.setup(4, 21, {"dealer": 0})
    pass_first_cards(state)
    events = RULES.apply(state, 1, "throw")
    (end,) = of_type(events, "deal_end")
    assert end["points"] == [0, 33, 0, 0] and end["taken_ober"] == 1


def test_S12_no_throw_while_passing():
    state = RULES.setup(4, 2)
    assert all("throw" not in RULES.legal_actions(state, s) for s in range(4))
    with pytest.raises(IllegalAction, match="passed"):
        RULES.apply(state, 0, "throw")


# --- S13-S14: losing a deal -----------------------------------------------------------------


def test_S13_points_are_forgotten_after_each_deal():
    state, _ = scenario(SEVENTEEN_HANDS, SEVENTEEN_TRICKS, {0: 0, 1: 1, 2: 2, 3: 3}, 3)
    assert RULES.view(state, None)["points"] == [0, 0, 0, 0]
    assert RULES.view(state, None)["taken_ober"] is None


def test_S14_tie_broken_by_the_ober_of_leaves():
    state, events = scenario(OBER_TIE_HANDS, OBER_TIE_TRICKS, dict(A=0, B=1, C=2, D=3), 3)
    (end,) = of_type(events, "deal_end")
    assert end["reason"] == "all_played" and end["points"] == [14, 14, 5, 0]
    assert end["taken_ober"] == 0 and end["losers"] == [0]
    assert RULES.view(state, None)["dealer"] == 0


def test_S14_tie_without_the_ober_all_tied_lose():
    seating = dict(A=1, B=2, C=3, D=0)  # dealer 0, A at its left
    state, events = scenario(PLAIN_TIE_HANDS, PLAIN_TIE_TRICKS, seating, 0)
    (end,) = of_type(events, "deal_end")
    assert end["points"] == [1, 11, 11, 10] and end["taken_ober"] == 3
    assert end["losers"] == [1, 2]
    assert RULES.view(state, None)["letters"] == ["", "G", "G", ""]
    assert RULES.view(state, None)["dealer"] == 1  # first tied loser after the dealer


def test_S14_tied_losers_next_dealer_previous_dealer_comes_last():
    seating = dict(A=1, B=0, C=2, D=3)  # B, a tied loser, is the dealer
    state, events = scenario(PLAIN_TIE_HANDS, PLAIN_TIE_TRICKS, seating, 0)
    (end,) = of_type(events, "deal_end")
    assert end["losers"] == [0, 1]
    assert RULES.view(state, None)["dealer"] == 1  # not 0: the previous dealer comes last
    seating = dict(A=3, B=2, C=0, D=1)  # dealer 2 (B): the order is 3, 0, 1, 2
    state, events = scenario(PLAIN_TIE_HANDS, PLAIN_TIE_TRICKS, seating, 2)
    assert of_type(events, "deal_end")[0]["losers"] == [2, 3]
    assert RULES.view(state, None)["dealer"] == 3


# --- S15-S16: the word and the match -------------------------------------------------------


def test_S15_word_validation():
    for bad in ("AB", "ABCDEFGHIJKLM", "GAT TO", "GATT0", "", 12345, None, ["G", "A", "T"]):
        with pytest.raises(ValueError, match="word"):
            RULES.setup(4, 1, {"word": bad})
    for good in ("CAT", "ABCDEFGHIJKL", "Pavel", "MÍČEK"):
        assert RULES.view(RULES.setup(4, 1, {"word": good}), None)["word"] == good
    assert RULES.view(RULES.setup(4, 1), None)["word"] == "GATTO"


def test_S15_options_validation():
    deck = list(sc.CODES)
    for options in (
        {"dealer": 4},
        {"dealer": -1},
        {"dealer": True},
        {"dealer": "0"},
        {"decks": [deck[:31]]},
        {"decks": [[*deck[:31], deck[0]]]},
        {"decks": [[*deck[:31], "ZZ"]]},
        {"decks": deck},
        {"decks": "nope"},
        {"colour": "red"},
    ):
        with pytest.raises(ValueError):  # noqa: PT011 - each bad option has its own message
            RULES.setup(4, 1, options)
    with pytest.raises(ValueError, match="options must be a dict"):
        RULES.setup(4, 1, "GATTO")


def test_S15_losers_receive_the_next_letter():
    state = RULES.setup(4, 5, {"word": "MEOW", "dealer": 0})
    for _ in range(3):  # seat to act throws at once: it loses each deal
        pass_first_cards(state)
        (seat,) = RULES.to_act(state)
        RULES.apply(state, seat, "throw")
        assert RULES.view(state, None)["dealer"] == seat
    letters = RULES.view(state, None)["letters"]
    assert sum(map(len, letters)) == 3 and all("MEOW".startswith(w) for w in letters)


def test_S16_match_ends_when_a_player_spells_the_word():
    state = RULES.setup(4, 8, {"word": "CAT", "dealer": 3})
    RULES.adjust_letters(state, 0, +1)
    RULES.adjust_letters(state, 0, +1)
    RULES.adjust_letters(state, 1, +1)
    RULES.adjust_letters(state, 2, +1)
    pass_first_cards(state)
    assert RULES.to_act(state) == [0]
    events = RULES.apply(state, 0, "throw")
    assert [ev["type"] for ev in events] == ["throw", "deal_end", "match_end"]
    outcome = RULES.outcome(state)
    assert list(outcome.scores) == [3, 1, 1, 0]
    assert list(outcome.ranks) == [4, 2, 2, 1]  # S16: ties share the place
    assert outcome.details["losers"] == [0]
    assert of_type(events, "match_end")[0]["ranks"] == [4, 2, 2, 1]
    # S12: the deal that spelled the word was thrown down: the match ended conceded.
    assert outcome.termination == Termination.CONCEDED
    assert of_type(events, "match_end")[0]["termination"] == "conceded"
    assert RULES.to_act(state) == [] and RULES.view(state, None)["phase"] == "over"
    assert all(RULES.legal_actions(state, s) == [] for s in range(4))
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(state, 1, "throw")


def test_S16_tied_losers_can_finish_the_word_together():
    seating = dict(A=1, B=2, C=3, D=0)
    state, _ = stacked(roles(seating, PLAIN_TIE_HANDS), 0, word="CAT")
    for seat in (1, 2):
        RULES.adjust_letters(state, seat, +1)
        RULES.adjust_letters(state, seat, +1)
    tricks = [{seating[r]: c for r, c in trick.items()} for trick in PLAIN_TIE_TRICKS]
    events = play_tricks(state, tricks)
    assert of_type(events, "deal")[-1:] == []  # no new deal after the match ends
    outcome = RULES.outcome(state)
    assert list(outcome.scores) == [0, 3, 3, 0] and list(outcome.ranks) == [1, 3, 3, 1]
    assert outcome.details["losers"] == [1, 2]
    # S14, S15: a deal played out gave the last letters: the rules' own end.
    assert outcome.termination == Termination.NORMAL


# --- S17: moderation ---------------------------------------------------------------------------


def test_S17_adjust_letters_awards_and_removes_with_a_reason():
    state = RULES.setup(4, 1, {"word": "GATTO"})
    events = RULES.adjust_letters(state, 2, +1, reason="renege at deal 1")
    assert events == [
        {
            "type": "letter_adjusted",
            "to": None,
            "seat": 2,
            "delta": 1,
            "letter": "G",
            "reason": "renege at deal 1",
            "letters": ["", "", "G", ""],
        }
    ]
    RULES.adjust_letters(state, 2, +1)
    events = RULES.adjust_letters(state, 2, -1, reason="appeal upheld")
    assert events[0]["letter"] == "A" and events[0]["letters"][2] == "G"
    assert RULES.view(state, None)["letters"] == ["", "", "G", ""]
    assert RULES.outcome(state) is None


def test_S17_adjust_letters_refusals():
    state = RULES.setup(4, 1)
    before = json.dumps(RULES.dump(state))
    for seat, delta in ((0, -1), (4, 1), (-1, 1), (0, 2), (0, 0), (0, True)):
        with pytest.raises(IllegalAction):
            RULES.adjust_letters(state, seat, delta)
    assert json.dumps(RULES.dump(state)) == before


def test_S17_awarding_the_last_letter_ends_the_match():
    state = RULES.setup(4, 1, {"word": "CAT"})
    RULES.apply(state, 0, RULES.legal_actions(state, 0)[0])
    for _ in range(2):
        RULES.adjust_letters(state, 3, +1)
    events = RULES.adjust_letters(state, 3, +1, reason="misdeal")
    assert [ev["type"] for ev in events] == ["letter_adjusted", "match_end"]
    outcome = RULES.outcome(state)
    assert outcome.places() == {"scores": [0, 0, 0, 3], "ranks": [1, 1, 1, 4], "losers": [3]}
    assert outcome.termination == Termination.MODERATOR  # S17: a moderator's letter ended it
    assert events[-1]["termination"] == "moderator"
    assert RULES.to_act(state) == []
    with pytest.raises(IllegalAction, match="over"):
        RULES.adjust_letters(state, 3, -1)


# --- determinism, persistence, contract ------------------------------------------------------


def test_same_arguments_same_game_and_replay():
    a = playout(RULES, 4, 99, deep=False)
    b = replay(RULES, 4, 99, a.actions)
    assert RULES.dump(a.state) == RULES.dump(b)
    assert RULES.dump(RULES.setup(4, 5)) == RULES.dump(RULES.setup(4, 5))
    assert RULES.dump(RULES.setup(4, 5)) != RULES.dump(RULES.setup(4, 6))


def test_every_deal_is_shuffled_from_rng_for():
    """Deal n comes from rng_for(seed, "deal", n): a stacked deck replaces only its deal."""
    deck = list(sc.CODES)
    plain = RULES.setup(4, 42, {"dealer": 1})
    stacked_ = RULES.setup(4, 42, {"dealer": 1, "decks": [deck]})
    assert RULES.dump(plain)["hands"] != RULES.dump(stacked_)["hands"]
    for state in (plain, stacked_):
        pass_first_cards(state)
        RULES.apply(state, 2, "throw")  # seat 2 leads, throws, and deals deal 2
    assert RULES.dump(plain)["hands"] == RULES.dump(stacked_)["hands"]


def test_deals_are_drawn_as_rng_for_draws_them():
    """The engine draws a deal without random.Random's Python layers (a random playout
    deals every few actions): the same number as rng_for(seed, "deal", n).randrange, so
    a stored match deals exactly as it did, and the same hands, rotated to the seats."""
    from games.engines.base import rng_for

    for seed in (0, 1, 7, 2**31 - 1, 2**47 + 3, 10**17):
        for deal in range(1, 25):
            number = rng_for(seed, "deal", deal).randrange(sc.N_DEALS)
            assert sc.deal_draw(seed, deal) == number
            assert sc.decode_deal(number) == sc.random_deal(rng_for(seed, "deal", deal))
        for dealer in range(4):
            dealt = sc.random_deal(rng_for(seed, "deal", 1))
            hands = RULES.setup(4, seed, {"dealer": dealer}).hands
            assert hands == [dealt[(s - dealer - 1) % 4] for s in range(4)]


def test_actions_are_short_and_state_is_small():
    assert all(len(a.encode()) <= 40 for a in sc.PASS_MASK)
    assert all(len(a.encode()) <= 40 for a in sc.ACTIONS)
    state = RULES.setup(4, 1, {"decks": [list(sc.CODES)] * 20, "word": "ABCDEFGHIJKL"})
    assert len(json.dumps(RULES.dump(state))) < 4096


def test_illegal_garbage_is_refused_with_a_reason():
    state = RULES.setup(4, 1)
    pass_first_cards(state)
    (seat,) = RULES.to_act(state)
    for bad, reason in (
        ("play:ZZ", "no card"),
        ("pass:L7,L8,L9", "Passing is over"),
        ("dance", "Unknown action"),
        ("play:" + RULES.view(state, (seat + 1) % 4)["hand"][0], "do not hold"),
    ):
        with pytest.raises(IllegalAction, match=reason):
            RULES.apply(state, seat, bad)


def test_clone_is_independent():
    state = RULES.setup(4, 1)
    copy = RULES.clone(state)
    RULES.apply(copy, 0, RULES.legal_actions(copy, 0)[0])
    assert RULES.dump(state) != RULES.dump(copy)
    assert RULES.dump(RULES.load(json.loads(json.dumps(RULES.dump(copy))))) == RULES.dump(copy)


# --- invariants over many random matches ---------------------------------------------------


def test_I1_I2_I3_over_many_random_matches():
    """I1-I3 over 2,000 seeded matches: random ones (throws end most deals early), and
    one in four nearly throw-free, so that thousands of deals are played to the end."""
    full_deals = 0
    for seed in range(2000):
        choose = None if seed % 4 else no_throw_unless(0.002)
        result = playout(RULES, 4, seed, deep=False, invariants=invariants, choose=choose)
        for end in of_type(result.events, "deal_end"):
            if end["reason"] == "all_played":
                assert sum(end["points"]) == 33  # I1
                full_deals += 1
            assert sum(map(len, end["letters"])) <= 4 * 12
        plays = of_type(result.events, "play")
        assert plays, "a match with no card played"
    assert full_deals > 2000


@pytest.mark.parametrize("seed", range(30))
def test_full_contract_deep(seed):
    choose = None if seed % 3 == 0 else no_throw_unless(0.02)
    options = {"word": "CAT"} if seed % 2 else None
    result = playout(
        RULES,
        4,
        seed,
        options=options,
        invariants=invariants,
        check_view=check_view,
        deep=True,
        choose=choose,
    )
    # Public events name only cards laid on the table; passed cards go to their receiver
    # (and, while being chosen, to their passer).
    for ev in result.events:
        named = set(strings_in({k: v for k, v in ev.items() if k != "type"})) & ALL_CODES
        if ev["to"] is None:
            assert not named or ev["type"] in ("play", "trick"), ev
        else:
            assert ev["type"] in ("received", "pass_card"), ev
            assert ev["to"] == [ev["seat"]], ev


def test_check_step_after_stacked_passes():
    """The harness's contract checks in the middle of passing (received half-visible)."""
    state = RULES.setup(4, 77, {"dealer": 2})
    rng = random.Random(1)
    for seat in (3, 0):
        RULES.apply(state, seat, RULES.legal_actions(state, seat)[5])
        check_step(RULES, state, rng, invariants=invariants, check_view=check_view)


def test_public_view_keys():
    view = RULES.view(RULES.setup(4, 1), None)
    assert set(view) >= {
        "deal",
        "dealer",
        "word",
        "letters",
        "points",
        "trick",
        "last_trick",
        "taken_ober",
        "phase",
        "to_act",
        "hand_sizes",
        "passed",
        "lead_suit",
    }
    assert not {"hand", "passed_cards", "received"} & set(view)
    own = RULES.view(RULES.setup(4, 1), 0)
    assert {"hand", "passed_cards", "received"} <= set(own)
    assert own["deal"] == 1 and own["passed"] == [False] * 4
