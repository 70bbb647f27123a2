"""Felix: The Cat in the Sack (Friedemann Friese), slug ``felix``.

Rules: the rules specification felix.md (clause IDs F1-F32 appear in the comments below).

A round: every seat places one card face down (simultaneously, F10); the row is then
auctioned (F11-F15). Each pass turns the next card up and pays the passer the lowest
loaded mouse card; the last bidder standing buys the row after the dogs have chased (F16,
F18-F20). Nine rounds, then cats plus mice (F26).

The state is a plain dict of ints, strings and lists (at most two levels deep), so
``dump`` is a cheap copy and the whole game stays well under 1 KB of JSON.

State keys:
    n        number of seats
    round    1..9
    phase    "place" | "auction" | "over"
    first    seat of the first player (marker holder)
    hands    per seat, the cards in hand (canonical order)
    placed   per seat, the card placed face down this round (None: not yet)
    row      the auctioned cards in row order (3 players: the virtual card first)
    shown    how many cards of the row are face up (always a prefix of the row)
    turn     the seat to bid or pass (None outside the auction)
    mice     per seat, mice owned (not counting the stake on the table)
    stakes   per seat, the stake bid this round
    passed   per seat, passed this round
    cards    the mouse cards, [printed number, mice on it], ascending
    bank     mice in the bank
    mice_out mice out of the game (F6, F29)
    piles    per seat, the score pile (cards bought)
    sacks    per seat, how many rows they bought
    virtual  3 players: the virtual pile, top first (F30)
    removed  per colour set, the card removed unseen at set-up (F4, F30); secret
    out      cards that left the game in play (dogs, chased cats, unsold rows); public
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.engines.base import JSON, IllegalAction, Result, Rules, event, ranks_from, rng_for
from games.kinds.felix.types import FelixView

# F1: one colour set. Cats carry their value; rabbit and dogs are not cats.
CATS = {"-8": -8, "-5": -5, "3": 3, "5": 5, "8": 8, "11": 11, "15": 15}
RABBIT, BIG_DOG, SMALL_DOG = "R", "D", "d"
DOGS = (BIG_DOG, SMALL_DOG)
SET = ("-8", "-5", "3", "5", "8", "11", "15", RABBIT, BIG_DOG, SMALL_DOG)
ORDER = {card: i for i, card in enumerate(SET)}

ROUNDS = 9  # F25
TOTAL_MICE = 108  # F3
START_MICE = 15  # F5
BANK = {3: 21, 4: 27, 5: 33}  # F6, F29
MOUSE_CARDS = {3: (3, 6), 4: (2, 4, 6), 5: (2, 3, 4, 6)}  # F7, F28

# Canonical action strings, built once: legal_actions only slices these.
BIDS = tuple(f"bid:{i}" for i in range(TOTAL_MICE + 1))
PLACE = {card: f"place:{card}" for card in SET}
PASS = "pass"  # noqa: S105 - an action, not a password
# The fixed integer action space (search): place a card 0-9 (its index in SET), bid
# k mice 10 + k, pass 119.
ACTIONS = (*(PLACE[card] for card in SET), *BIDS, PASS)
ACTION_ID = {action: i for i, action in enumerate(ACTIONS)}
BID_ID = len(SET)
PASS_ID = len(ACTIONS) - 1

OPTION_KEYS = frozenset({"hands", "first", "virtual"})
# The state's layout (see the module docstring): lists of lists, lists, scalars.
NESTED_KEYS = ("hands", "piles", "cards")
FLAT_KEYS = ("placed", "row", "mice", "stakes", "passed", "sacks", "virtual", "removed", "out")
SCALAR_KEYS = ("n", "round", "phase", "first", "shown", "turn", "bank", "mice_out")
STATE_KEYS = frozenset((*NESTED_KEYS, *FLAT_KEYS, *SCALAR_KEYS))


def cat_points(pile: list[str]) -> int:
    """F26: the cats' values; rabbits score 0 (dogs never reach a pile)."""
    return sum(CATS.get(card, 0) for card in pile)


