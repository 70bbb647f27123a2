"""Smoking Cat, slug ``smoking_cat``: a 4-player trick-taking game played as a match for
the letters of a game word.

Rules: the rules specification smoking-cat.md (clause IDs S1-S17 appear in the comments below).

A match is a sequence of deals. Each deal: 8 cards to each seat (S5), everyone passes 3
cards to the left at the same time, choosing them one card at a time (S6), then 8 tricks
of must-follow, no-trump play (S7-S9) that stop early at 17 penalty points (S11) or when
the player to act throws down (S12). The deal's loser gets the next letter of the word
(S14-S15) and deals next (S4); the first to spell the whole word loses the match (S16).

Speed matters (simulations drive the engine millions of times), hence:

* A card is an int ``suit * 8 + rank`` (suits L H B A, ranks 7 8 9 X U O K A), so the
  cards of a suit are a contiguous, rank-ordered block of 8 ints, and a hand or a pile
  is a 32-bit mask: following suit is one shift and one ``&``.
* Every action string is built once at import: play and pass lists are concatenations
  of prebuilt per-suit lists, and parsing an action is one dict lookup. Illegal actions
  leave the fast path and get their reason from ``_apply_other``.
* Actions also have fixed ints (``ACTIONS``: 0-31 play a card, 32 throw, 33-64 pass a
  card) for search: ``legal_ids`` and ``apply_id`` skip strings and events entirely.

Passing is three single-card actions ``pass:<card>`` (as OpenSpiel's Hearts passes): a
choice of 3 cards out of 8 is 56 actions at once, three choices of at most 8 keep the
branching small for search and the buttons few. ``apply`` still takes the three-card form
``pass:a,b,c`` (any order) from a seat that has chosen nothing yet, so the move logs of
older matches replay.
* A random deal is one draw from the deal's ``rng_for`` generator, decoded with tables;
  ``deal_draw`` makes that draw without ``random.Random``'s Python layers (the same
  number: a random playout deals every sixteen actions or so).
* The state is a small object with ``__slots__``; ``dump`` turns it into plain JSON
  (cards as ints, hands as 32-bit masks).
"""

from __future__ import annotations

import _random
import random
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, combinations
from math import comb, factorial
from typing import Any, cast

from games.engines.base import (
    JSON,
    Events,
    IllegalAction,
    Result,
    Rules,
    Termination,
    event,
    ranks_from,
)
from games.kinds.smoking_cat.types import DealSummary, SmokingCatView

try:  # the SHA-512 that random.Random.seed hashes a string seed with (no OpenSSL call)
    from _sha2 import sha512  # Python 3.12 and later
except ImportError:  # pragma: no cover - depends on the Python build
    try:
        from _sha512 import sha512  # Python 3.11
    except ImportError:
        from hashlib import sha512

# --- cards (S1, S2) ---------------------------------------------------------------------

SUITS = "LHBA"
RANKS = "789XUOKA"  # S2: low to high; X is the ten
SUIT_NAMES = ("Leaves", "Hearts", "Bells", "Acorns")
CODES = tuple(s + r for s in SUITS for r in RANKS)  # card int -> "LO"
CARD = {code: i for i, code in enumerate(CODES)}  # "LO" -> card int
N_CARDS = 32
BIT = tuple(1 << c for c in range(N_CARDS))
OBER_OF_LEAVES = CARD["LO"]
OBER_BIT = 1 << OBER_OF_LEAVES

# S3: penalty points per card; the last trick is worth LAST_TRICK more.
POINTS = [0] * N_CARDS
POINTS[OBER_OF_LEAVES] = 10
for _rank, _pts in zip(RANKS, (1, 1, 1, 1, 2, 3, 4, 5), strict=True):
    POINTS[CARD["H" + _rank]] = _pts
LAST_TRICK = 5
DEAL_TOTAL = sum(POINTS) + LAST_TRICK  # 33 (I1)
LOSING_POINTS = 17  # S11

N_SEATS = 4
HAND_SIZE = 8
PASS_SIZE = 3
MIN_WORD, MAX_WORD = 3, 12  # S15
DEFAULT_WORD = "GATTO"
OPTION_KEYS = frozenset({"word", "dealer", "decks"})
PHASES = ("pass", "play", "over")
PASS, PLAY, OVER = 0, 1, 2

# --- prebuilt tables ---------------------------------------------------------------------


# SUIT_CODES[suit][m]: the codes of the cards of ``suit`` whose rank bits are m.
SUIT_CODES = tuple(
    tuple(tuple(CODES[s * 8 + r] for r in range(8) if m >> r & 1) for m in range(256))
    for s in range(4)
)
_C0, _C1, _C2, _C3 = SUIT_CODES
# S3: the points in a mask of hearts (8 bits), by table rather than by loop.
HEART_POINTS = tuple(sum(POINTS[8 + r] for r in range(8) if m >> r & 1) for m in range(256))


def mask_codes(mask: int) -> list[str]:
    """The codes of the cards of a mask, in canonical order (suit, then rank)."""
    return [*_C0[mask & 255], *_C1[mask >> 8 & 255], *_C2[mask >> 16 & 255], *_C3[mask >> 24]]


def mask_points(mask: int) -> int:
    """S3: the penalty points of the cards of a mask (without the last trick)."""
    return HEART_POINTS[mask >> 8 & 255] + (10 if mask & OBER_BIT else 0)


THROW = "throw"
PLAY_ACTION = tuple(f"play:{code}" for code in CODES)
PLAY_CARD = {action: card for card, action in enumerate(PLAY_ACTION)}

# SUIT_PLAYS[suit][m]: the play actions for the cards of ``suit`` whose rank bits are m.
SUIT_PLAYS = tuple(
    tuple([PLAY_ACTION[s * 8 + r] for r in range(8) if m >> r & 1] for m in range(256))
    for s in range(4)
)
# The same with "throw" appended (S12): the whole legal list when following suit.
SUIT_PLAYS_THROW = tuple(tuple([*plays, THROW] for plays in table) for table in SUIT_PLAYS)
_P0, _P1, _P2 = SUIT_PLAYS[:3]
_P3T = SUIT_PLAYS_THROW[3]

