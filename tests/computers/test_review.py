"""The post-game review (issue 27, part 4): decisions judged from what the seat knew."""

from __future__ import annotations

import copy
import random

from games.computers import act
from games.computers.review import (
    BLUNDER,
    MISTAKE,
    Played,
    grade,
    review_game,
    review_position,
    summary,
)
from games.engines.base import observations
from games.kinds.felix.computers import HEURISTIC, STRATEGIES
from games.kinds.felix.engine import ORDER, RULES

SEARCH = STRATEGIES["hard"]
SEED = 7


def first_auction():
    """A four-seat Felix game at its first auction: every seat placed its worst card
    (the heuristic's), so the row is four -8 cats, one of them turned up."""
    state = RULES.setup(4, SEED)
    events: list[dict] = []
    moves: list[Played] = []
    while state["phase"] == "place":
        seat = RULES.to_act(state)[0]
        action = act(RULES, state, seat, HEURISTIC, random.Random(0))
        events += RULES.apply(state, seat, action)
        moves.append(Played(seat, action))
    assert state["row"] == ["-8"] * 4
    return state, events, moves


def verdict(state, events, played, step=5, playouts=300):
    seat = state["turn"]
    return review_position(
        SEARCH,
        RULES.view(state, seat),
        observations(events, seat),
        RULES.legal_actions(state, seat),
        played,
        step=step,
        seed=SEED,
        playouts=playouts,
    )


def another_deal(state):
    """The same table with other hidden cards: a seat's unseen card swapped with the card
    removed unseen from its set, and another's face-down card in the row swapped with one
    in its hand. Nothing of this is visible to the seat to bid."""
    other = copy.deepcopy(state)
    me = state["turn"]
    a, b = [s for s in range(4) if s != me][:2]
    hand = other["hands"][a]
    i = next(i for i, card in enumerate(hand) if card != other["removed"][a])
    hand[i], other["removed"][a] = other["removed"][a], hand[i]
    hand.sort(key=lambda card: ORDER[card])
    pos = next(p for p, s in enumerate(RULES.view(state, me)["row_seats"]) if s == b)
    assert pos >= state["shown"]  # face down
    hand = other["hands"][b]
    other["row"][pos], hand[0] = hand[0], other["row"][pos]
    hand.sort(key=lambda card: ORDER[card])
    return other


def test_the_review_of_a_decision_does_not_depend_on_the_others_hidden_cards():
    """Issue 27: the same information state in different deals gets the same review."""
    state, events, _ = first_auction()
    other = another_deal(state)
    me = state["turn"]
    assert other["hands"] != state["hands"] or other["row"] != state["row"]
    assert RULES.view(other, me) == RULES.view(state, me)
    for played in ("bid:3", "pass"):
        assert verdict(state, events, played) == verdict(other, events, played)


def test_the_review_is_deterministic_and_seeded_by_the_step():
    """Issue 27: the same game and budget give the same verdicts."""
    state, events, _ = first_auction()
    assert verdict(state, events, "bid:3") == verdict(state, events, "bid:3")


def test_buying_a_sack_of_bad_cats_at_a_high_price_is_a_blunder():
    """Issue 27: every seat placed its -8 cat; bidding all 15 mice for the row is a
    blunder, and passing is the suggestion."""
    state, events, _ = first_auction()
    found = verdict(state, events, "bid:15", playouts=600)
    assert found.grade == BLUNDER
    assert found.best == "pass"
    assert found.loss >= 0.9  # about a place lost at a table of four
    assert found.place_played > found.place_best


def test_a_whole_game_review_covers_only_the_persons_decisions():
    """Issue 27: computers' moves are replayed, not reviewed; a forced move is skipped."""
    state, _events, moves = first_auction()
    seat = state["turn"]
    moves = [Played(m.seat, m.action, person=m.seat == seat) for m in moves]
    moves.append(Played(seat, "bid:15"))
    verdicts = review_game(RULES, SEARCH, 4, SEED, {}, moves, scale=0.5)
    assert {v.seat for v in verdicts} == {seat}
    assert verdicts[-1].step == len(moves) and verdicts[-1].grade in (MISTAKE, BLUNDER)
    line = summary(verdicts, 4)[seat]
    assert line["decisions"] == len(verdicts)
    assert line["phases"].get("auction", 0) >= 1


def test_a_per_game_cap_shares_the_playouts():
    state, _events, moves = first_auction()
    moves.append(Played(state["turn"], "pass"))
    verdicts = review_game(RULES, SEARCH, 4, SEED, {}, moves, max_playouts=500)
    assert all(v.playouts <= 500 // len(moves) for v in verdicts)


def test_a_small_loss_or_one_within_the_noise_is_not_graded():
    assert grade(0.05, 0.0) == ""
    assert grade(0.12, 0.01) == "inaccuracy"
    assert grade(0.25, 0.2) == ""
    assert grade(0.35, 0.01) == BLUNDER