def chase(row: list[str]) -> tuple[list[str], list[str], list[JSON]]:
    """F18-F20: the dogs act on a face-up row. Returns (kept, gone, events)."""
    dogs = [card for card in row if card in DOGS]
    kept = [card for card in row if card not in DOGS]
    if not dogs:
        return kept, [], []
    if len(dogs) > 1:  # F20: the dogs chase each other and all leave
        return kept, dogs, [event("dogs_fight", dogs=dogs)]
    dog = dogs[0]
    cats = [card for card in kept if card in CATS]
    if not cats:  # F20: a lone dog with no cat to chase leaves alone
        return kept, dogs, [event("dog_chase", dog=dog, cat=None)]
    # F19: the big dog removes the highest-valued cat, the small dog the lowest.
    chased = max(cats, key=CATS.__getitem__) if dog == BIG_DOG else min(cats, key=CATS.__getitem__)
    kept.remove(chased)
    return kept, [dog, chased], [event("dog_chase", dog=dog, cat=chased)]


def _copy(state: JSON) -> JSON:
    """A copy sharing no list with ``state`` (the layout is fixed: see the docstring)."""
    data = dict(state)
    for key in FLAT_KEYS:
        data[key] = list(data[key])
    for key in NESTED_KEYS:
        data[key] = [list(x) for x in data[key]]
    return data


def _check_cards(cards: object, what: str) -> list[str]:
    if not isinstance(cards, list | tuple) or len(cards) != ROUNDS:
        raise ValueError(f"{what} must be a list of {ROUNDS} cards")
    for card in cards:
        if not isinstance(card, str) or card not in ORDER:
            raise ValueError(f"{what}: unknown card {card!r}; cards are {', '.join(SET)}")
    if len(set(cards)) != ROUNDS:
        raise ValueError(f"{what}: a colour set holds each card once")
    return list(cards)


def _missing(kept: list[str]) -> str:
    return next(card for card in SET if card not in kept)