# S6: the old three-card form, every 3-card subset in canonical order -> its mask (any
# order is accepted through parse_pass); kept so that old move logs replay.
PASS_MASK = {
    "pass:" + ",".join((CODES[a], CODES[b], CODES[c])): BIT[a] | BIT[b] | BIT[c]
    for a, b, c in combinations(range(N_CARDS), PASS_SIZE)
}
# S6: one card at a time.
PASS_CARD_ACTION = tuple(f"pass:{code}" for code in CODES)
PASS_CARD = {action: card for card, action in enumerate(PASS_CARD_ACTION)}
SUIT_PASSES = tuple(
    tuple([PASS_CARD_ACTION[s * 8 + r] for r in range(8) if m >> r & 1] for m in range(256))
    for s in range(4)
)
_Q0, _Q1, _Q2, _Q3 = SUIT_PASSES

# The fixed integer action space (search): play card c is c, throw is 32, pass card c is
# 33 + c. The strings stay the wire format; these ints never leave the process.
THROW_ID = N_CARDS
PASS_ID = N_CARDS + 1
ACTIONS = (*PLAY_ACTION, THROW, *PASS_CARD_ACTION)
ACTION_ID = {action: i for i, action in enumerate(ACTIONS)}
# SUIT_IDS[suit][m]: the card ints of ``suit`` whose rank bits are m (= their play ids).
SUIT_IDS = tuple(
    tuple([s * 8 + r for r in range(8) if m >> r & 1] for m in range(256)) for s in range(4)
)
SUIT_IDS_THROW = tuple(tuple([*ids, THROW_ID] for ids in table) for table in SUIT_IDS)
SUIT_PASS_IDS = tuple(tuple([PASS_ID + c for c in ids] for ids in table) for table in SUIT_IDS)
# PASS_BIT[id]: the card bit of a pass id (the play ids' bits are BIT).
PASS_BIT = (0,) * PASS_ID + BIT
_I0, _I1, _I2, _I3 = SUIT_IDS
_I3T = SUIT_IDS_THROW[3]
_J0, _J1, _J2, _J3 = SUIT_PASS_IDS

# to_act while passing, by the mask of seats that have passed.
PASS_TO_ACT = tuple(tuple(s for s in range(N_SEATS) if not done >> s & 1) for done in range(16))

WORD_HINT = f"The word must be {MIN_WORD} to {MAX_WORD} letters"


def play_list(hand: int) -> list[str]:
    """Every card of ``hand`` as a play action, plus "throw" (leading, or void: S8)."""
    return [
        *_P0[hand & 255],
        *_P1[hand >> 8 & 255],
        *_P2[hand >> 16 & 255],
        *_P3T[hand >> 24],
    ]


def pass_list(hand: int) -> list[str]:
    """S6: every card still in ``hand`` as a single-card pass action."""
    return [*_Q0[hand & 255], *_Q1[hand >> 8 & 255], *_Q2[hand >> 16 & 255], *_Q3[hand >> 24]]


def play_ids(hand: int) -> list[int]:
    """``play_list`` as action ints."""
    return [*_I0[hand & 255], *_I1[hand >> 8 & 255], *_I2[hand >> 16 & 255], *_I3T[hand >> 24]]


def pass_ids(hand: int) -> list[int]:
    """``pass_list`` as action ints."""
    return [*_J0[hand & 255], *_J1[hand >> 8 & 255], *_J2[hand >> 16 & 255], *_J3[hand >> 24]]


# A random deal is drawn as one uniform number in [0, 32! / 8!^4), the count of ordered
# deals, and decoded with tables instead of shuffling 32 cards in Python: the number picks
# the 16 cards of seats 0 and 1 (as k cards among the low 16 and 16 - k among the high 16),
# then which 8 of each 16 go to seats 0 and 2. Every deal comes out exactly once.
N_DEALS = factorial(N_CARDS) // factorial(HAND_SIZE) ** N_SEATS
HALVES = comb(16, 8)  # ways to split 16 cards into two hands
COMB16 = tuple(comb(16, k) for k in range(17))
BY_POPCOUNT = sorted(range(1 << 16), key=int.bit_count)  # 16-bit masks, by popcount
POPCOUNT_START = [sum(comb(16, j) for j in range(k)) for k in range(17)]
TEAM_START = list(accumulate((comb(16, k) * comb(16, 16 - k) for k in range(16)), initial=0))
EIGHT_START = POPCOUNT_START[8]  # where the 16-bit masks of 8 cards start in BY_POPCOUNT
LOW_BITS = tuple((1 << n) - 1 for n in range(9))
POP8 = tuple(m.bit_count() for m in range(256))
# DEPOSIT[m << 8 | bits]: the low bits of ``bits`` moved onto the set bits of the byte m.
# Built from smaller bytes: bit 0 of ``bits`` takes the lowest card of m, the rest recurse.
DEPOSIT = [0] * (1 << 16)
for _m in range(1, 256):
    _low = _m & -_m
    for _bits in range(1 << POP8[_m]):
        _rest = DEPOSIT[(_m ^ _low) << 8 | _bits >> 1]
        DEPOSIT[_m << 8 | _bits] = _rest | _low if _bits & 1 else _rest


# BYTE_LOW[m]: the bits of a pattern that a byte m of the mask takes (LOW_BITS[POP8[m]]).
BYTE_LOW = tuple(LOW_BITS[n] for n in POP8)


def deposit(mask: int, pattern: int) -> int:
    """The cards of ``mask`` picked by the bits of ``pattern`` (the n-th lowest card of the
    mask is taken when bit n of the pattern is set), one byte of the mask at a time."""
    b = mask & 255
    out = DEPOSIT[b << 8 | pattern & BYTE_LOW[b]]
    pattern >>= POP8[b]
    b = mask >> 8 & 255
    out |= DEPOSIT[b << 8 | pattern & BYTE_LOW[b]] << 8
    pattern >>= POP8[b]
    b = mask >> 16 & 255
    out |= DEPOSIT[b << 8 | pattern & BYTE_LOW[b]] << 16
    pattern >>= POP8[b]
    return out | DEPOSIT[(mask >> 24) << 8 | pattern] << 24


