"""Bon Appétit! engine: one test (or more) per clause of the rules specification bon-appetit.md.

Scenario tests lay out a stacked table with the "piles" option. In the ``table`` helper a
pile is a string of card codes, top card first: C cheese, K cat, 1/2/3 a mouse with that
many paws ("2CK": a two-paw mouse on top, then cheese, then a cat).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, Termination
from games.kinds.bon_appetit.engine import (
    CARD_NAMES,
    DECKS,
    RULES,
    TOKENS,
    BonAppetitState,
    deck_cards,
)
from tests.engines.harness import MAX_STATE_BYTES, playout, replay

GAMES = 2000  # random games per player count for I1/I2 (about 3 ms each)
DEEP_GAMES = 40  # per player count, with the whole contract checked (about 60 ms each)
# The public table (nothing else: no pile's contents).
VIEW_KEYS = {
    "seat",
    "ranks",
    "n_players",
    "deck",
    "piles",
    "common",
    "tokens",
    "tokens_left",
    "chase",
    "to_act",
    "over",
    "end",
}


# --- helpers ------------------------------------------------------------------------------
def table(*piles: str, center: str = "C", first: int = 0) -> BonAppetitState:
    """A stacked table: one string of card codes per seat, top card first."""
    options = {
        "piles": [[CARD_NAMES[c] for c in pile] for pile in piles],
        "center": CARD_NAMES[center],
        "first": first,
    }
    return RULES.setup(len(piles), 1, options)


def flip(state: BonAppetitState) -> list[dict]:
    """The seat to act flips."""
    (seat,) = RULES.to_act(state)
    return RULES.apply(state, seat, "flip")


def kinds(events: list[dict]) -> list[str]:
    return [ev["type"] for ev in events]


def find(events: list[dict], kind: str) -> dict:
    (ev,) = [ev for ev in events if ev["type"] == kind]
    return ev


def pile(state: BonAppetitState, seat: int) -> str:
    return state.piles[seat]


def common(state: BonAppetitState) -> list[str]:
    return RULES.view(state, None)["common"]


CODES = tuple(CARD_NAMES)
DECK_COUNTS = {deck: tuple(deck_cards(deck).count(c) for c in CODES) for deck in DECKS}


def invariants(state: BonAppetitState) -> None:
    """I1 and I2 for a dealt game, plus the shape of a chase."""
    # I1: piles + common pile = the deck in use.
    cards = "".join(state.piles) + state.common
    assert tuple(map(cards.count, CODES)) == DECK_COUNTS[state.deck]
    # I2: tokens handed out never exceed the tokens in play.
    assert state.tokens_total == TOKENS[state.n]
    assert all(t >= 0 for t in state.tokens) and state.tokens_left >= 0
    if state.end == "tokens":
        assert state.tokens_left == 0
    elif state.end == "no_cards":
        assert state.piles[state.seat] == ""
    elif state.end is not None:
        assert state.end in ("repeat", "flip_limit")  # B13a, MAX_FLIPS
    if state.flips_left:
        assert 1 <= state.flips_left <= 3 and state.end is None
        assert state.owner != state.seat  # the chaser is always the next player
    else:
        assert state.owner is None


def check_view(state: BonAppetitState, seat: int | None, view: dict) -> None:
    """Nobody sees a face-down card (B4): every seat sees exactly the public table."""
    assert set(view) == VIEW_KEYS
    assert view["seat"] == seat
    assert view == {**RULES.view(state, None), "seat": seat}
    assert view["piles"] == [len(p) for p in state.piles]
    assert all(type(count) is int for count in view["piles"])
    assert view["common"] == [CARD_NAMES[c] for c in state.common]


# --- components ---------------------------------------------------------------------------
def test_B1_full_deck_tokens_and_player_range():
    assert sum(DECKS["full"].values()) == 90
    mice = sum(DECKS["full"][f"mouse{p}"] for p in (1, 2, 3))
    assert (DECKS["full"]["cheese"], mice, DECKS["full"]["cat"]) == (58, 18, 14)
    for n in (4, 5, 6):
        state = RULES.setup(n, 3)
        assert state.deck == "full" and RULES.view(state, None)["tokens_left"] == 9
        assert sum(RULES.view(state, None)["piles"]) + 1 == 90
    assert (RULES.min_players, RULES.max_players) == (2, 6)
    for n in (1, 7):
        with pytest.raises(ValueError, match="2 to 6"):
            RULES.setup(n, 3)


def test_B2_six_mice_of_each_paw_count_and_paws_are_flips():
    assert [DECKS["full"][f"mouse{p}"] for p in (1, 2, 3)] == [6, 6, 6]
    for paws in "123":
        state = table(paws + "C", "CCCK")
        events = flip(state)
        assert find(events, "chase_start")["flips_left"] == int(paws)
        for _ in range(int(paws) - 1):  # all but the last chase flip leave the chase on
            assert kinds(flip(state))[-1] == "chase_step"
        assert find(flip(state), "chase_end")["result"] == "escaped"


def test_B3_red_deck_and_five_tokens_with_two_or_three_players():
    assert DECKS["red"] == {"cheese": 29, "cat": 7, "mouse1": 3, "mouse2": 3, "mouse3": 3}
    for n in (2, 3):
        state = RULES.setup(n, 5)
        assert state.deck == "red"
        assert Counter("".join(state.piles) + state.common) == Counter(deck_cards("red"))
        assert len("".join(state.piles)) + 1 == 45
        assert RULES.view(state, None)["tokens_left"] == 5
    # The deck is configurable; the tokens follow the player count (B3).
    state = RULES.setup(3, 5, {"deck": "full"})
    assert len("".join(state.piles)) + 1 == 90 and state.tokens_left == 5
    state = RULES.setup(5, 5, {"deck": "red"})
    assert len("".join(state.piles)) + 1 == 45 and state.tokens_left == 9


# --- set-up -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_B4_all_but_one_card_dealt_evenly_and_one_face_up(n):
    state = RULES.setup(n, 11)
    sizes = [len(p) for p in state.piles]
    assert max(sizes) - min(sizes) <= 1
    assert sum(sizes) + 1 == sum(DECKS[state.deck].values())
    assert len(state.common) == 1
    view = RULES.view(state, None)
    assert view["common"] == [CARD_NAMES[state.common]] and view["piles"] == sizes


def test_B4_nobody_sees_a_face_down_card_not_even_their_own():
    state = RULES.setup(4, 2)
    for seat in (None, 0, 1, 2, 3):
        view = RULES.view(state, seat)
        check_view(state, seat, view)
        text = json.dumps(view)
        for p in state.piles:  # no pile's contents, not even as codes
            assert p not in text
    # Events carry only the flipped card, public to all.
    events = playout(RULES, 4, 2, deep=False).events
    assert all(ev["to"] is None for ev in events)


def test_B4_the_deal_is_seeded_and_shuffled():
    assert RULES.dump(RULES.setup(4, 9)) == RULES.dump(RULES.setup(4, 9))
    assert RULES.dump(RULES.setup(4, 9)) != RULES.dump(RULES.setup(4, 10))
    assert len({RULES.setup(2, s).piles[0] for s in range(20)}) == 20


def test_B5_random_first_player_and_clockwise_play():
    firsts = {RULES.to_act(RULES.setup(4, seed))[0] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert RULES.to_act(RULES.setup(4, 1, {"first": 2})) == [2]
    state = table("CC", "CC", "CC", first=1)
    order = []
    for _ in range(4):
        order.append(RULES.to_act(state)[0])
        flip(state)
    assert order == [1, 2, 0, 1]


# --- a turn -------------------------------------------------------------------------------
def test_B6_flip_moves_the_top_card_onto_the_common_pile():
    state = table("KC", "CC")
    events = flip(state)
    assert events[0] == {"type": "flip", "to": None, "seat": 0, "card": "cat", "left": 1}
    assert pile(state, 0) == "C" and common(state) == ["cheese", "cat"]


def test_B7_cheese_nothing_happens_next_player():
    state = table("CC", "CC", "CC")
    assert kinds(flip(state)) == ["flip"]
    assert RULES.to_act(state) == [1] and state.tokens == [0, 0, 0]
    assert RULES.view(state, None)["chase"] is None


def test_B8_cat_on_cheese_or_cat_nothing_happens():
    state = table("K", "KC", "CC")
    assert kinds(flip(state)) == ["flip"]  # cat on cheese
    assert kinds(flip(state)) == ["flip"]  # cat on cat
    assert common(state) == ["cheese", "cat", "cat"] and state.tokens == [0, 0, 0]
    assert RULES.to_act(state) == [2]
    state = table("KC", "CC", center="K")  # a cat on the starting cat
    assert kinds(flip(state)) == ["flip"] and RULES.to_act(state) == [1]


def test_B9_mouse_starts_a_chase_by_the_next_player():
    state = table("C", "2C", "CCC")
    flip(state)
    events = flip(state)
    assert kinds(events) == ["flip", "chase_start"]
    assert events[1] == {
        "type": "chase_start",
        "to": None,
        "chaser": 2,
        "mouse_owner": 1,
        "flips_left": 2,
    }
    view = RULES.view(state, None)
    assert view["chase"] == {"chaser": 2, "flips_left": 2, "mouse_owner": 1}
    assert view["to_act"] == [2]
    assert kinds(flip(state)) == ["flip", "chase_step"]
    assert RULES.view(state, None)["chase"]["flips_left"] == 1


def test_B9a_cat_catches_chaser_wins_pile_and_token():
    state = table("2C", "CKC")
    flip(state)  # mouse2
    flip(state)  # cheese
    events = flip(state)  # cat
    assert kinds(events) == ["flip", "chase_end", "pile_won", "token"]
    assert find(events, "chase_end")["result"] == "caught"
    assert find(events, "chase_end")["winner"] == 1
    assert find(events, "pile_won") == {
        "type": "pile_won",
        "to": None,
        "seat": 1,
        "cards": 4,
        "token": True,
    }
    assert find(events, "token")["left"] == 4
    assert state.tokens == [0, 1] and common(state) == []
    assert pile(state, 1) == "C" + "C2CK"
    assert RULES.view(state, None)["chase"] is None and RULES.to_act(state) == [1]


def test_B9a_cat_on_the_first_flip_ends_the_chase_with_flips_left():
    state = table("3C", "KCC")
    flip(state)
    events = flip(state)
    assert find(events, "chase_end")["result"] == "caught"
    assert pile(state, 1) == "CC" + "C3K"  # two cards never flipped


def test_B9b_only_cheese_mouse_owner_wins_without_token():
    state = table("2C", "CCK")
    flip(state)
    flip(state)
    events = flip(state)
    assert kinds(events) == ["flip", "chase_end", "pile_won"]
    assert find(events, "chase_end") == {
        "type": "chase_end",
        "to": None,
        "result": "escaped",
        "chaser": 1,
        "winner": 0,
    }
    assert find(events, "pile_won")["token"] is False
    assert state.tokens == [0, 0] and pile(state, 0) == "C" + "C2CC"
    assert pile(state, 1) == "K" and RULES.to_act(state) == [0]


def test_B9c_chase_passes_to_next_mouse():
    # Seat 0's mouse2; seat 1 flips cheese then a mouse3 and stops with a flip left; seat 2
    # chases the mouse3 with three flips, finds only cheese: seat 1 (the last mouse) wins.
    state = table("2C", "C3C", "CCCK")
    flip(state)
    flip(state)
    events = flip(state)
    assert kinds(events) == ["flip", "chase_pass"]
    assert events[1] == {
        "type": "chase_pass",
        "to": None,
        "chaser": 2,
        "mouse_owner": 1,
        "flips_left": 3,
    }
    assert pile(state, 1) == "C"  # stopped at once, the flip left unused
    assert RULES.to_act(state) == [2]
    flip(state)
    flip(state)
    events = flip(state)
    assert find(events, "chase_end")["winner"] == 1
    assert find(events, "pile_won") == {
        "type": "pile_won",
        "to": None,
        "seat": 1,
        "cards": 7,
        "token": False,
    }
    assert pile(state, 1) == "C" + "C2C3CCC" and pile(state, 2) == "K"
    assert RULES.to_act(state) == [1]


def test_B9c_chain_ended_by_a_cat_gives_the_token_to_the_last_chaser():
    state = table("1C", "2C", "3C", "CK")
    flip(state)  # seat 0: mouse1 -> seat 1 chases
    flip(state)  # seat 1: mouse2 -> seat 2 chases
    flip(state)  # seat 2: mouse3 -> seat 3 chases
    assert RULES.view(state, None)["chase"] == {"chaser": 3, "flips_left": 3, "mouse_owner": 2}
    flip(state)
    events = flip(state)
    assert find(events, "chase_end")["result"] == "caught"
    assert state.tokens == [0, 0, 0, 1] and pile(state, 3) == "C123CK"


def test_B9c_two_players_chase_passes_back_to_the_first_mouse_owner():
    state = table("2C", "3C")
    flip(state)
    events = flip(state)
    assert find(events, "chase_pass")["chaser"] == 0
    assert RULES.view(state, None)["chase"] == {"chaser": 0, "flips_left": 3, "mouse_owner": 1}


# --- winning and restarting the pile ------------------------------------------------------
def test_B10_pile_turned_over_under_the_pile_bottom_card_first():
    # Common pile, bottom to top: cat (start), cheese, mouse3, cheese, cheese, cheese.
    state = table("CCCC", "3", center="K")
    for _ in range(5):
        flip(state)
    assert pile(state, 1) == "KC3CCC"  # the old bottom card comes up first
    assert [CARD_NAMES[c] for c in pile(state, 1)][:3] == ["cat", "cheese", "mouse3"]
    # The winner must restart: it is their turn, nothing is turned automatically.
    assert RULES.to_act(state) == [1] and common(state) == []


def test_B10_won_cards_go_under_the_cards_still_in_the_pile():
    state = table("1C", "KCC")
    flip(state)
    flip(state)
    assert pile(state, 1) == "CC" + "C1K"


def test_B11_restart_is_a_normal_flip_then_next_player():
    state = table("CCCCC", "3", center="K")
    for _ in range(5):
        flip(state)
    events = flip(state)  # seat 1 restarts the common pile with the old bottom cat
    assert kinds(events) == ["flip"] and common(state) == ["cat"]
    assert RULES.to_act(state) == [0]


def test_B11_restart_with_a_mouse_starts_a_chase():
    state = table("2CC", "K1C")
    flip(state)
    flip(state)  # seat 1 catches at once and wins: its pile is now 1 C C 2 K
    assert RULES.to_act(state) == [1]
    events = flip(state)
    assert kinds(events) == ["flip", "chase_start"]
    assert events[1]["chaser"] == 0 and events[1]["mouse_owner"] == 1
    events = flip(state)  # seat 0 flips cheese: mouse1 escaped, seat 1 wins again
    assert find(events, "pile_won")["seat"] == 1 and RULES.to_act(state) == [1]


# --- the starting mouse -------------------------------------------------------------------
def test_B12_starting_mouse_is_chased_by_starting_player():
    state = table("CC", "CCC", "C", center="2", first=1)
    view = RULES.view(state, None)
    assert view["chase"] == {"chaser": 1, "flips_left": 2, "mouse_owner": None}
    assert view["to_act"] == [1]
    assert kinds(flip(state)) == ["flip", "chase_step"]
    events = flip(state)
    # Only cheese: nobody wins, the pile stays, the player after the chaser goes on.
    assert kinds(events) == ["flip", "chase_end"]
    assert find(events, "chase_end")["winner"] is None
    assert common(state) == ["mouse2", "cheese", "cheese"]
    assert RULES.to_act(state) == [2] and RULES.view(state, None)["chase"] is None
    assert [len(p) for p in state.piles] == [2, 1, 1]


def test_B12_starting_mouse_caught_by_a_cat():
    state = table("KC", "CC", center="1")
    events = flip(state)
    assert find(events, "pile_won") == {
        "type": "pile_won",
        "to": None,
        "seat": 0,
        "cards": 2,
        "token": True,
    }
    assert state.tokens == [1, 0] and RULES.to_act(state) == [0]


def test_B12_starting_mouse_chase_passes_to_a_new_mouse_with_an_owner():
    state = table("3C", "CCC", center="1")
    events = flip(state)
    assert find(events, "chase_pass")["mouse_owner"] == 0
    for _ in range(3):
        events = flip(state)
    assert find(events, "pile_won")["seat"] == 0


# --- the end ------------------------------------------------------------------------------
def test_B13_last_token_ends_the_game_after_the_pile_is_taken():
    state = table("2C", "KC", "CC")  # three players: five tokens
    state.tokens = [2, 0, 2]  # four handed out already
    flip(state)
    events = flip(state)
    assert kinds(events) == ["flip", "chase_end", "pile_won", "token", "game_end"]
    assert find(events, "token")["left"] == 0
    end = find(events, "game_end")
    assert end["reason"] == "tokens" and end["seat"] == 1
    assert end["scores"] == [1, 1 + 3, 2] and end["ranks"] == [3, 1, 2]
    # B13's ends are the rules' own: the termination is normal, the reason says which.
    assert end["termination"] == "normal" and Termination.of_event(end) == Termination.NORMAL
    assert RULES.outcome(state).termination == Termination.NORMAL
    assert pile(state, 1) == "C" + "C2K"
    assert RULES.to_act(state) == [] and list(RULES.outcome(state).ranks) == [3, 1, 2]
    view = RULES.view(state, None)
    assert view["over"] and view["end"] == "tokens" and view["tokens_left"] == 0


def test_B13_ninth_token_with_four_players():
    state = table("1C", "KC", "C", "C")
    state.tokens = [3, 3, 2, 0]
    flip(state)
    assert find(flip(state), "game_end")["reason"] == "tokens"


def test_B13_player_without_a_card_ends_the_game_at_once():
    state = table("C", "CC")
    assert kinds(flip(state)) == ["flip"]  # flipping one's last card does not end it
    assert RULES.to_act(state) == [1]
    events = flip(state)
    assert kinds(events) == ["flip", "game_end"]
    assert find(events, "game_end")["reason"] == "no_cards"
    assert find(events, "game_end")["seat"] == 0
    assert RULES.to_act(state) == [] and list(RULES.outcome(state).scores) == [0, 1]


def test_B13_chaser_out_of_cards_mid_chase_pile_belongs_to_nobody():
    state = table("3C", "C")
    flip(state)
    events = flip(state)  # the chaser's last card, two flips left
    assert kinds(events) == ["flip", "chase_step", "chase_end", "game_end"]
    assert find(events, "chase_end") == {
        "type": "chase_end",
        "to": None,
        "result": "no_cards",
        "chaser": 1,
        "winner": None,
    }
    assert common(state) == ["cheese", "mouse3", "cheese"]  # nobody takes it
    assert list(RULES.outcome(state).scores) == [1, 0]
    assert RULES.view(state, None)["chase"] is None


def test_B13_chaser_with_no_card_at_all_ends_the_game():
    state = table("2C", "")
    events = flip(state)
    assert kinds(events) == ["flip", "chase_start", "chase_end", "game_end"]
    outcome = RULES.outcome(state)
    assert outcome.places() == {"scores": [1, 0], "tokens": [0, 0], "ranks": [1, 2]}
    assert outcome.termination == Termination.NORMAL  # B13: no card to turn up


def test_B13_starting_player_without_cards_ends_before_any_flip():
    state = table("", "CC", first=0)
    assert RULES.to_act(state) == [] and state.end == "no_cards"
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(state, 0, "flip")


def naive_key(state: BonAppetitState) -> str:
    """B13a's position, read from the dump independently of the engine's own bookkeeping."""
    data = RULES.dump(state)
    return json.dumps([data[k] for k in ("piles", "common", "tokens", "seat", "chase")])


def reference_end(state: BonAppetitState, limit: int = 5000) -> tuple[str, int]:
    """How B13 and a plain reading of B13a end a table: flips under B6-B13 alone (the
    engine's ``_flip``), comparing each position with every one since the deal."""
    from games.kinds.bon_appetit import engine as engine

    state = RULES.clone(state)
    if state.end is not None:
        return state.end, 0
    seen = {naive_key(state)}
    for flips in range(1, limit + 1):
        engine.RULES._flip(state, state.seat)
        if state.end is not None:
            return state.end, flips
        key = naive_key(state)
        if key in seen:
            return "repeat", flips
        seen.add(key)
    raise AssertionError("no end within the limit")


def test_B13a_a_cycling_table_ends_at_once_when_a_position_repeats():
    """B13a: a table without a cat in any chase cycles for ever under B13 alone (no token,
    no pile runs dry); the game ends at once after the flip that repeats a position, here
    the one after the third flip, the common pile belongs to nobody and B14 ranks."""
    state = table("CC1C", "1")
    ends = [kinds(flip(state))[-1] for _ in range(9)]
    assert ends[:-1] == [
        "flip", "chase_start", "pile_won", "flip", "chase_start", "pile_won", "flip",
        "chase_start",
    ]  # fmt: skip
    assert ends[-1] == "game_end" and state.end == "repeat"
    assert RULES.to_act(state) == [] and RULES.view(state, None)["over"]
    # The position after flip 9 is the one after flip 3: ("1C", "CC1C"), seat 1 to flip.
    assert state.piles == ["1C", "CC1C"] and state.seat == 1
    outcome = RULES.outcome(state)
    assert outcome.places() == {"scores": [2, 4], "tokens": [0, 0], "ranks": [2, 1]}
    assert outcome.termination == Termination.REPEATED_POSITION
    stored = json.loads(json.dumps(RULES.dump(state)))
    assert RULES.stored_termination(stored) == Termination.REPEATED_POSITION
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(state, 1, "flip")


def test_B13a_a_repeat_during_a_chase_ends_it_and_the_pile_is_nobodys():
    """B13a: the position after flip 17 (a chase by seat 1 of seat 0's mouse) repeats the
    one after flip 1; the chase stops with the game, the two cards in the middle belong to
    nobody. After flip 16 the piles, the common pile and the chase's flips match the
    deal, but the mouse's owner does not (seat 1's, not the starting card's, B12): the
    owner is part of the position, so that is no repeat."""
    state = table("1C1C", "CC1C", center="1")
    for _ in range(16):
        flip(state)
    assert state.end is None and (state.piles, state.common) == (["1C1C", "CC1C"], "1")
    assert (state.seat, state.flips_left, state.owner) == (0, 1, 1)
    events = flip(state)
    assert kinds(events) == ["flip", "chase_pass", "game_end"]
    assert find(events, "game_end")["reason"] == "repeat"
    view = RULES.view(state, None)
    assert view["chase"] is None and view["common"] == ["mouse1", "mouse1"]
    assert list(RULES.outcome(state).scores) == [3, 4]  # 3 + 4 + the 2 nobody's = 9 cards
    assert RULES.outcome(state).termination == Termination.REPEATED_POSITION  # B13a
    assert find(events, "game_end")["termination"] == "repeat"


def test_B13a_ends_at_the_first_repeated_position_on_any_stacked_table():
    """B13a against a plain reading of the clause on random small tables: the game ends
    with the first flip whose position (every pile in order, the common pile, the tokens,
    the player to turn up, the chase) was seen before in the game, and not earlier."""
    rng = random.Random(13)
    ends = Counter()
    # Cycles need chases that no cat ends: most of the sample is cheese and mice.
    for alphabet in ("CCCK123", "CC1", "C1", "CC12", "CC1K"):
        for _ in range(4000):
            n = rng.choice((2, 2, 3))
            piles = ["".join(rng.choices(alphabet, k=rng.randint(1, 5))) for _ in range(n)]
            state = table(*piles, center=rng.choice("CK123"), first=rng.randrange(n))
            expected = reference_end(state)
            while RULES.to_act(state):
                flip(state)
            assert (state.end, state.flips) == expected, piles
            ends[state.end] += 1
    assert ends["repeat"] >= 30 and ends["tokens"] and ends["no_cards"]  # all three occur


def test_B13a_survives_a_dump_and_load_at_every_flip():
    """Games are stored between moves: a repeat is still found at the same flip."""
    for piles, center, flips in ((("CC1C", "1"), "C", 9), (("1C1C", "CC1C"), "1", 17)):
        state = table(*piles, center=center)
        while RULES.to_act(state) and state.flips < 100:
            state = RULES.load(json.loads(json.dumps(RULES.dump(state))))
            flip(state)
        assert (state.end, state.flips) == ("repeat", flips)


def test_B13a_flips_are_capped_on_a_stacked_deal(monkeypatch):
    """However a table is stacked, a game ends after at most MAX_FLIPS flips, as B13a
    ends one: at once, the common pile (and a chase) belonging to nobody, B14 ranking.
    Here a long table of cheese and mice that would take 80 flips to run dry."""
    from games.kinds.bon_appetit import engine as engine

    assert 380 * 5 <= engine.MAX_FLIPS <= 10_000  # well above any shuffled game
    monkeypatch.setattr(engine, "MAX_FLIPS", 26)
    state = table("CCC2" * 10, "CC1C" * 10)
    for _ in range(25):
        flip(state)
    assert state.end is None and state.flips_left == 2  # flip 25 was a two-paw mouse
    events = flip(state)
    assert kinds(events) == ["flip", "chase_step", "game_end"]
    assert find(events, "game_end")["reason"] == "flip_limit"
    assert state.end == "flip_limit" and state.flips == 26 and not state.flips_left
    assert RULES.to_act(state) == [] and RULES.view(state, None)["chase"] is None
    outcome = RULES.outcome(state)
    assert sum(outcome.scores) + len(state.common) == 80 + 1
    assert list(outcome.ranks) == [1 + sum(o > c for o in outcome.scores) for c in outcome.scores]
    # B13a's bound: the typed termination, in the result and in the end event.
    assert outcome.termination == Termination.MOVE_LIMIT
    assert Termination.of_event(find(events, "game_end")) == Termination.MOVE_LIMIT
    assert RULES.stored_termination(json.loads(json.dumps(RULES.dump(state)))) == (
        Termination.MOVE_LIMIT
    )


@settings(deadline=None, max_examples=60)
@given(st.lists(st.text(alphabet="CK123", max_size=15), min_size=2, max_size=6), st.data())
def test_B13a_every_stacked_table_ends_within_the_flip_cap(piles, data):
    from games.kinds.bon_appetit import engine as engine

    state = table(*piles, center=data.draw(st.sampled_from("CK123")))
    while RULES.to_act(state):
        flip(state)
        assert state.flips <= engine.MAX_FLIPS
    assert state.end in ("tokens", "no_cards", "repeat", "flip_limit")


# --- scoring ------------------------------------------------------------------------------
def ended(cards: list[int], tokens: list[int]) -> BonAppetitState:
    data = RULES.dump(table(*["C" * c for c in cards]))
    data.update(tokens=tokens, end="no_cards")
    return RULES.load(data)


def test_B14_most_cards_wins_ties_broken_by_tokens():
    outcome = RULES.outcome(ended([5, 5, 3, 5], [1, 2, 0, 2]))
    assert outcome.places() == {
        "scores": [5, 5, 3, 5],
        "tokens": [1, 2, 0, 2],
        "ranks": [3, 1, 4, 1],
    }


def test_B14_cards_beat_tokens_and_full_ties_share():
    assert list(RULES.outcome(ended([6, 5], [0, 4])).ranks) == [1, 2]
    assert list(RULES.outcome(ended([4, 4, 4], [1, 1, 0])).ranks) == [1, 1, 3]


@settings(deadline=None, max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 14), st.integers(0, 5)), min_size=2, max_size=6))
def test_B14_ranks_are_lexicographic_on_cards_then_tokens(rows):
    outcome = RULES.outcome(ended([c for c, _ in rows], [t for _, t in rows]))
    for i, mine in enumerate(rows):
        assert list(outcome.ranks)[i] == 1 + sum(1 for other in rows if other > mine)