class FelixRules(Rules):
    slug = "felix"
    name = "Felix: The Cat in the Sack"
    min_players = 3
    max_players = 5

    # -- set-up ---------------------------------------------------------------------------

    def setup(self, n_players: int, seed: int, options: JSON | None = None) -> JSON:
        self.check_players(n_players)
        n = n_players
        opts = self._check_options(n, options)
        hands, removed = [], []
        given_hands = opts.get("hands") or [None] * n
        for seat in range(n):
            kept = given_hands[seat]
            if kept is None:
                # F4: one card of the set leaves the game unseen.
                deck = list(SET)
                rng_for(seed, "felix-set", seat).shuffle(deck)
                kept = deck[1:]
            hands.append(sorted(kept, key=ORDER.__getitem__))
            removed.append(_missing(kept))
        virtual: list[str] = []
        if n == 3:  # F30: the virtual player's pile, one card removed unseen
            virtual = opts.get("virtual")  # type: ignore[assignment]  # None is looked at next
            if virtual is None:
                deck = list(SET)
                rng_for(seed, "felix-virtual").shuffle(deck)
                virtual = deck[1:]
            removed.append(_missing(virtual))
        first = opts.get("first")
        if first is None:  # F9
            first = rng_for(seed, "felix-first").randrange(n)
        numbers = MOUSE_CARDS[n]
        return {
            "n": n,
            "round": 1,
            "phase": "place",
            "first": first,
            "hands": hands,
            "placed": [None] * n,
            "row": [],
            "shown": 0,
            "turn": None,
            "mice": [START_MICE] * n,  # F5
            "stakes": [0] * n,
            "passed": [False] * n,
            "cards": [[k, k] for k in numbers],  # F8: loaded from the bank
            "bank": BANK[n] - sum(numbers),
            "mice_out": TOTAL_MICE - START_MICE * n - BANK[n],  # F6, F29
            "piles": [[] for _ in range(n)],
            "sacks": [0] * n,
            "virtual": list(virtual),
            "removed": removed,
            "out": [],
        }

    def _check_options(self, n: int, options: JSON | None) -> JSON:
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise ValueError("options must be a dict")
        unknown = set(options) - OPTION_KEYS
        if unknown:
            raise ValueError(f"unknown felix options: {', '.join(sorted(map(str, unknown)))}")
        opts: JSON = {}
        hands = options.get("hands")
        if hands is not None:
            if not isinstance(hands, list | tuple) or len(hands) != n:
                raise ValueError(f"hands must be a list of {n} hands (one per seat)")
            # A None entry leaves that seat's hand to the seeded shuffle.
            opts["hands"] = [
                None if hand is None else _check_cards(hand, f"hands[{seat}]")
                for seat, hand in enumerate(hands)
            ]
        first = options.get("first")
        if first is not None:
            if type(first) is not int or not 0 <= first < n:
                raise ValueError(f"first must be a seat from 0 to {n - 1}")
            opts["first"] = first
        virtual = options.get("virtual")
        if virtual is not None:
            if n != 3:
                raise ValueError("virtual is only used with 3 players")
            opts["virtual"] = _check_cards(virtual, "virtual")
        return opts

    def n_players(self, state: JSON) -> int:
        return int(state["n"])

    # -- whose turn, what is legal ----------------------------------------------------------

    def to_act(self, state: JSON) -> list[int]:
        phase = state["phase"]
        if phase == "auction":
            return [state["turn"]]
        if phase == "place":  # F10: simultaneous, listed clockwise from the first player
            n, first, placed = state["n"], state["first"], state["placed"]
            return [s for s in ((first + i) % n for i in range(n)) if placed[s] is None]
        return []

    def legal_actions(self, state: JSON, seat: int) -> list[str]:
        phase = state["phase"]
        if phase == "auction":
            if seat != state["turn"]:
                return []
            lo, hi = self._bid_range(state, seat)
            return [*BIDS[lo : hi + 1], PASS]
        if phase == "place" and 0 <= seat < state["n"] and state["placed"][seat] is None:
            return [PLACE[card] for card in state["hands"][seat]]
        return []

    def _bid_range(self, state: JSON, seat: int) -> tuple[int, int]:
        """The lowest and highest total stake ``seat`` may bid now (empty when lo > hi)."""
        stakes = state["stakes"]
        budget = state["mice"][seat] + stakes[seat]  # F13: the stake is theirs too
        if state["passed"].count(False) == 1:
            return 1, min(1, budget)  # F23: the whole row for 1 mouse
        return max(stakes) + 1, budget  # F12: at least 1, above the highest bid

    # -- actions ------------------------------------------------------------------------------

    def apply(self, state: JSON, seat: int, action: str) -> list[JSON]:
        # Validate everything before mutating: an illegal action leaves the state as it was.
        phase = state["phase"]
        if phase == "over":
            raise IllegalAction("The game is over.")
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalAction("There is no such seat in this game.")
        if not isinstance(action, str):
            raise IllegalAction("Unknown action.")
        if phase == "place":
            return self._place(state, seat, action)
        if seat != state["turn"]:
            raise IllegalAction("It is not your turn.")
        if action == PASS:
            return self._pass(state, seat)
        if action.startswith("bid:"):
            return self._bid(state, seat, action[4:])
        if action.startswith("place:"):
            raise IllegalAction("You have already placed your card this round.")
        raise IllegalAction(f"Unknown action {action!r}.")

    def _place(self, state: JSON, seat: int, action: str) -> list[JSON]:
        if state["placed"][seat] is not None:
            raise IllegalAction("You have already placed your card this round.")
        if not action.startswith("place:"):
            if action == PASS or action.startswith("bid:"):
                raise IllegalAction("The auction starts once everyone has placed a card.")
            raise IllegalAction(f"Unknown action {action!r}.")
        card = action[6:]
        hand = state["hands"][seat]
        if card not in hand:
            raise IllegalAction("You do not have that card in your hand.")
        hand.remove(card)
        state["placed"][seat] = card
        # F10: the others learn only that a card was placed.
        events = [
            event("placed", seat=seat),
            event("you_placed", to=[seat], seat=seat, card=card),
        ]
        if None not in state["placed"]:
            events += self._start_auction(state)
        return events

    def _start_auction(self, state: JSON) -> list[JSON]:
        n, first = state["n"], state["first"]
        # F10: the row in seat order from the first player; F30: the virtual card first.
        row = [state["placed"][(first + i) % n] for i in range(n)]
        if n == 3:
            row.insert(0, state["virtual"].pop(0))
        state["row"] = row
        state["placed"] = [None] * n
        state["shown"] = 0
        state["phase"] = "auction"
        state["turn"] = first  # F12
        # F11 / F31: the first card of the row is turned up (3 players: the virtual one).
        return [event("auction_start", round=state["round"], first=first), *self._turn_up(state, 1)]

    def _turn_up(self, state: JSON, upto: int) -> list[JSON]:
        row, events = state["row"], []
        for pos in range(state["shown"], upto):
            events.append(
                event("card_turned", position=pos, seat=self._row_seat(state, pos), card=row[pos])
            )
        state["shown"] = max(state["shown"], upto)
        return events

    def _row_seat(self, state: JSON, pos: int) -> int | None:
        """The seat that placed the card at ``pos`` (None: the virtual player)."""
        n = state["n"]
        if n == 3:
            if pos == 0:
                return None
            pos -= 1
        return (state["first"] + pos) % n  # type: ignore[no-any-return]  # ints from JSON

    def _bid(self, state: JSON, seat: int, text: str) -> list[JSON]:
        if not (text.isascii() and text.isdigit()) or str(int(text)) != text:
            raise IllegalAction("A bid is a whole number of mice, e.g. bid:5.")
        amount = int(text)
        stakes = state["stakes"]
        budget = state["mice"][seat] + stakes[seat]
        last = state["passed"].count(False) == 1
        if last and amount != 1:
            raise IllegalAction("Everyone else passed: you may buy the row for 1 mouse, or pass.")
        if amount < 1:
            raise IllegalAction("A bid must be at least 1 mouse.")  # F12
        highest = max(stakes)
        if amount <= highest:
            raise IllegalAction(f"Your bid must be higher than {highest}.")
        if amount > budget:
            raise IllegalAction(f"You cannot bid more mice than you have ({budget}).")  # F13
        # F13: a bid is the new total stake; only the difference leaves the player's mice.
        state["mice"][seat] -= amount - stakes[seat]
        stakes[seat] = amount
        events = [event("bid", seat=seat, amount=amount)]
        if last:  # F23: bought for 1 mouse
            return events + self._sell(state, seat)
        state["turn"] = self._next_active(state, seat)
        return events

    def _pass(self, state: JSON, seat: int) -> list[JSON]:
        mice, stakes, passed = state["mice"], state["stakes"], state["passed"]
        # F14: the stake comes back, plus the lowest mouse card that still holds mice.
        returned = stakes[seat]
        stakes[seat] = 0
        took, from_card = 0, None
        for card in state["cards"]:
            if card[1]:
                took, from_card = card[1], card[0]
                card[1] = 0
                break
        mice[seat] += returned + took
        passed[seat] = True
        events = [event("pass", seat=seat, returned=returned, took=took, mouse_card=from_card)]
        active = [s for s in range(state["n"]) if not passed[s]]
        if not active:  # F24: the last player declined the row too
            return events + self._discard(state)
        if len(active) > 1:
            # F15 / F32: each pass turns the next face-down card.
            events += self._turn_up(state, state["shown"] + 1)
            state["turn"] = self._next_active(state, seat)
            return events
        # One player left: all cards are up now (F16; F23 and F32 turn the rest).
        events += self._turn_up(state, len(state["row"]))
        last = active[0]
        if stakes[last]:  # the highest bidder is always the one still in
            return events + self._sell(state, last)
        # F23: nobody bid; the last player may take the whole row for 1 mouse.
        state["turn"] = last
        return [*events, event("last_offer", seat=last, price=1)]

    def _next_active(self, state: JSON, seat: int) -> int:
        n: int = state["n"]
        passed = state["passed"]
        for i in range(1, n):
            nxt = (seat + i) % n
            if not passed[nxt]:
                return nxt
        return seat

    def _sell(self, state: JSON, winner: int) -> list[JSON]:
        """F16: the winner pays the bank and takes the row (after the dogs) and the marker."""
        price = state["stakes"][winner]
        state["stakes"][winner] = 0
        state["bank"] += price
        kept, gone, events = chase(state["row"])
        state["out"] += gone
        state["piles"][winner] += kept
        state["sacks"][winner] += 1
        state["first"] = winner
        events.append(event("sack_bought", seat=winner, price=price, cards=kept))
        return events + self._end_round(state, refill=True)

    def _discard(self, state: JSON) -> list[JSON]:
        """F24: nobody takes the row; it leaves the game, the first player stays."""
        row = state["row"]
        state["out"] += row
        events = [event("sack_discarded", cards=list(row))]
        # F24: no refill, so the next round is played with empty mouse cards.
        return events + self._end_round(state, refill=False)

    def _end_round(self, state: JSON, refill: bool) -> list[JSON]:
        n = state["n"]
        state["row"] = []
        state["shown"] = 0
        state["turn"] = None
        state["passed"] = [False] * n
        if state["round"] == ROUNDS:  # F25: the ninth round ends the game
            state["phase"] = "over"
            result = self.result(state).to_json()
            return [event("game_over", **result)]
        events = self._refill(state) if refill else []
        state["round"] += 1
        state["phase"] = "place"
        return [*events, event("round_start", round=state["round"], first=state["first"])]

    def _refill(self, state: JSON) -> list[JSON]:
        # F21: top each card up to its number; F22: all or nothing.
        cards = state["cards"]
        need = sum(number - on for number, on in cards)
        if not need:
            return []
        if need > state["bank"]:
            return [event("bank_short", bank=state["bank"], need=need)]
        state["bank"] -= need
        for card in cards:
            card[1] = card[0]
        return [event("mouse_cards_refilled", paid=need, bank=state["bank"])]

    # -- what players see -----------------------------------------------------------------------

    def view(self, state: JSON, seat: int | None) -> FelixView:
        n, phase, row, shown = state["n"], state["phase"], state["row"], state["shown"]
        stakes = state["stakes"]
        highest = max(stakes)
        cards = state["cards"]
        view: FelixView = {
            "game": self.slug,
            "n_players": n,
            "round": state["round"],
            "rounds": ROUNDS,
            "phase": phase,
            "over": phase == "over",
            "first": state["first"],
            "to_act": self.to_act(state),
            "turn": state["turn"],
            # Face-down cards are None: nobody but their owner knows them.
            "row": row[:shown] + [None] * (len(row) - shown),
            "row_seats": [self._row_seat(state, pos) for pos in range(len(row))],
            "placed": [card is not None for card in state["placed"]],
            "stakes": list(stakes),
            "highest_bid": highest,
            "highest_bidder": stakes.index(highest) if highest else None,
            "passed": list(state["passed"]),
            "last_offer": phase == "auction" and state["passed"].count(False) == 1,
            "mouse_cards": [list(card) for card in cards],
            "pass_gain": next((on for _, on in cards if on), 0),
            "bank": state["bank"],
            "mice_out": state["mice_out"],
            "hand_counts": [len(hand) for hand in state["hands"]],
            "sacks": list(state["sacks"]),
            "virtual_left": len(state["virtual"]),
            "discarded": list(state["out"]),
        }
        if phase == "over":
            # The places (``Result.places``: scores, ranks, then F27's cat points).
            result = self.result(state)
            view["scores"] = list(result.scores)  # type: ignore[arg-type]  # F26: ints
            view["ranks"] = list(result.ranks)
            view["cat_points"] = result.details["cat_points"]
        if seat is not None:
            view["seat"] = seat
            view["hand"] = list(state["hands"][seat])
            view["mice"] = state["mice"][seat]
            view["score_pile"] = list(state["piles"][seat])
            view["missing"] = state["removed"][seat]  # F4: a player knows their own
            view["my_card"] = self._my_card(state, seat)
        return view

    def _my_card(self, state: JSON, seat: int) -> str | None:
        """The card ``seat`` placed this round, face up or not (they know it)."""
        card: str | None  # the state is JSON: its reads are not typed
        if state["phase"] == "place":
            card = state["placed"][seat]
            return card
        if state["phase"] == "auction":
            n = state["n"]
            pos = (seat - state["first"]) % n + (1 if n == 3 else 0)
            card = state["row"][pos]
            return card
        return None

    def outcome(self, state: JSON) -> Result | None:
        if state["phase"] != "over":
            return None
        cats = [cat_points(pile) for pile in state["piles"]]
        scores = [c + m for c, m in zip(cats, state["mice"], strict=True)]  # F26
        # F27: the higher score wins; a tie goes to the larger cat sum; then shared.
        ranks = ranks_from(list(zip(scores, cats, strict=True)))
        return Result.of(scores, ranks, cat_points=cats)  # F25: nine rounds, no other end

    # -- persistence ----------------------------------------------------------------------------

    def dump(self, state: JSON) -> JSON:
        return _copy(state)

    def load(self, data: JSON) -> JSON:
        if not isinstance(data, dict) or set(data) != STATE_KEYS:
            raise ValueError("not a felix state")
        return _copy(data)

    def clone(self, state: JSON) -> JSON:
        return _copy(state)

    # -- for search -------------------------------------------------------------------------

    n_actions = len(ACTIONS)

    def action_id(self, action: str) -> int:
        return ACTION_ID[action]

    def action_str(self, action: int) -> str:
        return ACTIONS[action]

    def legal_ids(self, state: JSON, seat: int) -> list[int]:
        phase = state["phase"]
        if phase == "auction":
            if seat != state["turn"]:
                return []
            lo, hi = self._bid_range(state, seat)
            return [*range(BID_ID + lo, BID_ID + hi + 1), PASS_ID]
        if phase == "place" and 0 <= seat < state["n"] and state["placed"][seat] is None:
            return [ORDER[card] for card in state["hands"][seat]]
        return []

    def sampler(self, view: JSON, history: Sequence[JSON]) -> Callable[[random.Random], JSON]:
        return sample_states(view, history)