def random_deal(rng: random.Random) -> list[int]:
    """S5: four uniformly random hands of 8 (masks, in dealing order) from ``rng``."""
    return decode_deal(rng.randrange(N_DEALS))


# ``deal_draw(seed, n)`` is ``rng_for(seed, "deal", n).randrange(N_DEALS)`` without its
# Python layers (a deal ends every few actions of a random playout, and building the
# generator was a good part of its cost): the same string seed hashed the same way
# (``random.Random.seed``, version 2), put straight into the C generator, and the same
# rejection loop as ``randrange``. tests/engines/test_smoking_cat.py checks it against
# rng_for, so a stored match deals exactly as before.
DEAL_BITS = N_DEALS.bit_length()
# The C generator itself: ``_random.Random(n)`` seeds with the int n as ``seed(n)`` does,
# in one call, and its ``getrandbits`` is the one random.Random inherits.
_CRandom = _random.Random


def deal_draw(seed: int, deal: int) -> int:
    key = f"{seed}:deal:{deal}".encode()
    bits = _CRandom(int.from_bytes(key + sha512(key).digest(), "big")).getrandbits
    draw = bits(DEAL_BITS)
    while draw >= N_DEALS:
        draw = bits(DEAL_BITS)
    return draw


def dealer_draw(seed: int) -> int:
    """S4: ``rng_for(seed, "dealer").randrange(N_SEATS)`` the way ``deal_draw`` draws a
    deal (``randrange(4)`` is ``getrandbits(3)`` until below 4)."""
    key = f"{seed}:dealer".encode()
    bits = _CRandom(int.from_bytes(key + sha512(key).digest(), "big")).getrandbits
    draw = bits(3)
    while draw >= N_SEATS:
        draw = bits(3)
    return draw


def decode_deal(number: int) -> list[int]:
    """The hands (masks, in dealing order) of the deal numbered ``number`` in
    [0, N_DEALS): every deal has exactly one number."""
    rest, first = divmod(number, HALVES)
    team, second = divmod(rest, HALVES)
    low = bisect_right(TEAM_START, team) - 1  # how many of the 16 are low cards
    i, j = divmod(team - TEAM_START[low], COMB16[16 - low])
    pair = BY_POPCOUNT[POPCOUNT_START[low] + i] | BY_POPCOUNT[POPCOUNT_START[16 - low] + j] << 16
    others = pair ^ 0xFFFFFFFF
    hand0 = deposit(pair, BY_POPCOUNT[EIGHT_START + first])
    hand2 = deposit(others, BY_POPCOUNT[EIGHT_START + second])
    return [hand0, pair ^ hand0, hand2, others ^ hand2]


def deal_masks(deck: list[int]) -> list[int]:
    """S5: the four hands as masks, in dealing order (card i to the i mod 4-th seat)."""
    h0 = h1 = h2 = h3 = 0
    for c0, c1, c2, c3 in zip(deck[0::4], deck[1::4], deck[2::4], deck[3::4], strict=True):
        h0 |= BIT[c0]
        h1 |= BIT[c1]
        h2 |= BIT[c2]
        h3 |= BIT[c3]
    return [h0, h1, h2, h3]


def pack_deck(deck: list[int]) -> str:
    """A deck as 32 characters (one per card) to keep stacked decks small in the state."""
    return "".join(chr(48 + c) for c in deck)


def unpack_deck(packed: str) -> list[int]:
    return [ord(ch) - 48 for ch in packed]


# --- state -------------------------------------------------------------------------------


class State:
    """One match. Masks are 32-bit ints over card ints; seats are 0..3 clockwise."""

    __slots__ = (
        "deal",  # 1 for the first deal
        "dealer",
        "decks",  # stacked decks still to deal (packed strings), from the "decks" option
        "hands",  # per seat, a card mask
        "last",  # the last completed trick as [leader, [cards]], or None (S10)
        "leader",  # the seat that led the trick in progress
        "letters",  # per seat, letters of the word received so far (a count)
        "ober",  # the seat that took the Ober of Leaves this deal, or -1
        "passed",  # mask of the seats that have passed all three cards this deal
        "passes",  # per seat, the mask of the cards it chose to pass so far this deal
        "phase",  # PASS, PLAY or OVER
        "points",  # per seat, this deal's penalty points (S13)
        "previous",  # summary of the previous deal (for the table), or None
        "seed",  # the match seed; deal n is shuffled by rng_for(seed, "deal", n)
        "taken",  # per seat, mask of the cards taken this deal
        "trick",  # cards of the trick in progress, in play order from the leader
        "turn",  # the seat to play
        "word",  # S15: the game word
    )
    # The slots' types, for mypy (``__slots__`` gives none).
    deal: int
    dealer: int
    decks: list[str]
    hands: list[int]
    last: list[Any] | None
    leader: int
    letters: list[int]
    ober: int
    passed: int
    passes: list[int]
    phase: int
    points: list[int]
    previous: dict[str, Any] | None
    seed: int
    taken: list[int]
    trick: list[int]
    turn: int
    word: str

    def copy(self) -> State:
        new = State.__new__(State)
        new.seed, new.word, new.decks = self.seed, self.word, self.decks[:]
        new.deal, new.dealer, new.letters = self.deal, self.dealer, self.letters[:]
        new.phase, new.hands, new.passes = self.phase, self.hands[:], self.passes[:]
        new.passed, new.turn, new.leader = self.passed, self.turn, self.leader
        new.trick, new.points, new.taken = self.trick[:], self.points[:], self.taken[:]
        new.ober = self.ober
        new.last = None if self.last is None else [self.last[0], self.last[1][:]]
        new.previous = self.previous  # never mutated, only replaced
        return new


# --- the rules ---------------------------------------------------------------------------