# --- no decisions -------------------------------------------------------------------------
def test_B15_flip_is_the_only_action_of_the_one_seat_to_act():
    state = table("2C", "CC", "CC")
    assert [RULES.legal_actions(state, s) for s in range(3)] == [["flip"], [], []]
    flip(state)  # a chase: the chaser flips, nobody else
    assert [RULES.legal_actions(state, s) for s in range(3)] == [[], ["flip"], []]
    before = json.dumps(RULES.dump(state))
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.apply(state, 0, "flip")
    for bad in ("pass", "", "flip:1", "FLIP"):
        with pytest.raises(IllegalAction, match="only move"):
            RULES.apply(state, 1, bad)
    assert json.dumps(RULES.dump(state)) == before


# --- options ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"speed": 1}, "unknown options"),
        ({"first": 4}, "'first'"),
        ({"first": "0"}, "'first'"),
        ({"first": True}, "'first'"),
        ({"deck": "blue"}, "'deck'"),
        ({"center": "dog"}, "unknown card"),
        ({"piles": [["cheese"]] * 3, "center": "cheese"}, "4 piles"),
        ({"piles": ["cheese"] * 4, "center": "cheese"}, "list of cards"),
        ({"piles": [["cheese"], ["cheese"], ["cheese"], ["rat"]], "center": "cat"}, "rat"),
        ({"piles": [["cheese"]] * 4}, "'center'"),
        ({"piles": [["cheese"]] * 4, "center": "cat", "deck": "red"}, "not the 'red' deck"),
        ({"piles": [["cheese"] * 30] * 4, "center": "cat"}, "at most 90"),
    ],
)
def test_options_are_validated(options, message):
    with pytest.raises(ValueError, match=message):
        RULES.setup(4, 1, options)


