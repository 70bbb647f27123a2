"""Bon Appétit! (Haim Shafir, AMIGO 2004): cats catch mice on a common pile.

Rules: the rules specification bon-appetit.md; comments name its clauses (B1…B15).

There are no decisions (B15): the only action is ``"flip"``, by the one seat that must
turn up a card now: the player whose turn it is, or the chaser during a chase (B9).
Everything on the table is public except the order of the face-down piles, which nobody
knows, not even their owners (B4); views therefore show only how many cards each pile
holds, and every event goes to everyone.

State (``BonAppetitState``): each pile is a string of one-character card codes, top card
first; the common pile is a string, bottom card first and top card last. A chase is
``flips_left > 0``: ``seat`` is then the chaser and ``owner`` the seat whose mouse is
being chased (None for a mouse that started the game, B12).

Every game ends (I2) even on a hand-stacked table that cycles: B13a ends it when a
position repeats, and ``MAX_FLIPS`` bounds its length outright (see ``_after_flip``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from games.engines.base import (
    JSON,
    Result,
    Rules,
    Termination,
    event,
    ranks_from,
    rng_for,
)
from games.kinds.bon_appetit.types import BonAppetitView, Chase, parse_action

# --- The table: every interpretation of the components lives here ----------------------
# One character per card in the state; the long names are the public ones.
CARD_NAMES = {"C": "cheese", "K": "cat", "1": "mouse1", "2": "mouse2", "3": "mouse3"}
CARD_CODES = {name: code for code, name in CARD_NAMES.items()}
PAWS = {"1": 1, "2": 2, "3": 3}  # B2: a mouse card's paw prints = its chase's flips
CAT = "K"

DECKS = {
    # B1 + B2 (interpretation: 6 mice each with 1, 2 and 3 paws).
    "full": {"cheese": 58, "cat": 14, "mouse1": 6, "mouse2": 6, "mouse3": 6},
    # B3 (interpretation: the red backs are half of each kind).
    "red": {"cheese": 29, "cat": 7, "mouse1": 3, "mouse2": 3, "mouse3": 3},
}
DEFAULT_DECK = {2: "red", 3: "red", 4: "full", 5: "full", 6: "full"}  # B3
TOKENS = {2: 5, 3: 5, 4: 9, 5: 9, 6: 9}  # B1, B3: mouse-face tokens in play
MAX_STACKED_CARDS = 90  # a stacked table holds at most a box of cards (keeps dumps small)
# A hard bound on a game's length, over five times the longest shuffled game seen (B13a
# cites 380 flips): B13a already ends every cycle, but the number of positions a stacked
# table could run through before one repeats has no practical bound, and each flip may be
# an automatic one. Reaching it ends the game the way B13a does.
MAX_FLIPS = 2000
# ----------------------------------------------------------------------------------------

FLIP = "flip"
OPTIONS = ("piles", "center", "first", "deck")
STACKED = "stacked"  # the deck name of a table laid out with the "piles" option


# B13a's position (``position``): the piles, the common pile, the tokens, the seat to turn
# up, the flips left in a chase and its owner.
Position = tuple[Any, ...]


@dataclass(slots=True)
class BonAppetitState:
    n: int
    deck: str  # "full", "red", or "stacked" (laid out with the "piles" option)
    piles: list[str]  # one card code per character, top card first
    common: str  # bottom card first, top card last
    tokens: list[int]
    tokens_total: int
    seat: int  # who must flip now; once over, who was to flip
    flips_left: int = 0  # > 0 during a chase; ``seat`` is then the chaser
    owner: int | None = None  # whose mouse is chased (None: the starting card, B12)
    # None while running, then "tokens" or "no_cards" (B13), or the termination that
    # stopped the game: ``Termination.REPEATED_POSITION`` (B13a, stored "repeat") or
    # ``Termination.MOVE_LIMIT`` (MAX_FLIPS, stored "flip_limit").
    end: str | None = None
    flips: int = 0  # flips so far in the game
    # B13a: the position that opened the current stretch (the deal, or the last token
    # handed out) and the flips since. Positions with other tokens can never come back
    # (tokens only grow), and those in between follow from ``start`` (there are no
    # decisions), so this is all a dump needs to find a repeat.
    start: Position | None = None  # set by every deal
    since: int = 0
    # The positions of the stretch so far: a cache, never dumped; rebuilt from ``start``
    # when missing (after ``load``).
    seen: set[Position] | None = field(default=None, repr=False, compare=False)

    @property
    def tokens_left(self) -> int:
        return self.tokens_total - sum(self.tokens)


def position(state: BonAppetitState) -> Position:
    """B13a's position: every pile in order, the common pile, the tokens, the player to
    turn up and the chase in progress (the chaser is that player)."""
    return (
        tuple(state.piles),
        state.common,
        tuple(state.tokens),
        state.seat,
        state.flips_left,
        state.owner,
    )


def deck_cards(deck: str) -> list[str]:
    """The codes of a deck in use, in a fixed order (the shuffle comes later)."""
    return [CARD_CODES[name] for name, count in DECKS[deck].items() for _ in range(count)]


class BonAppetitRules(Rules):
    slug = "bon_appetit"
    name = "Bon Appétit!"
    min_players = 2
    max_players = 6

    # --- set-up ------------------------------------------------------------------------
    def setup(self, n_players: int, seed: int, options: JSON | None = None) -> BonAppetitState:
        self.check_players(n_players)
        n = n_players
        opts = dict(options or {})
        unknown = sorted(set(opts) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown options {unknown}; known: {', '.join(OPTIONS)}")

        first = opts.get("first")
        if first is None:
            first = rng_for(seed, "first").randrange(n)  # B5: a random "youngest player"
        elif type(first) is not int or not 0 <= first < n:
            raise ValueError(f"'first' must be a seat from 0 to {n - 1}, not {first!r}")

        deck = opts.get("deck", DEFAULT_DECK[n])
        if deck not in DECKS:
            raise ValueError(f"'deck' must be one of {', '.join(DECKS)}, not {deck!r}")
        center = opts.get("center")
        if center is not None:
            center = self._code(center, "'center'")

        if "piles" in opts:
            piles = self._stacked_piles(opts["piles"], n)
            if center is None:
                raise ValueError("a stacked table ('piles') needs its 'center' card too")
            if "deck" in opts:  # the stacked cards must then be exactly that deck
                if Counter("".join(piles) + center) != Counter(deck_cards(deck)):
                    raise ValueError(f"'piles' and 'center' are not the {deck!r} deck")
            else:
                deck = STACKED
        else:
            cards = deck_cards(deck)
            if center is not None:
                cards.remove(center)  # every deck holds every kind of card
            rng_for(seed, "deal").shuffle(cards)
            if center is None:
                center = cards.pop()  # B4: the last card goes face up in the middle
            # B4: dealt one at a time from the first player on, so piles differ by one
            # card at most.
            piles = ["".join(cards[(i - first) % n :: n]) for i in range(n)]

        state = BonAppetitState(n, deck, piles, center, [0] * n, TOKENS[n], first)
        if center in PAWS:
            # B12: a mouse in the middle at the start is chased by the starting player;
            # nobody owns it.
            state.flips_left = PAWS[center]
        self._check_cards(state, [])
        self._new_stretch(state)
        return state

    def _code(self, name: Any, what: str) -> str:
        if name not in CARD_CODES:
            raise ValueError(f"{what}: unknown card {name!r}; cards: {', '.join(CARD_CODES)}")
        return CARD_CODES[name]

    def _stacked_piles(self, piles: Any, n: int) -> list[str]:
        if not isinstance(piles, list | tuple) or len(piles) != n:
            raise ValueError(f"'piles' must be a list of {n} piles, one per seat")
        codes = []
        for seat, pile in enumerate(piles):
            if not isinstance(pile, list | tuple):
                raise ValueError(f"'piles'[{seat}] must be a list of cards, top card first")
            codes.append("".join(self._code(card, f"'piles'[{seat}]") for card in pile))
        if sum(map(len, codes)) + 1 > MAX_STACKED_CARDS:
            raise ValueError(f"a stacked table holds at most {MAX_STACKED_CARDS} cards")
        return codes

    # --- turns -------------------------------------------------------------------------
    def n_players(self, state: BonAppetitState) -> int:
        return state.n

    def to_act(self, state: BonAppetitState) -> list[int]:
        return [] if state.end else [state.seat]

    def legal_actions(self, state: BonAppetitState, seat: int) -> list[str]:
        return [FLIP] if state.end is None and seat == state.seat else []

    def apply(self, state: BonAppetitState, seat: int, action: str) -> list[JSON]:
        if state.end is not None or seat != state.seat:
            self.require_turn(state, seat)  # raises, with the reason
        parse_action(action)  # the only move is to flip: anything else raises
        events = self._flip(state, seat)
        self._after_flip(state, events)
        return events

    def _flip(self, state: BonAppetitState, seat: int) -> list[JSON]:
        """One flip by ``seat`` under B6–B13, nothing else (B13a rebuilds with it)."""
        # B6: the top card of the pile goes face up on top of the common pile.
        pile = state.piles[seat]
        card, state.piles[seat] = pile[0], pile[1:]
        state.common += card
        events = [event("flip", seat=seat, card=CARD_NAMES[card], left=len(pile) - 1)]
        if state.flips_left:
            self._chase_flip(state, seat, card, events)
        elif card in PAWS:
            self._start_chase(state, seat, card, events, "chase_start")  # B9
        else:
            # B7 cheese, B8 cat on cheese or cat: nothing happens. (A cat never lands on a
            # mouse in a normal turn: a mouse on top always starts a chase.)
            state.seat = (seat + 1) % state.n
        self._check_cards(state, events)
        return events

    # --- B13a: a repeated position ends the game; MAX_FLIPS bounds it anyway -------------
    def _after_flip(self, state: BonAppetitState, events: list[JSON]) -> None:
        state.flips += 1
        if state.end is not None:
            return
        now = position(state)
        # A token changed hands: no earlier position can recur. (``start``: set by the deal.)
        if now[2] != state.start[2]:  # type: ignore[index]
            self._new_stretch(state)
        else:
            seen = self._seen(state)
            state.since += 1
            if now in seen:
                self._stop(state, Termination.REPEATED_POSITION, events)
                return
            seen.add(now)
        if state.flips >= MAX_FLIPS:
            self._stop(state, Termination.MOVE_LIMIT, events)

    def _new_stretch(self, state: BonAppetitState) -> None:
        start = position(state)
        state.start, state.since, state.seen = start, 0, {start}

    def _seen(self, state: BonAppetitState) -> set[Position]:
        """The positions from ``start`` to now, replayed when not cached (after a load)."""
        if state.seen is None:
            start: Position = state.start  # type: ignore[assignment]  # set by every deal
            piles, common, tokens, seat, flips_left, owner = start
            replay = BonAppetitState(
                state.n, state.deck, list(piles), common, list(tokens), state.tokens_total,
                seat, flips_left, owner,
            )  # fmt: skip
            seen = {start}
            for _ in range(state.since):
                if replay.end is not None:  # only a hand-edited dump gets here
                    break
                self._flip(replay, replay.seat)
                seen.add(position(replay))
            state.seen = seen
        return state.seen

    def _stop(self, state: BonAppetitState, reason: Termination, events: list[JSON]) -> None:
        """B13a: the game ends at once; the common pile (and any chase) is nobody's."""
        state.flips_left, state.owner = 0, None
        self._finish(state, reason, events)

    def _start_chase(
        self, state: BonAppetitState, owner: int, card: str, events: list[JSON], kind: str
    ) -> None:
        """B9, B9c: the next player chases ``owner``'s mouse with as many flips as paws."""
        state.seat = (owner + 1) % state.n
        state.flips_left = PAWS[card]
        state.owner = owner
        events.append(
            event(kind, chaser=state.seat, mouse_owner=owner, flips_left=state.flips_left)
        )

    def _chase_flip(self, state: BonAppetitState, seat: int, card: str, events: list[JSON]) -> None:
        if card == CAT:  # B9a: caught; the chaser wins the pile and a token
            events.append(event("chase_end", result="caught", chaser=seat, winner=seat))
            self._win(state, seat, events, token=True)
        elif card in PAWS:  # B9c: stop at once; the next player chases the new mouse
            self._start_chase(state, seat, card, events, "chase_pass")
        else:
            state.flips_left -= 1
            if state.flips_left:
                events.append(event("chase_step", chaser=seat, flips_left=state.flips_left))
                return
            # B9b: only cheese; the last mouse's owner wins the pile, without a token.
            owner = state.owner
            events.append(event("chase_end", result="escaped", chaser=seat, winner=owner))
            if owner is None:
                # B12: the starting card's mouse belongs to nobody; the pile stays and the
                # player after the chaser goes on.
                state.seat = (seat + 1) % state.n
            else:
                self._win(state, owner, events, token=False)

    def _win(self, state: BonAppetitState, winner: int, events: list[JSON], *, token: bool) -> None:
        # B10: the common pile is turned over as a whole and put under the winner's pile,
        # so its bottom card (the first of the string) is the first of them to come up.
        won = state.common
        state.piles[winner] += won
        state.common = ""
        state.flips_left, state.owner = 0, None
        events.append(event("pile_won", seat=winner, cards=len(won), token=token))
        if token:
            state.tokens[winner] += 1
            left = state.tokens_left
            events.append(event("token", seat=winner, tokens=state.tokens[winner], left=left))
            if not left:  # B13: the last token ends the game, after the pile is taken
                self._finish(state, "tokens", events)
                return
        # B10, B11: the winner restarts the pile with a normal flip of their own.
        state.seat = winner

    def _check_cards(self, state: BonAppetitState, events: list[JSON]) -> None:
        """B13: the game ends at once when the seat that must flip has no card."""
        if state.end or state.piles[state.seat]:
            return
        if state.flips_left:  # a chaser out of cards: the pile belongs to nobody
            events.append(event("chase_end", result="no_cards", chaser=state.seat, winner=None))
            state.flips_left, state.owner = 0, None
        self._finish(state, "no_cards", events)

    def _finish(self, state: BonAppetitState, reason: str, events: list[JSON]) -> None:
        state.end = str(reason)  # plain words in the state, as before Termination
        result = self.result(state).to_json()
        # reason: the game's own word (B13's "tokens", "no_cards"); seat: who ended it.
        events.append(event("game_end", reason=str(reason), seat=state.seat, **result))

    # --- what players see --------------------------------------------------------------
    def view(self, state: BonAppetitState, seat: int | None) -> BonAppetitView:
        # Every seat sees the same table: nobody knows the order of any face-down pile.
        chase: Chase | None = None
        if state.flips_left:
            chase = {
                "chaser": state.seat,
                "flips_left": state.flips_left,
                "mouse_owner": state.owner,
            }
        return {
            "seat": seat,
            "n_players": state.n,
            "deck": state.deck,
            "piles": [len(p) for p in state.piles],
            "common": [CARD_NAMES[c] for c in state.common],
            "tokens": list(state.tokens),
            "tokens_left": state.tokens_left,
            "chase": chase,
            "to_act": self.to_act(state),
            "over": state.end is not None,
            "end": state.end,
            # The places as B14 decides them, for every screen; None while the game runs.
            "ranks": None if state.end is None else list(self.result(state).ranks),
        }

    def outcome(self, state: BonAppetitState) -> Result | None:
        if state.end is None:
            return None
        cards = [len(p) for p in state.piles]
        # B14: most cards, then most tokens; still tied, the victory is shared.
        ranks = ranks_from(list(zip(cards, state.tokens, strict=True)))
        # B13 ends normally; B13a's repeated position and the flip limit are terminations.
        return Result.of(cards, ranks, Termination.of(state.end), tokens=list(state.tokens))

    def stored_termination(self, data: JSON) -> Termination:
        return Termination.of(data.get("end"))

    # --- storage -----------------------------------------------------------------------
    def dump(self, state: BonAppetitState) -> JSON:
        return {
            "n": state.n,
            "deck": state.deck,
            "piles": list(state.piles),
            "common": state.common,
            "tokens": list(state.tokens),
            "tokens_total": state.tokens_total,
            "seat": state.seat,
            "chase": [state.flips_left, state.owner] if state.flips_left else None,
            "end": state.end,
            "flips": state.flips,
            # B13a's stretch; at its first position ``start`` is the table itself.
            "since": [state.since, *map(_plain, state.start or ())] if state.since else None,
        }

    def load(self, data: JSON) -> BonAppetitState:
        flips_left, owner = data["chase"] or (0, None)
        state = BonAppetitState(
            data["n"],
            data["deck"],
            list(data["piles"]),
            data["common"],
            list(data["tokens"]),
            data["tokens_total"],
            data["seat"],
            flips_left,
            owner,
            data["end"],
            data.get("flips", 0),
        )
        # A dump from before B13a has no stretch: one starts at the loaded position.
        since = data.get("since")
        if since:
            piles, common, tokens, seat, chase_flips, chase_owner = since[1:]
            state.since = since[0]
            state.start = (tuple(piles), common, tuple(tokens), seat, chase_flips, chase_owner)
        else:
            state.start = position(state)
        return state

    def clone(self, state: BonAppetitState) -> BonAppetitState:
        seen = None if state.seen is None else set(state.seen)
        return replace(state, piles=list(state.piles), tokens=list(state.tokens), seen=seen)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


RULES = BonAppetitRules()