RULES = FelixRules()


# --- Determinization ------------------------------------------------------------
# Felix determinization: full states consistent with what one seat has seen.
#
# Everything a Felix seat has not seen can be narrowed down from the public events: each
# card of a row is turned up before the row leaves the table (F16, F23, F24), so the cards
# another seat has played are known, and the rest of its colour set is its hand, its
# face-down card and the card removed at set-up (F4), in an unknown split. The others'
# mice are secret (F17) but every change is public (bids, passes, purchases), so they are
# counted from the history; score piles are the rows bought, public when taken. The
# virtual player's pile (F30) is its set minus the cards turned up, one of them removed.
VIRTUAL = -1  # the virtual player's key among the seats


def read_history(
    n: int, history: Sequence[JSON]
) -> tuple[dict[int, set[str]], list[int], list[list[str]]]:
    """Cards turned up per seat (VIRTUAL: the virtual pile), mice and score piles."""
    revealed: dict[int, set[str]] = {s: set() for s in (*range(n), VIRTUAL)}
    mice = [START_MICE] * n
    stakes = [0] * n
    piles: list[list[str]] = [[] for _ in range(n)]
    for ev in history:
        kind = ev.get("type")
        if kind == "card_turned":
            seat = ev["seat"]
            revealed[VIRTUAL if seat is None else seat].add(ev["card"])
        elif kind == "bid":  # F13: a bid is the new total stake
            seat = ev["seat"]
            mice[seat] -= ev["amount"] - stakes[seat]
            stakes[seat] = ev["amount"]
        elif kind == "pass":  # F14: the stake comes back with the mouse card's mice
            seat = ev["seat"]
            mice[seat] += ev["returned"] + ev["took"]
            stakes[seat] = 0
        elif kind == "sack_bought":
            piles[ev["seat"]].extend(ev["cards"])
            stakes = [0] * n
        elif kind == "sack_discarded":
            stakes = [0] * n
    return revealed, mice, piles


