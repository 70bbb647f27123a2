"""Smoking Cat determinization: full states consistent with what one seat has seen.

What a seat knows in a deal: its hand, the cards it chose to pass (they sit in its left
neighbour's hand until played), the cards it received, every card played so far (the
seat saw each ``play`` event even though S10 keeps only the last trick on the table: a
player may remember), and the suits each seat showed void in by not following. The other
cards are dealt at random among the other seats by their hand sizes, voids respected;
while passing, each other seat's chosen cards are a random part of its eight. Future
deals come from a fresh seed, since the seat cannot know them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .smoking_cat import (
    CARD,
    HAND_SIZE,
    N_SEATS,
    PASS,
    PASS_SIZE,
    PHASES,
    PLAY,
    State,
)

ALL = (1 << 32) - 1
RETRIES = 50


def mask_of(codes) -> int:
    mask = 0
    for code in codes or ():
        mask |= 1 << CARD[code]
    return mask


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def this_deal(history: Sequence[dict]) -> list[dict]:
    """The events of the deal in progress (a ``deal`` event starts each later deal)."""
    start = 0
    for i, ev in enumerate(history):
        if ev.get("type") == "deal":
            start = i + 1
    return list(history[start:])


def read_deal(events: list[dict]) -> tuple[int, list[int], list[int]]:
    """Cards played this deal, each seat's void suits (a suit mask), taken cards."""
    played = 0
    voids = [0] * N_SEATS
    taken = [0] * N_SEATS
    lead = None
    for ev in events:
        kind = ev.get("type")
        if kind == "play":
            card = CARD[ev["card"]]
            played |= 1 << card
            if lead is None:
                lead = card >> 3
            elif card >> 3 != lead:  # S8: off-suit only when void in the suit led
                voids[ev["seat"]] |= 1 << lead
        elif kind == "trick":
            taken[ev["winner"]] |= mask_of(ev["cards"])
            lead = None
    return played, voids, taken


def deal_cards(
    cards: list[int], caps: dict[int, int], voids: list[int], rng: random.Random
) -> dict[int, int]:
    """Deal ``cards`` to seats with the given capacities, none in a suit it is void in:
    the most constrained cards first, each to an allowed seat with probability by room
    left. Gives up the voids (never the counts) if no deal is found."""
    seats = list(caps)

    def allowed(card: int) -> int:
        return sum(1 for s in seats if not voids[s] >> (card >> 3) & 1)

    for attempt in range(RETRIES + 1):
        strict = attempt < RETRIES
        order = cards[:]
        rng.shuffle(order)
        if strict:
            order.sort(key=allowed)
        room = dict(caps)
        hands = dict.fromkeys(seats, 0)
        for card in order:
            suit_bit = 1 << (card >> 3)
            ok = [s for s in seats if room[s] and not (strict and voids[s] & suit_bit)]
            if not ok:
                break
            pick = rng.randrange(sum(room[s] for s in ok))
            for s in ok:
                pick -= room[s]
                if pick < 0:
                    break
            hands[s] |= 1 << card
            room[s] -= 1
        else:
            return hands
    raise ValueError("the view's hand sizes do not add up to the unseen cards")


def sampler(view: dict, history: Sequence[dict]) -> Callable[[random.Random], State]:
    me = view["seat"]
    phase = PHASES.index(view["phase"])
    if phase not in (PASS, PLAY):
        raise ValueError("the match is over: nothing to sample")
    hand = mask_of(view["hand"])
    mine_passed = mask_of(view["passed_cards"])
    received = view.get("received")
    received_mask = mask_of(received)
    sizes = view["hand_sizes"]
    left, right = (me + 1) % N_SEATS, (me - 1) % N_SEATS
    others = [s for s in range(N_SEATS) if s != me]
    played, voids, taken = read_deal(this_deal(history))
    passed = sum(1 << s for s, done in enumerate(view["passed"]) if done)
    trick = view["trick"]
    dealer = view["dealer"]
    if phase == PLAY:
        turn = view["turn"]
        leader = trick[0][0] if trick else turn
        with_left = mine_passed & ~played  # the cards this seat passed, still unplayed
        unseen = ALL & ~hand & ~played & ~with_left
        caps = {s: sizes[s] - (with_left.bit_count() if s == left else 0) for s in others}
    else:
        leader = turn = (dealer + 1) % N_SEATS  # S7
        with_left = 0
        unseen = ALL & ~hand & ~mine_passed & ~received_mask
        # While passing, nothing is played: each seat holds eight, chosen or not.
        caps = {s: HAND_SIZE - (PASS_SIZE if s == right and received else 0) for s in others}
        voids = [0] * N_SEATS
    unseen_cards = cards_of(unseen)
    if len(unseen_cards) != sum(caps.values()):
        raise ValueError("the history does not account for every card played this deal")
    letters = [len(x) for x in view["letters"]]
    ober = view["taken_ober"]
    last = view["last_trick"]
    base_passes = [0] * N_SEATS
    base_passes[me] = mine_passed
    base_passes[right] = received_mask

    def sample(rng: random.Random) -> State:
        dealt = deal_cards(unseen_cards, caps, voids, rng)
        hands = [0] * N_SEATS
        passes = base_passes[:]
        hands[me] = hand
        for s in others:
            hands[s] = dealt[s]
        hands[left] |= with_left
        if phase == PASS:
            for s in others:
                if s == right and received:
                    continue
                chosen = HAND_SIZE - sizes[s]  # how many it set aside so far
                if chosen:
                    picks = rng.sample(cards_of(hands[s]), chosen)
                    passes[s] = mask_of_ints(picks)
                    hands[s] ^= passes[s]
        st = State()
        st.seed = rng.getrandbits(48)  # future deals: unknown to the seat
        st.word = view["word"]
        st.decks = []
        st.deal, st.dealer, st.letters = view["deal"], dealer, letters[:]
        st.phase, st.hands, st.passes, st.passed = phase, hands, passes, passed
        st.turn, st.leader = turn, leader
        st.trick = [CARD[code] for _, code in trick]
        st.points = list(view["points"])
        st.taken = taken[:]
        st.ober = -1 if ober is None else ober
        st.last = [last[0][0], [CARD[code] for _, code in last]] if last else None
        prev = view["previous"]
        st.previous = (
            None
            if prev is None
            else {k: v[:] if isinstance(v, list) else v for k, v in prev.items()}
        )
        return st

    return sample


def mask_of_ints(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