class SmokingCatRules(Rules):
    slug = "smoking_cat"
    name = "Smoking Cat"
    min_players = N_SEATS
    max_players = N_SEATS

    # -- setup ---------------------------------------------------------------------------

    def setup(self, n_players: int, seed: int, options: JSON | None = None) -> State:
        if n_players != N_SEATS:
            self.check_players(n_players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed must be an int, not {seed!r}")
        if options:
            word, dealer, decks = parse_options(options)
        else:  # parse_options({}), without its checks (a playout sets up often)
            word, dealer, decks = DEFAULT_WORD, None, []
        st = State()
        st.seed, st.word, st.decks = seed, word, decks
        if dealer is None:  # S4: the first dealer is chosen at random, as rng_for draws it
            dealer = dealer_draw(seed)
        st.deal, st.dealer, st.letters = 1, dealer, [0] * N_SEATS
        st.previous = None
        self._deal(st)
        return st

    def _deal(self, st: State) -> None:
        """S5: 32 cards clockwise from the dealer's left, 8 each; then passing (S6)."""
        if st.decks:  # a stacked deck: card i goes to seat (dealer + 1 + i) mod 4
            dealt = deal_masks(unpack_deck(st.decks.pop(0)))
        else:  # the same deal as random_deal(rng_for(st.seed, "deal", st.deal))
            dealt = decode_deal(deal_draw(st.seed, st.deal))
        first = (st.dealer + 1) & 3
        # seat s gets dealt[(s - first) mod 4]: the dealing order rotated to the seats
        st.hands = dealt[4 - first :] + dealt[: 4 - first] if first else dealt
        st.phase = PASS
        st.passes = [0, 0, 0, 0]
        st.passed = 0
        st.turn = st.leader = first  # S7 (used once passing is over)
        st.trick = []
        st.points = [0, 0, 0, 0]
        st.taken = [0, 0, 0, 0]
        st.ober = -1
        st.last = None

    def n_players(self, state: State) -> int:
        return N_SEATS

    # -- whose turn, what is legal --------------------------------------------------------

    # The passing branches come first in to_act, legal_ids and apply_id: a random playout
    # throws down early, so three actions in four are passes.
    def to_act(self, state: State) -> list[int]:
        phase = state.phase
        if phase == PASS:  # S6: simultaneous
            return [*PASS_TO_ACT[state.passed]]
        if phase == PLAY:
            return [state.turn]
        return []

    def legal_actions(self, state: State, seat: int) -> list[str]:
        phase = state.phase
        if phase == PLAY:
            if seat != state.turn:
                return []
            hand = state.hands[seat]
            trick = state.trick
            if trick:  # S8: follow the suit led when you can
                lead = trick[0] >> 3
                held = hand >> (lead << 3) & 255
                if held:
                    return SUIT_PLAYS_THROW[lead][held][:]
            return play_list(hand)
        if phase == PASS and seat in PASS_TO_ACT[state.passed]:
            hand = state.hands[seat]  # chosen cards have left the hand (pass_list, inline)
            return [
                *_Q0[hand & 255],
                *_Q1[hand >> 8 & 255],
                *_Q2[hand >> 16 & 255],
                *_Q3[hand >> 24],
            ]
        return []

    # -- the integer action space (search) -------------------------------------------------

    n_actions = len(ACTIONS)

    def action_id(self, action: str) -> int:
        return ACTION_ID[action]

    def action_str(self, action: int) -> str:
        return ACTIONS[action]

    def legal_ids(self, state: State, seat: int) -> list[int]:
        phase = state.phase
        if phase == PASS:
            if seat in PASS_TO_ACT[state.passed]:
                hand = state.hands[seat]  # pass_ids, inline
                return [
                    *_J0[hand & 255],
                    *_J1[hand >> 8 & 255],
                    *_J2[hand >> 16 & 255],
                    *_J3[hand >> 24],
                ]
            return []
        if phase == PLAY:
            if seat != state.turn:
                return []
            hand = state.hands[seat]
            trick = state.trick
            if trick:
                lead = trick[0] >> 3
                held = hand >> (lead << 3) & 255
                if held:
                    return SUIT_IDS_THROW[lead][held][:]
            return [
                *_I0[hand & 255],
                *_I1[hand >> 8 & 255],
                *_I2[hand >> 16 & 255],
                *_I3T[hand >> 24],
            ]
        return []

    def apply_id(self, state: State, seat: int, action: int) -> None:
        """``apply`` for playouts: a legal action id (not checked), no events built."""
        if action > THROW_ID:  # S6: one card set aside to pass (_choose_pass, inline)
            bit = PASS_BIT[action]
            state.hands[seat] ^= bit
            passes = state.passes
            chosen = passes[seat] = passes[seat] | bit
            if chosen.bit_count() == PASS_SIZE:
                passed = state.passed = state.passed | 1 << seat
                if passed == 15:  # S6: play starts once all four have passed
                    h0, h1, h2, h3 = state.hands
                    p0, p1, p2, p3 = passes
                    state.hands = [h0 | p3, h1 | p0, h2 | p1, h3 | p2]
                    state.phase = PLAY
        elif action < N_CARDS:
            state.hands[seat] ^= BIT[action]
            trick = state.trick
            trick.append(action)
            if len(trick) < N_SEATS:
                state.turn = (seat + 1) & 3
            else:
                self._end_trick(state, None)
        else:
            self._throw(state, seat, None)

    # -- the fused random playout (search) ---------------------------------------------------

    fused_playout = True

    def playout(self, state: State, rng: random.Random) -> int:  # noqa: C901
        """Play ``state`` on to the end of the match with uniformly random choices, in
        place, and return how many actions that took: ``Rules.playout``'s loop (a random
        seat among those to act, then a random action among its ``legal_ids``, in their
        order) in one function on local variables, with no method call per action.

        Each choice is ``seq[int(rng.random() * len(seq))]``, and no draw is made for the
        seat when one seat acts. Future deals come from ``rng`` (one ``randrange(N_DEALS)``
        each, decoded as the match's own deals are), never from the match seed: a playout
        is an imagined future, and the real deals are hidden from every seat. Stacked
        decks (the "decks" option) are dealt first, as the rules deal them. The state ends
        as ``apply_id`` would leave it had each deal been that draw, summary included."""
        phase = state.phase
        if phase == OVER:
            return 0
        random_ = rng.random
        bits = rng.getrandbits
        hands, passes, passed = state.hands[:], state.passes[:], state.passed
        trick, turn, leader = state.trick, state.turn, state.leader
        points, taken, ober, last = state.points, state.taken, state.ober, state.last
        letters, dealer, deal, decks = state.letters, state.dealer, state.deal, state.decks
        word_length = len(state.word)
        count = 0
        while True:
            if phase == PASS:  # S6: three cards each, one at a time, seats in random order
                # each seat's cards as a list in legal_ids' order, kept by popping the pass
                held = [
                    [*_I0[h & 255], *_I1[h >> 8 & 255], *_I2[h >> 16 & 255], *_I3[h >> 24]]
                    for h in hands
                ]
                while passed != 15:
                    acting = PASS_TO_ACT[passed]
                    seat = acting[0] if len(acting) == 1 else acting[int(random_() * len(acting))]
                    cards = held[seat]
                    bit = BIT[cards.pop(int(random_() * len(cards)))]
                    hands[seat] ^= bit
                    chosen = passes[seat] = passes[seat] | bit
                    if chosen.bit_count() == PASS_SIZE:
                        passed |= 1 << seat
                    count += 1
                h0, h1, h2, h3 = hands
                p0, p1, p2, p3 = passes
                hands = [h0 | p3, h1 | p0, h2 | p1, h3 | p2]
                phase = PLAY
            thrower = -1
            while True:  # S7-S12: one action of the deal's play
                hand = hands[turn]
                if trick:
                    lead = trick[0] >> 3
                    in_suit = hand >> (lead << 3) & 255
                    if in_suit:  # S8: follow suit (or throw down)
                        ids = SUIT_IDS_THROW[lead][in_suit]
                    else:
                        ids = [*_I0[hand & 255], *_I1[hand >> 8 & 255], *_I2[hand >> 16 & 255]]
                        ids += _I3T[hand >> 24]
                else:
                    ids = [*_I0[hand & 255], *_I1[hand >> 8 & 255], *_I2[hand >> 16 & 255]]
                    ids += _I3T[hand >> 24]
                card = ids[int(random_() * len(ids))]
                count += 1
                if card == THROW_ID:
                    thrower = turn
                    break
                hands[turn] = hand ^ BIT[card]
                trick.append(card)
                if len(trick) < N_SEATS:
                    turn = (turn + 1) & 3
                    continue
                # _end_trick, inline (S9, S3, S11)
                c0, c1, c2, c3 = trick
                suit = c0 >> 3
                best, win = c0, 0
                if c1 > best and c1 >> 3 == suit:
                    best, win = c1, 1
                if c2 > best and c2 >> 3 == suit:
                    best, win = c2, 2
                if c3 > best and c3 >> 3 == suit:
                    best, win = c3, 3
                winner = (leader + win) & 3
                won = BIT[c0] | BIT[c1] | BIT[c2] | BIT[c3]
                taken[winner] |= won
                if won & OBER_BIT:
                    ober = winner
                pts = POINTS[c0] + POINTS[c1] + POINTS[c2] + POINTS[c3]
                last = [leader, trick]
                trick = []
                leader = turn = winner
                if not hands[0]:  # every hand empties on the same trick
                    points[winner] += pts + LAST_TRICK
                    reason = "all_played"
                    break
                total = points[winner] = points[winner] + pts
                if total >= LOSING_POINTS:
                    reason = "reached_17"
                    break
            if thrower >= 0:  # _throw, inline (S12)
                h0, h1, h2, h3 = hands
                rest = h0 | h1 | h2 | h3
                for c in trick:
                    rest |= BIT[c]
                points[thrower] += (
                    HEART_POINTS[rest >> 8 & 255] + (10 if rest & OBER_BIT else 0) + LAST_TRICK
                )
                taken[thrower] |= rest
                if rest & OBER_BIT:
                    ober = thrower
                hands = [0, 0, 0, 0]
                trick = []
                reason = THROW
                losers = [thrower]
            else:  # _end_deal's losers (S14)
                top = max(points)
                losers = [s for s in range(N_SEATS) if points[s] == top]
                if len(losers) > 1 and ober in losers:
                    losers = [ober]
            for s in losers:
                letters[s] += 1  # S15
            if max(letters) >= word_length:  # S16
                break
            # S4: the loser deals (the first tied loser after the dealer); S5: the next deal
            if len(losers) > 1:
                dealer = next(s for k in (1, 2, 3, 4) if (s := (dealer + k) & 3) in losers)
            else:
                dealer = losers[0]
            deal += 1
            if decks:
                dealt = deal_masks(unpack_deck(decks.pop(0)))
            else:  # rng.randrange(N_DEALS), inline
                draw = bits(DEAL_BITS)
                while draw >= N_DEALS:
                    draw = bits(DEAL_BITS)
                dealt = decode_deal(draw)
            first = (dealer + 1) & 3
            hands = dealt[4 - first :] + dealt[: 4 - first] if first else dealt
            passes = [0, 0, 0, 0]
            passed = 0
            turn = leader = first
            points = [0, 0, 0, 0]
            taken = [0, 0, 0, 0]
            ober = -1
            last = None
            phase = PASS
        state.phase = OVER
        state.hands, state.passes, state.passed = hands, passes, passed
        state.trick, state.turn, state.leader = trick, turn, leader
        state.points, state.taken, state.ober, state.last = points, taken, ober, last
        state.dealer, state.deal = dealer, deal
        state.previous = {
            "deal": deal,
            "points": points[:],
            "losers": losers,
            "reason": reason,
            "taken_ober": None if ober < 0 else ober,
        }
        return count

    # -- apply ----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: str) -> list[JSON]:
        # The common cases (a legal card play or pass) run inline; everything else,
        # including every illegal action, goes through _apply_other, which explains the
        # refusal.
        phase = state.phase
        if phase == PASS:
            card = PASS_CARD.get(action)
            if card is not None and seat in PASS_TO_ACT[state.passed]:
                bit = 1 << card
                hands = state.hands
                if hands[seat] & bit:
                    hands[seat] ^= bit
                    passes = state.passes
                    chosen = passes[seat] = passes[seat] | bit
                    ev = {"type": "pass_card", "to": [seat], "seat": seat, "cards": [CODES[card]]}
                    if chosen.bit_count() < PASS_SIZE:
                        return [ev]
                    return self._complete_pass(state, seat, [ev])
        elif phase == PLAY and seat == state.turn:
            card = PLAY_CARD.get(action)
            if card is not None:
                hands = state.hands
                hand = hands[seat]
                bit = 1 << card
                trick = state.trick
                if hand & bit:
                    if trick:
                        lead = trick[0] >> 3
                        if card >> 3 != lead and hand >> (lead << 3) & 255:
                            raise IllegalAction(f"You must follow suit ({SUIT_NAMES[lead]}).")
                    hands[seat] = hand ^ bit
                    trick.append(card)
                    # A literal dict, not event(): this is the hottest path of the engine.
                    ev = {"type": "play", "to": None, "seat": seat, "card": CODES[card]}
                    if len(trick) < N_SEATS:
                        state.turn = (seat + 1) & 3
                        return [ev]
                    return self._end_trick(state, [ev])
        return self._apply_other(state, seat, action)

    # One branch per kind of move outside a trick (S5-S15), as the rules list them.
    def _apply_other(self, st: State, seat: int, action: str) -> list[JSON]:  # noqa: C901
        if st.phase == OVER:
            raise IllegalAction("The match is over.")
        if not isinstance(action, str):
            raise IllegalAction("Unknown action.")
        if st.phase == PASS:
            if seat not in PASS_TO_ACT[st.passed]:
                if seat in range(N_SEATS):
                    raise IllegalAction("You have already passed; wait for the others.")
                raise IllegalAction("It is not your turn.")
            if action.startswith("pass:"):
                hand = st.hands[seat]
                if "," not in action:
                    code = action[5:]
                    if code not in CARD:
                        raise IllegalAction(f"There is no card {code[:8]!r}.")
                    if st.passes[seat] >> CARD[code] & 1:
                        raise IllegalAction(f"You have already chosen {code} to pass.")
                    raise IllegalAction(f"You do not hold {code}.")
                # The three-card form of older move logs: cards in any order (S6 asks only
                # for three), from a seat that has not started choosing one by one.
                mask = parse_pass(action)
                if st.passes[seat]:
                    raise IllegalAction("Choose the rest of your pass one card at a time.")
                if hand & mask != mask:
                    raise IllegalAction(f"You do not hold {', '.join(mask_codes(mask & ~hand))}.")
                return self._choose_pass(st, seat, mask, [])
            if action == THROW:
                raise IllegalAction("You cannot throw down while cards are being passed.")
            if action.startswith("play:"):
                raise IllegalAction("Pass three cards to your left first.")
            raise IllegalAction(f"Unknown action {action[:40]!r}.")
        if seat != st.turn:
            raise IllegalAction("It is not your turn.")
        if action == THROW:
            return self._throw(st, seat, [])
        if action.startswith("play:"):
            code = action[5:]
            if code not in CARD:
                raise IllegalAction(f"There is no card {code[:8]!r}.")
            raise IllegalAction(f"You do not hold {code}.")
        if action.startswith("pass:"):
            raise IllegalAction("Passing is over for this deal.")
        raise IllegalAction(f"Unknown action {action[:40]!r}.")

    def _choose_pass(self, st: State, seat: int, mask: int, events: Events) -> Events:
        """S6: cards (a checked mask) set aside face down for the left neighbour; with the
        third, the seat has passed. (The one-card action runs inline in ``apply`` and
        in ``apply_id``; this serves the three-card form of old logs.)"""
        st.hands[seat] ^= mask
        st.passes[seat] |= mask
        if st.passes[seat].bit_count() < PASS_SIZE:
            return events
        return self._complete_pass(st, seat, events)

    def _complete_pass(self, st: State, seat: int, events: Events) -> Events:
        """S6: the seat's three cards go to its left; they stay in transit until all four
        have passed, and a seat sees what it received only after its own pass."""
        passed = st.passed = st.passed | 1 << seat
        left, right = (seat + 1) & 3, (seat - 1) & 3
        if events is not None:
            events.append({"type": "pass", "to": None, "seat": seat})
            if passed >> right & 1:  # this seat may now see what its right neighbour sent
                cards = mask_codes(st.passes[right])
                events.append({"type": "received", "to": [seat], "seat": seat, "cards": cards})
            if passed >> left & 1:  # the left neighbour passed earlier and now sees these
                cards = mask_codes(st.passes[seat])
                events.append({"type": "received", "to": [left], "seat": left, "cards": cards})
        if passed == 15:  # S6: play starts once all four have passed
            passes = st.passes
            st.hands = [h | passes[(s - 1) & 3] for s, h in enumerate(st.hands)]
            st.phase = PLAY
            if events is not None:
                events.append({"type": "play_start", "to": None, "leader": st.leader})
        return events

    def _end_trick(self, st: State, events: Events) -> Events:
        """S9: the highest card of the suit led takes the trick; S11: the deal ends when
        the cards run out (reason "all_played", even if the last trick also brings
        someone to 17) or when someone reaches 17 points earlier ("reached_17").
        ``events`` None: a playout, nothing is reported."""
        trick = st.trick
        c0, c1, c2, c3 = trick
        lead = c0 >> 3
        best, win = c0, 0
        # Same suit means the same block of 8 ints, so a higher int is a higher rank.
        if c1 > best and c1 >> 3 == lead:
            best, win = c1, 1
        if c2 > best and c2 >> 3 == lead:
            best, win = c2, 2
        if c3 > best and c3 >> 3 == lead:
            best, win = c3, 3
        winner = (st.leader + win) & 3
        pts = POINTS[c0] + POINTS[c1] + POINTS[c2] + POINTS[c3]
        cards = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
        st.taken[winner] |= cards
        if cards & OBER_BIT:
            st.ober = winner
        last_trick = not st.hands[0]  # every hand empties on the same trick
        if last_trick:
            pts += LAST_TRICK  # S3
        total = st.points[winner] + pts
        st.points[winner] = total
        if events is not None:
            events.append(
                {
                    "type": "trick",
                    "to": None,
                    "leader": st.leader,
                    "cards": [CODES[c0], CODES[c1], CODES[c2], CODES[c3]],
                    "winner": winner,
                    "points": pts,
                }
            )
        st.last = [st.leader, trick]
        st.trick = []
        st.leader = st.turn = winner
        if last_trick:
            self._end_deal(st, "all_played", events)
        elif total >= LOSING_POINTS:
            self._end_deal(st, "reached_17", events)
        return events

    def _throw(self, st: State, seat: int, events: Events) -> Events:
        """S12: the thrower takes every card still in a hand and the trick in progress,
        with the last trick's 5 points, and loses the deal whatever the others hold."""
        h0, h1, h2, h3 = st.hands
        rest = h0 | h1 | h2 | h3
        for card in st.trick:
            rest |= 1 << card
        # mask_points(rest), inline
        pts = HEART_POINTS[rest >> 8 & 255] + (10 if rest & OBER_BIT else 0) + LAST_TRICK
        st.points[seat] += pts
        st.taken[seat] |= rest
        if rest & OBER_BIT:
            st.ober = seat
        st.hands = [0] * N_SEATS
        st.trick = []
        # The thrown cards go face down to the thrower's pile: the event does not name them.
        if events is not None:
            events.append({"type": "throw", "to": None, "seat": seat, "points": pts})
        self._end_deal(st, "throw", events, thrower=seat)
        return events

    def _end_deal(
        self, st: State, reason: str, events: list[JSON] | None, thrower: int = -1
    ) -> None:
        """S14-S16: who lost the deal, their letters, then the next deal or the end."""
        points = st.points
        if thrower >= 0:
            losers = [thrower]  # S12 (interpretation): throwing down concedes the deal
        else:
            top = max(points)
            losers = [s for s in range(N_SEATS) if points[s] == top]
            if len(losers) > 1 and st.ober in losers:
                losers = [st.ober]  # S14: among the tied, whoever took the Ober loses
        letters = st.letters
        for s in losers:
            letters[s] += 1  # S15
        ober = None if st.ober < 0 else st.ober
        # points (S13) are forgotten by the rules, but the table shows the last result
        st.previous = {
            "deal": st.deal,
            "points": points[:],
            "losers": losers,
            "reason": reason,
            "taken_ober": ober,
        }
        if events is not None:
            events.append(
                {
                    "type": "deal_end",
                    "to": None,
                    "deal": st.deal,
                    "points": points[:],
                    "losers": losers[:],
                    "reason": reason,
                    "taken_ober": ober,
                    "letters": self.letter_strings(st),
                }
            )
        if max(letters) >= len(st.word):
            st.phase = OVER
            if events is not None:
                self._end_match(st, events)
            return
        dealer = losers[0]  # S4: the loser deals
        if len(losers) > 1:  # S14 (interpretation): the first tied loser after the dealer
            dealer = next(s for k in (1, 2, 3, 4) if (s := (st.dealer + k) & 3) in losers)
        st.deal += 1
        st.dealer = dealer
        self._deal(st)
        if events is not None:
            events.append({"type": "deal", "to": None, "deal": st.deal, "dealer": dealer})

    def _end_match(self, st: State, events: list[JSON]) -> None:
        """S16: whoever spelled the whole word loses the match."""
        st.phase = OVER
        events.append(event("match_end", **self.result(st).to_json()))

    # -- S17: moderation ------------------------------------------------------------------

    def adjust_letters(self, state: State, seat: int, delta: int, reason: str = "") -> list[JSON]:
        """S17: an administrator awards (+1) or removes (-1) a letter, with a reason.
        Awarding the last letter ends the match, as losing a deal would."""
        if state.phase == OVER:
            raise IllegalAction("The match is over; its letters can no longer change.")
        if isinstance(seat, bool) or seat not in range(N_SEATS):
            raise IllegalAction(f"There is no seat {seat!r}.")
        if isinstance(delta, bool) or delta not in (1, -1):
            raise IllegalAction("A letter can only be awarded (+1) or removed (-1).")
        if reason is None:
            reason = ""
        if not isinstance(reason, str):
            raise IllegalAction("The reason must be text.")
        count = state.letters[seat]
        if delta < 0 and count == 0:
            raise IllegalAction("That player has no letter to remove.")
        letter = state.word[count] if delta > 0 else state.word[count - 1]
        state.letters[seat] = count + delta
        events = [
            event(
                "letter_adjusted",
                seat=seat,
                delta=delta,
                letter=letter,
                reason=reason,
                letters=self.letter_strings(state),
            )
        ]
        if state.letters[seat] >= len(state.word):
            self._end_match(state, events)
        return events

    # -- views and results ---------------------------------------------------------------

    def letter_strings(self, st: State) -> list[str]:
        return [st.word[:n] for n in st.letters]

    def view(self, state: State, seat: int | None) -> SmokingCatView:
        st = state
        last = st.last
        trick_leader = st.leader
        view: SmokingCatView = {
            "deal": st.deal,
            "dealer": st.dealer,
            "word": st.word,
            "letters": self.letter_strings(st),
            "points": st.points[:],
            "trick": [[(trick_leader + i) % N_SEATS, CODES[c]] for i, c in enumerate(st.trick)],
            # S10: the last completed trick stays visible until the next one completes
            "last_trick": []
            if last is None
            else [[(last[0] + i) % N_SEATS, CODES[c]] for i, c in enumerate(last[1])],
            "taken_ober": None if st.ober < 0 else st.ober,
            "phase": PHASES[st.phase],
            "to_act": self.to_act(st),
            "turn": st.turn if st.phase == PLAY else None,
            "hand_sizes": [h.bit_count() for h in st.hands],
            "passed": [bool(st.passed >> s & 1) for s in range(N_SEATS)],
            "lead_suit": SUITS[st.trick[0] >> 3] if st.trick else None,
            # The state keeps its summary as JSON, of ``DealSummary``'s keys.
            "previous": cast(DealSummary | None, copy_summary(st.previous)),
        }
        if st.phase == OVER:  # the places as S16 decides them (``Result.places``)
            result = self.result(st)
            view["scores"] = list(result.scores)  # type: ignore[arg-type]  # letters: ints
            view["ranks"] = list(result.ranks)
            view["losers"] = result.details["losers"]
        if seat is not None and seat in range(N_SEATS):
            view["seat"] = seat
            view["hand"] = mask_codes(st.hands[seat])
            # S6: the cards chosen so far in this deal's pass (all three once passed)
            view["passed_cards"] = mask_codes(st.passes[seat])
            right = (seat - 1) % N_SEATS
            # S6: received cards are shown after one's own pass, once they were sent
            sees = st.passed >> seat & 1 and st.passed >> right & 1
            view["received"] = mask_codes(st.passes[right]) if sees else None
        return view

    def outcome(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        letters = state.letters[:]
        n = len(state.word)
        return Result.of(
            letters,
            ranks_from([-count for count in letters]),  # S16: fewer is better; ties share
            self.termination(state),
            losers=[s for s in range(N_SEATS) if letters[s] >= n],
        )

    def termination(self, state: State) -> Termination:
        """Why a match that is over ended: the deal that gave the last letter (S14, S15),
        thrown down by its loser (S12), or a moderator's letter (S17). A match that ends
        with a deal keeps that deal's number and summary; a moderator's letter comes
        during a deal the summary is not about."""
        last = state.previous
        if last is None or last["deal"] != state.deal:
            return Termination.MODERATOR
        return Termination.CONCEDED if last["reason"] == THROW else Termination.NORMAL

    # -- persistence ----------------------------------------------------------------------

    def dump(self, state: State) -> JSON:
        st = state
        return {
            "seed": st.seed,
            "word": st.word,
            "decks": st.decks[:],
            "deal": st.deal,
            "dealer": st.dealer,
            "letters": st.letters[:],
            "phase": st.phase,
            "hands": st.hands[:],
            "passes": st.passes[:],
            "passed": st.passed,
            "turn": st.turn,
            "leader": st.leader,
            "trick": st.trick[:],
            "points": st.points[:],
            "taken": st.taken[:],
            "ober": st.ober,
            "last": None if st.last is None else [st.last[0], st.last[1][:]],
            "previous": copy_summary(st.previous),
        }

    def load(self, data: JSON) -> State:
        st = State()
        for key in State.__slots__:
            value = data[key]
            setattr(st, key, value[:] if isinstance(value, list) else value)
        if st.last is not None:
            st.last = [st.last[0], st.last[1][:]]
        st.previous = copy_summary(st.previous)
        return st

    def clone(self, state: State) -> State:
        return state.copy()

    def sampler(self, view: JSON, history: Sequence[JSON]) -> Callable[[random.Random], State]:
        return sample_states(view, history)


# --- options and parsing -------------------------------------------------------------------


def parse_options(options: JSON) -> tuple[str, int | None, list[str]]:
    """Validate the options: ``word`` (S15), ``dealer`` (S4), ``decks`` (stacked deals)."""
    if not isinstance(options, dict):
        raise ValueError("options must be a dict")
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise ValueError(
            f"unknown Smoking Cat options: {', '.join(sorted(map(str, unknown)))}"
            f" (known: {', '.join(sorted(OPTION_KEYS))})"
        )
    word = options.get("word", DEFAULT_WORD)
    if not isinstance(word, str) or not word.isalpha():
        raise ValueError(f"{WORD_HINT}, not {word!r}")
    if not MIN_WORD <= len(word) <= MAX_WORD:
        raise ValueError(f"{WORD_HINT}; {word!r} has {len(word)}")
    dealer = options.get("dealer")
    if dealer is not None and (
        isinstance(dealer, bool) or not isinstance(dealer, int) or dealer not in range(N_SEATS)
    ):
        raise ValueError(f"the dealer must be a seat from 0 to 3, not {dealer!r}")
    decks = options.get("decks") or []
    if not isinstance(decks, (list, tuple)):
        raise ValueError("decks must be a list of decks (each a list of 32 card codes)")
    packed = []
    for n, deck in enumerate(decks, 1):
        if not isinstance(deck, (list, tuple)) or len(deck) != N_CARDS:
            raise ValueError(f"deck {n} must be a list of the 32 card codes")
        bad = [code for code in deck if not isinstance(code, str) or code not in CARD]
        if bad:
            raise ValueError(f"deck {n} has unknown cards: {bad[:5]}")
        if len(set(deck)) != N_CARDS:
            raise ValueError(f"deck {n} repeats cards; it must hold each of the 32 once")
        packed.append(pack_deck([CARD[code] for code in deck]))
    return word, dealer, packed


def copy_summary(summary: JSON | None) -> JSON | None:
    """A copy of a deal summary that shares no list with the state."""
    if summary is None:
        return None
    return {key: value[:] if isinstance(value, list) else value for key, value in summary.items()}


def parse_pass(action: str) -> int:
    """The mask of a pass written in any order, or IllegalAction explaining why not."""
    codes = action[5:].split(",")
    if len(codes) != PASS_SIZE:
        raise IllegalAction("Pass exactly three cards, e.g. pass:LO,HA,HK.")
    mask = 0
    for code in codes:
        if code not in CARD:
            raise IllegalAction(f"There is no card {code[:8]!r}.")
        mask |= 1 << CARD[code]
    if mask.bit_count() != PASS_SIZE:
        raise IllegalAction("Pass three different cards.")
    return mask


RULES = SmokingCatRules()


# --- Determinization ------------------------------------------------------------
# Smoking Cat determinization: full states consistent with what one seat has seen.
#
# What a seat knows in a deal: its hand, the cards it chose to pass (they sit in its left
# neighbour's hand until played), the cards it received, every card played so far (the
# seat saw each ``play`` event even though S10 keeps only the last trick on the table: a
# player may remember), and the suits each seat showed void in by not following. The other
# cards are dealt at random among the other seats by their hand sizes, voids respected;
# while passing, each other seat's chosen cards are a random part of its eight. Future
# deals come from a fresh seed, since the seat cannot know them.
ALL = (1 << 32) - 1
RETRIES = 50


def mask_of(codes: Iterable[str] | None) -> int:
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


def this_deal(history: Sequence[JSON]) -> list[JSON]:
    """The events of the deal in progress (a ``deal`` event starts each later deal)."""
    start = 0
    for i, ev in enumerate(history):
        if ev.get("type") == "deal":
            start = i + 1
    return list(history[start:])


def read_deal(events: list[JSON]) -> tuple[int, list[int], list[int]]:
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


def sample_states(view: JSON, history: Sequence[JSON]) -> Callable[[random.Random], State]:
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


def mask_of_ints(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