def test_options_center_and_stacked_full_deck():
    state = RULES.setup(4, 1, {"center": "mouse3"})
    assert common(state) == ["mouse3"] and state.flips_left == 3  # B12
    assert Counter("".join(state.piles) + state.common) == Counter(deck_cards("full"))
    cards = [CARD_NAMES[c] for c in deck_cards("red")]
    state = RULES.setup(
        2, 1, {"piles": [cards[:22], cards[22:44]], "center": cards[44], "deck": "red"}
    )
    assert state.deck == "red" and RULES.view(state, None)["piles"] == [22, 22]
    assert table("C", "C").deck == "stacked"


# --- storage, determinism, invariants -----------------------------------------------------
def test_dump_is_compact_json_with_one_character_per_card():
    state = RULES.setup(6, 4)
    data = RULES.dump(state)
    assert all(set(p) <= set(CARD_NAMES) for p in data["piles"])
    assert len(json.dumps(data)) < 400
    assert RULES.dump(RULES.load(json.loads(json.dumps(data)))) == data


@pytest.mark.parametrize("n", [2, 4, 6])
def test_replay_is_deterministic(n):
    game = playout(RULES, n, 77, deep=False)
    again = playout(RULES, n, 77, deep=False)
    assert game.events == again.events
    state = replay(RULES, n, 77, game.actions)
    assert RULES.dump(state) == RULES.dump(game.state)
    assert RULES.outcome(state) == RULES.outcome(game.state)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_I1_I2_thousands_of_random_games(n):
    reasons = Counter()
    for seed in range(GAMES):
        game = playout(RULES, n, seed, deep=False, invariants=invariants)
        reasons[game.state.end] += 1
        assert sum(list(RULES.outcome(game.state).scores)) + len(game.state.common) == sum(
            DECKS[game.state.deck].values()
        )
    assert reasons["tokens"] and reasons["no_cards"]  # both ends occur
    assert set(reasons) == {"tokens", "no_cards"}  # B13a: no shuffled deal is seen to loop


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_full_contract_deep_playouts(n):
    for seed in range(DEEP_GAMES):
        playout(RULES, n, 10_000 + seed, invariants=invariants, check_view=check_view)


