"""A heuristic Smoking Cat player: keep your penalty points low, like a Hearts player.

It sees only its seat's view and legal actions (no card counting beyond the trick on the
table: S10 forbids looking back). Passing sheds the Ober of Leaves, the high hearts, the
cards that could be forced to capture the Ober, and the high cards of short suits. In
play it ducks under the winning card when it can, dumps the Ober and high hearts when it
cannot follow, and throws down only when the deal is lost whatever happens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.computers.levels import levels
from games.computers.search import SearchStrategy
from games.engines.base import JSON, Rules, ranks_from, utilities
from games.kinds.smoking_cat.engine import (
    CARD,
    DEAL_TOTAL,
    N_CARDS,
    OVER,
    PASS_ID,
    POINTS,
    RANKS,
    RULES,
    THROW,
    THROW_ID,
    State,
)

OBER = "LO"


def suit(code: str) -> str:
    return code[0]


def rank(code: str) -> int:
    return RANKS.index(code[1])


def points(code: str) -> int:
    return POINTS[CARD[code]]


def pass_danger(code: str, hand: list[str]) -> float:
    """How much a card in hand is worth passing on (higher: pass it first)."""
    s, r = suit(code), rank(code)
    length = sum(1 for c in hand if suit(c) == s)
    if code == OBER:
        return 100.0
    if s == "H":
        return 20.0 + 8 * r  # HA 76 ... H7 20: high hearts win tricks full of points
    danger = 3.0 * r
    if s == "L" and r > rank(OBER):
        danger += 30  # the Leaves King and Ace can be made to capture the Ober
    if length <= 2:
        danger += 10  # shedding a short suit makes a void to discard into
    return danger


def winning_rank(trick: list[list[Any]]) -> int:
    """The rank of the card now winning the trick (S9)."""
    lead = suit(trick[0][1])
    return max(rank(code) for _, code in trick if suit(code) == lead)


def hopeless(view: JSON) -> bool:
    """True when nobody can catch up with this seat's points in this deal: it loses the
    deal whatever happens, so throwing down (S12) costs nothing."""
    pts = view["points"]
    me = view["seat"]
    remaining = DEAL_TOTAL - sum(pts)
    best_other = max(p for s, p in enumerate(pts) if s != me)
    return bool(pts[me] > best_other + remaining)


class SmokingCatHeuristic:
    needs_history = False

    def choose(
        self, view: JSON, legal: list[str], rng: random.Random, history: Sequence[JSON] = ()
    ) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        if legal[0].startswith("pass:"):
            return self.choose_pass(view, legal)
        if THROW in legal and hopeless(view):
            return THROW
        plays = [a[5:] for a in legal if a.startswith("play:")]
        if not plays:
            return legal[0]
        trick = view["trick"]
        if not trick:
            card = self.lead(plays, view["hand"])
        elif suit(plays[0]) == suit(trick[0][1]):
            card = self.follow(plays, trick)
        else:
            card = self.discard(plays, view["hand"])
        return "play:" + card

    def choose_pass(self, view: JSON, legal: list[str]) -> str:
        """S6: the three most dangerous cards of the dealt hand, one per call: the cards
        already chosen count as part of the hand, so the three calls agree."""
        chosen = view.get("passed_cards") or []
        hand = [*view["hand"], *chosen]
        worst = sorted(hand, key=lambda c: pass_danger(c, hand), reverse=True)[:3]
        for code in sorted(worst, key=CARD.__getitem__):
            if code not in chosen and f"pass:{code}" in legal:
                return f"pass:{code}"
        return legal[0]

    def lead(self, plays: list[str], hand: list[str]) -> str:
        """Lead low, in a suit where someone else is likely to win; flush the Ober out
        with low Leaves when this seat holds none of the Leaves that could capture it."""
        safe_leaves = not any(c in hand for c in ("LO", "LK", "LA"))

        def cost(code: str) -> tuple[int, str]:
            bias = 0
            if code == OBER:
                bias = 50
            elif suit(code) == "H":
                bias = 2 + points(code)
            elif suit(code) == "L" and safe_leaves:
                bias = -2
            elif suit(code) == "L" and rank(code) > rank(OBER):
                bias = 6  # might win a Leaves trick with the Ober dumped into it
            return (rank(code) + bias, code)

        return min(plays, key=cost)

    def follow(self, plays: list[str], trick: list[list[Any]]) -> str:
        """Duck: the highest card that still loses the trick. When every card would win,
        the last to play takes it with its highest card (sparing the Ober); earlier
        seats play their lowest and hope to be overtaken."""
        top = winning_rank(trick)
        under = [c for c in plays if rank(c) < top]
        if under:
            return max(under, key=rank)
        if len(trick) == 3:
            return min(plays, key=lambda c: (points(c), -rank(c)))
        return min(plays, key=lambda c: (c == OBER, rank(c)))

    def discard(self, plays: list[str], hand: list[str]) -> str:
        """Void in the suit led: this card cannot win, so shed the most dangerous one."""
        if OBER in plays:
            return OBER
        hearts = [c for c in plays if suit(c) == "H"]
        if hearts:
            return max(hearts, key=rank)
        return max(plays, key=lambda c: pass_danger(c, hand))


# The playout policy works on card ints (suit * 8 + rank) and masks, never on views.
HEART_SUIT = 1
OBER_INT = CARD["LO"]
# How eager a card is to leave the hand when passing or discarding: the Ober, high hearts,
# the Leaves above the Ober, then high cards.
SHED = [r for _s in range(4) for r in range(8)]
for _r in range(8):
    SHED[8 + _r] = 20 + 2 * _r
SHED[OBER_INT] = 50
SHED[OBER_INT + 1] = SHED[OBER_INT + 2] = 18  # LK, LA can be made to capture the Ober
PLAYOUT_NOISE = 0.1  # a share of random moves keeps the playouts varied


def playout_card(state: State, seat: int, ids: list[int], rng: random.Random) -> int:
    """A cheap Hearts-like move for the playouts: shed dangerous cards when passing or
    void, duck under the winning card when following, lead low outside hearts."""
    if rng.random() < PLAYOUT_NOISE:
        return rng.choice(ids)
    if ids[0] >= PASS_ID:  # passing one card at a time
        return max(ids, key=lambda a: SHED[a - PASS_ID])
    trick = state.trick
    if not trick:
        safe = [c for c in ids if c < N_CARDS and c >> 3 != HEART_SUIT and c != OBER_INT]
        pool = safe or [c for c in ids if c < N_CARDS]
        return min(pool, key=lambda c: (c & 7, rng.random()))
    lead = trick[0] >> 3
    cards = [c for c in ids if c < N_CARDS]
    if cards[0] >> 3 == lead:  # following suit (the list holds one suit then)
        top = max(c for c in trick if c >> 3 == lead)
        under = [c for c in cards if c < top]
        if under:
            return max(under)
        if len(trick) == 3:  # the trick is ours anyway: take it with the highest
            above = [c for c in cards if c != OBER_INT]
            return max(above) if above else cards[0]
        return min(cards)
    return max(cards, key=SHED.__getitem__)


def deal_rollout(rules: Rules, state: State, seat: int, rng: random.Random) -> float:
    """The search's playout: everyone plays ``playout_card`` to the end of the deal in
    progress, nobody throwing down, then the seat's utility of the match as it stands
    (fewer letters is better, S16). A deal is the unit that matters: a playout of the
    whole match would mostly measure later deals' luck."""
    deal = state.deal
    to_act, legal_ids, apply_id, choice = rules.to_act, rules.legal_ids, rules.apply_id, rng.choice
    while state.deal == deal and state.phase != OVER:
        acting = to_act(state)
        s = acting[0] if len(acting) == 1 else choice(acting)
        ids = legal_ids(state, s)
        if ids[-1] == THROW_ID and len(ids) > 1:
            ids.pop()
        apply_id(state, s, playout_card(state, s, ids, rng))
    return utilities(ranks_from([-count for count in state.letters]))[seat]


# The hard player's playouts per decision (p50 36 ms, p95 46 ms of one core; see search.py), and
# the heuristic's move kept unless another beats it by one standard error (as Felix's and
# Come Cani e Gatti's searches do). Untrusted, 2000 playouts (0.3 s a decision) won 2 of 7
# against three of 500 (fair 25%), and 500 only 6 of 12 against three heuristic players; 500
# with trust won 58.9% of 60 against those: the search refines the heuristic's plan where
# it overruled it on a hunch, and the ladder's games cost a quarter as much.
ITERATIONS = 500
TRUST = 1.0
HEURISTIC = SmokingCatHeuristic()
SEARCH = SearchStrategy(
    RULES, iterations=ITERATIONS, rollout=deal_rollout, fallback=HEURISTIC, trust=TRUST
)
# A slip never throws down: one random concession decides a deal.
STRATEGIES = levels(HEURISTIC, SEARCH, allowed=lambda action: action != THROW)