def sample_states(view: JSON, history: Sequence[JSON]) -> Callable[[random.Random], JSON]:
    me = view["seat"]
    n = view["n_players"]
    phase = view["phase"]
    if phase == "over":
        raise ValueError("the game is over: nothing to sample")
    revealed, mice, piles = read_history(n, history)
    mice[me] = view["mice"]
    piles[me] = list(view["score_pile"])
    row_view = view["row"]
    row_seats = view["row_seats"]
    hidden_pos = {
        seat: pos
        for pos, (card, seat) in enumerate(zip(row_view, row_seats, strict=True))
        if card is None
    }
    # What each other seat holds unseen: its hand, maybe a face-down card, and the removed.
    unknown: dict[int, list[str]] = {}
    face_down: dict[int, bool] = {}
    for s in range(n):
        if s == me:
            continue
        down = view["placed"][s] if phase == "place" else s in hidden_pos
        cards = sorted((c for c in SET if c not in revealed[s]), key=ORDER.__getitem__)
        if len(cards) != view["hand_counts"][s] + down + 1:
            raise ValueError("the history does not account for every card of the game")
        unknown[s], face_down[s] = cards, down
    virtual_unknown = []
    if n == 3:
        virtual_unknown = [c for c in SET if c not in revealed[VIRTUAL]]
        if len(virtual_unknown) != view["virtual_left"] + 1:
            raise ValueError("the history does not account for the virtual pile")
    my_card = view["my_card"]

    def sample(rng: random.Random) -> JSON:
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[me] = list(view["hand"])
        placed: list[str | None] = [None] * n
        row = list(row_view)
        removed: list[str] = [""] * n
        removed[me] = view["missing"]
        if phase == "place" and view["placed"][me]:
            placed[me] = my_card
        if me in hidden_pos:
            row[hidden_pos[me]] = my_card
        for s, cards in unknown.items():
            cards = cards[:]
            rng.shuffle(cards)
            removed[s] = cards.pop()
            if face_down[s]:
                card = cards.pop()
                if phase == "place":
                    placed[s] = card
                else:
                    row[hidden_pos[s]] = card
            hands[s] = sorted(cards, key=ORDER.__getitem__)
        virtual: list[str] = []
        if n == 3:
            pile = virtual_unknown[:]
            rng.shuffle(pile)
            removed.append(pile.pop())
            virtual = pile
        return {
            "n": n,
            "round": view["round"],
            "phase": phase,
            "first": view["first"],
            "hands": hands,
            "placed": placed,
            "row": row,
            "shown": sum(card is not None for card in row_view),
            "turn": view["turn"],
            "mice": mice[:],
            "stakes": list(view["stakes"]),
            "passed": list(view["passed"]),
            "cards": [list(card) for card in view["mouse_cards"]],
            "bank": view["bank"],
            "mice_out": view["mice_out"],
            "piles": [list(p) for p in piles],
            "sacks": list(view["sacks"]),
            "virtual": virtual,
            "removed": removed,
            "out": list(view["discarded"]),
        }

    return sample