def test_full_contract_deep_playouts_with_a_chosen_starting_card():
    for seed, center in enumerate(["mouse1", "mouse3", "cat"]):
        playout(
            RULES, 3, seed, options={"center": center}, invariants=invariants, check_view=check_view
        )


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 6), st.integers(0, 2**31), st.sampled_from([None, *CARD_NAMES.values()]))
def test_I1_I2_any_seed_and_starting_card(n, seed, center):
    options = {"center": center} if center else None
    game = playout(RULES, n, seed, options=options, deep=False, invariants=invariants)
    assert RULES.outcome(game.state) is not None


@settings(deadline=None, max_examples=60)
@given(
    st.lists(st.text(alphabet="CK123", max_size=8), min_size=2, max_size=6),
    st.sampled_from("CK123"),
    st.data(),
)
def test_I1_cards_conserved_on_any_stacked_table(piles, center, data):
    state = table(*piles, center=center, first=data.draw(st.integers(0, len(piles) - 1)))
    cards = Counter("".join(state.piles) + state.common)
    rng = random.Random(0)
    while True:  # every table ends (B13a, MAX_FLIPS)
        assert Counter("".join(state.piles) + state.common) == cards
        assert len(json.dumps(RULES.dump(state))) < MAX_STATE_BYTES
        seat = rng.choice([None, *range(state.n)])
        check_view(state, seat, RULES.view(state, seat))
        if not RULES.to_act(state):
            break
        flip(state)
