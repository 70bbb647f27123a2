"""Come Cani e Gatti ("Like Cats and Dogs"): the rules engine.

Rules: the rules specification cats-and-dogs.md (clause IDs C1–C20i in comments). Card data and
the rules' Interpretations live in ``data``.

Animals are numbered by their position in the layout, 0..2n-1. Food cards are codes: kind
("b" bone, "f" fish) and value, e.g. ``"b3"``, ``"f5"``.

A turn: ``mark`` (place a marker, skipped when impossible) → ``play`` (draw to feed, or
play an action card) → for a feeding ``feed`` (put the drawn card on an animal) → ``more``
(draw again onto the same animal, or stop) … → next seat clockwise.

Actions are ":"-separated tokens. The first token names the step or the action card and
every further token one target, so a front-end can offer a long list (Trade a bite may
have ~200 entries) one token at a time by grouping the legal actions by prefix:

    mark:<a>               place one of your markers on animal a (C9)
    draw                   feed: draw the top food card, seen by all (C11)
    feed:<a>               put the drawn card on animal a (C11)
    more                   draw the next card; it goes on the same animal at once (C12)
    stop                   stop feeding (C12)
    shoo:<a>:<s>           Shoo: seat s's marker leaves animal a, back to s (C20a)
    wander:<a>:<b>         Wander: move your marker from animal a to animal b (C20b)
    switch:<a>:<b>:<s>     Switch seats: your marker on a ↔ seat s's marker on b (C20c)
    snatch:<a>:<c>         Snatch: discard food card c (e.g. b3) of animal a (C20d)
    bowl:<a>:<c>:<b>       Pass the bowl: move food card c from animal a to b (C20e)
    trade:<a>:<c>:<b>:<d>  Trade a bite: card c of a ↔ card d of b; always a < b (C20f)
    swap:<a>:<b>           Swap dinners: all food of a ↔ all food of b; a < b (C20g)
    clean:<a>              Clean the bowl: discard all food of animal a (C20h)
    helping                Second helping: draws at once; two feedings on two animals (C20i)

Second helping draws its cards itself (the player already chose to feed), so the steps
after it are ``feed``/``more``/``stop`` twice; the second ``feed`` excludes the first
feeding's animal.

Events (all public; a played action card is public once played, and hands never appear):
``turn`` {seat}, ``marked`` {seat, animal}, ``drew`` {seat, card}, ``fed`` {seat, animal,
card}, ``sated`` {animal}, ``stopped`` {seat, animal}, ``over`` {reason: "sated"|"food",
scores, ranks}, and ``action`` {seat, card} with the card's targets: ``animal`` (the first
animal), ``owner`` (the other marker's seat: shoo, switch), ``dest`` (wander, bowl),
``other_animal`` (switch, trade, swap), ``food`` (the card or, for clean, the cards moved
or discarded) and ``other_food`` (trade).

View (``view(state, seat | None)``): ``animals`` (per position: ``id``, ``kind``, ``name``,
``squares``, ``markers`` [seats], ``food`` [codes], ``sated``, ``score``), ``food_left``,
``drawn``, ``discard``, ``markers_left``, ``action_cards`` (count per seat), ``scores``
(C18 now), ``turn``, ``to_act``, ``phase``, ``feeding`` (the animal being fed), ``not_on``
(Second helping's first animal), ``helpings_left``, ``over``, ``reason``; a seat's own
view adds ``seat`` and ``hand`` (its action card codes).

Options (for stacked tests), all optional:
``layout`` animal ids (rows of ``ANIMALS``), 2n distinct; ``food`` the draw pile, top
first; ``plates`` food already on each animal (list per animal); ``markers`` markers
already on each animal (list of seats per animal, taken from their supplies); ``hands``
action cards per seat; ``first`` the starting seat. Food cards in ``food`` and ``plates``
together must fit in the 54-card deck; without ``food`` the pile is the rest, shuffled.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from games.engines.base import JSON, IllegalAction, Result, Rules, event, ranks_from, rng_for
from games.kinds.cats_and_dogs.types import AnimalView, CatsAndDogsView, parse_action

from .data import (
    ACTION_CARDS,
    ANIMALS,
    FAVOURITE,
    HAND_SIZE,
    MARKERS_PER_PLAYER,
    SATED,
    TURN_LIMIT,
    action_deck,
    food_deck,
)

CARD_NAMES = {card.code: card.name for card in ACTION_CARDS}
SQUARES = [a.squares for a in ANIMALS]
CARD_FACES = [  # what the views show of each animal card
    {"id": i, "kind": a.kind, "name": a.name, "squares": a.squares} for i, a in enumerate(ANIMALS)
]
OPTION_KEYS = {"layout", "food", "plates", "markers", "hands", "first"}
FOOD_CODES = set(food_deck())
# C17: what each food card adds to a dog's or a cat's total, looked up by kind.
POINTS = {
    kind: {c: int(c[1:]) if c[0] == likes else -int(c[1:]) for c in FOOD_CODES}
    for kind, likes in FAVOURITE.items()
}


def all_actions() -> list[str]:
    """Every action string any table can have (12 animals, 6 seats, 12 food codes), in a
    fixed order: the integer action space. The strings keep their target tokens, so a
    front-end still offers targets step by step by prefix; see the module docstring."""
    animals = range(2 * 6)
    seats = range(6)
    codes = sorted(FOOD_CODES)
    out = [f"mark:{a}" for a in animals]
    out += ["draw", *(f"feed:{a}" for a in animals), "more", "stop", "helping"]
    out += [f"shoo:{a}:{s}" for a in animals for s in seats]
    out += [f"wander:{a}:{b}" for a in animals for b in animals if b != a]
    out += [f"switch:{a}:{b}:{s}" for a in animals for b in animals if b != a for s in seats]
    out += [f"snatch:{a}:{c}" for a in animals for c in codes]
    out += [f"bowl:{a}:{c}:{b}" for a in animals for c in codes for b in animals if b != a]
    out += [
        f"trade:{a}:{c}:{b}:{d}"
        for a in animals
        for c in codes
        for b in animals
        if b > a
        for d in codes
        if d != c
    ]
    out += [f"swap:{a}:{b}" for a in animals for b in animals if b > a]
    out += [f"clean:{a}" for a in animals]
    return out


ACTIONS = tuple(all_actions())
ACTION_ID = {action: i for i, action in enumerate(ACTIONS)}

# The integer action space by its targets, for the search's fast path (``legal_ids``,
# ``apply_id``): no action string is built or parsed there. Animals index lists, food
# codes (the card's own string, shared with the state) key dicts.
_POSITIONS, _SEATS, _CODES = range(12), range(6), sorted(FOOD_CODES)
MARK_ID = [ACTION_ID[f"mark:{a}"] for a in _POSITIONS]
FEED_ID = [ACTION_ID[f"feed:{a}"] for a in _POSITIONS]
DRAW_ID, MORE_ID, STOP_ID, HELPING_ID = (ACTION_ID[a] for a in ("draw", "more", "stop", "helping"))
SHOO_ID = [[ACTION_ID[f"shoo:{a}:{s}"] for s in _SEATS] for a in _POSITIONS]
# The tables of two animals (or two cards) hold None where the pair is no action (the same
# animal twice), which the rules never look up: typed as their ids.
_no = ACTION_ID.get  # None for a pair that is no action
WANDER_ID = cast(
    list[list[int]], [[_no(f"wander:{a}:{b}") for b in _POSITIONS] for a in _POSITIONS]
)
SWITCH_ID = cast(
    list[list[list[int]]],
    [[[_no(f"switch:{a}:{b}:{s}") for s in _SEATS] for b in _POSITIONS] for a in _POSITIONS],
)
SNATCH_ID = [{c: ACTION_ID[f"snatch:{a}:{c}"] for c in _CODES} for a in _POSITIONS]
BOWL_ID = cast(
    list[dict[str, list[int]]],
    [{c: [_no(f"bowl:{a}:{c}:{b}") for b in _POSITIONS] for c in _CODES} for a in _POSITIONS],
)
TRADE_ID = cast(
    list[dict[str, list[dict[str, int]]]],
    [
        {
            c: [{d: _no(f"trade:{a}:{c}:{b}:{d}") for d in _CODES} for b in _POSITIONS]
            for c in _CODES
        }
        for a in _POSITIONS
    ],
)
SWAP_ID = cast(list[list[int]], [[_no(f"swap:{a}:{b}") for b in _POSITIONS] for a in _POSITIONS])
CLEAN_ID = [ACTION_ID[f"clean:{a}"] for a in _POSITIONS]

# Each id decoded once: (step, a, x, b, y) with the step's number and its targets (animals
# as ints, seats as ints, food codes as strings; None where a step has fewer).
MARK, DRAW, FEED, MORE, STOP, HELPING = range(6)
SHOO, WANDER, SWITCH, SNATCH, BOWL, TRADE, SWAP, CLEAN = range(6, 14)
STEPS = {
    "mark": MARK, "draw": DRAW, "feed": FEED, "more": MORE, "stop": STOP,
    "helping": HELPING, "shoo": SHOO, "wander": WANDER, "switch": SWITCH,
    "snatch": SNATCH, "bowl": BOWL, "trade": TRADE, "swap": SWAP, "clean": CLEAN,
}  # fmt: skip
CARD_OF_STEP = {step: name for name, step in STEPS.items() if step >= HELPING}


def decode(action: str) -> tuple[int, Any, Any, Any, Any]:
    parsed = parse_action(action)  # the game's one parser (``types``)
    values = list(parsed.targets)
    step = STEPS[parsed.verb]
    if step == SHOO:  # shoo:a:s
        return (step, values[0], values[1], None, None)
    if step in (WANDER, SWAP):  # wander:a:b, swap:a:b
        return (step, values[0], None, values[1], None)
    if step == SWITCH:  # switch:a:b:s
        return (step, values[0], values[2], values[1], None)
    if step == SNATCH:  # snatch:a:c
        return (step, values[0], values[1], None, None)
    if step == BOWL:  # bowl:a:c:b
        return (step, values[0], values[1], values[2], None)
    if step == TRADE:  # trade:a:c:b:d
        return (step, values[0], values[1], values[2], values[3])
    return (step, values[0] if values else None, None, None, None)


DECODED = tuple(decode(action) for action in ACTIONS)


@dataclass(slots=True)
class State:
    n: int
    layout: list[int]  # animal ids, by position
    markers: list[list[int]]  # per animal, the seats of its markers
    food: list[list[str]]  # per animal, its food cards in the order they came
    pile: list[str]  # the face-down draw pile, top first
    discard: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    supply: list[int] = field(default_factory=list)  # markers left per seat
    turn: int = 0
    phase: str = "play"  # mark | play | feed | more | over
    drawn: str | None = None  # the drawn card awaiting feed:<a>
    target: int | None = None  # the animal this feeding goes to
    skip: int | None = None  # Second helping: the first feeding's animal (C20i)
    helps: int = 0  # feedings still due after this one (Second helping)
    reason: str | None = None  # why the game ended


def animal_total(animal_id: int, food: list[str]) -> int:
    """C17: the favourite food adds its value, the other food subtracts."""
    points = POINTS[ANIMALS[animal_id].kind]
    return sum(points[c] for c in food)


class CatsAndDogsRules(Rules):
    slug = "cats_and_dogs"
    name = "Come Cani e Gatti"
    min_players = 2
    max_players = 6

    # ---- set-up ---------------------------------------------------------------------

    def setup(self, n_players: int, seed: int, options: JSON | None = None) -> State:
        self.check_players(n_players)
        options = dict(options or {})
        unknown = set(options) - OPTION_KEYS
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        layout = deal_layout(n_players, seed, options.get("layout"))
        plates, pile = deal_food(len(layout), seed, options)
        hands = deal_hands(n_players, seed, options.get("hands"))
        markers, supply = stack_markers(n_players, layout, options.get("markers"))

        # C8: a random player starts.
        first = options.get("first")
        if first is None:
            first = rng_for(seed, "first").randrange(n_players)
        elif not (isinstance(first, int) and 0 <= first < n_players):
            raise ValueError(f"first must be a seat 0..{n_players - 1}")

        state = State(n_players, layout, markers, plates, pile, [], hands, supply, first)
        state.reason = self._ended(state)  # a stacked table may be over already
        if state.reason:
            state.phase = "over"
        else:
            state.phase = "mark" if self._can_mark(state, first) else "play"
        return state

    # ---- queries --------------------------------------------------------------------

    def n_players(self, state: State) -> int:
        return state.n

    def to_act(self, state: State) -> list[int]:
        return [] if state.phase == "over" else [state.turn]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return [ACTIONS[i] for i in self.legal_ids(state, seat)]

    def legal_ids(self, state: State, seat: int) -> list[int]:
        """The legal actions as ids (``ACTIONS``), in ``legal_actions``' order: the
        step's own choices, or "draw" then every card's targets, cards in name order."""
        phase = state.phase
        if phase == "over" or seat != state.turn:
            return []
        if phase == "mark":
            return [MARK_ID[a] for a in self._markable(state)]
        if phase == "feed":
            return [FEED_ID[a] for a in self._feedable(state)]
        if phase == "more":
            return [MORE_ID, STOP_ID]
        legal = [DRAW_ID]
        hungry = self._hungry(state)
        for card in sorted(set(state.hands[seat])):
            legal += self._card_target_ids(state, seat, card, hungry)
        return legal

    def _hungry(self, state: State) -> list[int]:
        """C15: the animals still in play (not sated)."""
        return [a for a, f in enumerate(state.food) if len(f) < SATED]

    def _has_room(self, state: State, a: int) -> bool:
        return len(state.markers[a]) < SQUARES[state.layout[a]]

    def _markable(self, state: State) -> list[int]:
        """C9: a free square on an animal that is not sated."""
        return [a for a in self._hungry(state) if self._has_room(state, a)]

    def _can_mark(self, state: State, seat: int) -> bool:
        if not state.supply[seat]:
            return False
        squares = [SQUARES[aid] for aid in state.layout]
        return any(
            len(f) < SATED and len(m) < s
            for f, m, s in zip(state.food, state.markers, squares, strict=True)
        )

    def _feedable(self, state: State) -> list[int]:
        """C11: any animal not sated; C20i: the second helping goes to another animal."""
        return [a for a in self._hungry(state) if a != state.skip]

    def _card_targets(
        self, state: State, seat: int, card: str, hungry: list[int] | None = None
    ) -> list[str]:
        """C14: every legal way to play ``card``; none → the card cannot be played."""
        return [ACTIONS[i] for i in self._card_target_ids(state, seat, card, hungry)]

    def _card_target_ids(
        self, state: State, seat: int, card: str, hungry: list[int] | None = None
    ) -> list[int]:
        """``_card_targets`` as ids. Only animals in play are ever touched (C15), and
        changing nothing is no target."""
        if hungry is None:
            hungry = self._hungry(state)
        food, markers = state.food, state.markers
        if card == "shoo":  # C20a: anyone's marker
            return [SHOO_ID[a][s] for a in hungry for s in sorted(set(markers[a]))]
        if card == "wander":  # C20b: own marker to a free square elsewhere
            roomy = [b for b in hungry if self._has_room(state, b)]
            return [WANDER_ID[a][b] for a in hungry if seat in markers[a] for b in roomy if b != a]
        if card == "switch":  # C20c: own marker ↔ another player's on a different animal
            return [
                SWITCH_ID[a][b][s]
                for a in hungry
                if seat in markers[a]
                for b in hungry
                if b != a
                for s in sorted(set(markers[b]))
                if s != seat
            ]
        if card == "snatch":  # C20d
            return [SNATCH_ID[a][c] for a in hungry for c in sorted(set(food[a]))]
        if card == "bowl":  # C20e: the receiver may become sated
            return [
                BOWL_ID[a][c][b]
                for a in hungry
                for c in sorted(set(food[a]))
                for b in hungry
                if b != a
            ]
        if card == "trade":  # C20f: two different cards, one order only (a < b)
            return [
                TRADE_ID[a][c][b][d]
                for a in hungry
                for c in sorted(set(food[a]))
                for b in hungry
                if b > a
                for d in sorted(set(food[b]))
                if d != c
            ]
        if card == "swap":  # C20g: not two empty or identical plates
            return [
                SWAP_ID[a][b]
                for a in hungry
                for b in hungry
                if b > a and sorted(food[a]) != sorted(food[b])
            ]
        if card == "clean":  # C20h: not an empty bowl
            return [CLEAN_ID[a] for a in hungry if food[a]]
        if card == "helping":  # C20i: two feedings need two cards
            return [HELPING_ID] if len(state.pile) >= 2 else []
        raise AssertionError(card)

    # ---- moves ----------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: str) -> list[JSON]:
        self.require_turn(state, seat)
        head, _, rest = action.partition(":")
        # Check against this step's own choices only: "draw" need not list every Trade a
        # bite in the hand, and one animal's number is checked without listing the others.
        phase = state.phase
        if phase == "mark" or phase == "feed":
            a = int(rest) if rest.isascii() and rest.isdigit() and str(int(rest)) == rest else -1
            if phase == "mark":
                ok = head == "mark" and a in self._markable(state)
            else:
                ok = head == "feed" and a in self._feedable(state)
        elif phase == "more":
            ok = action == "more" or action == "stop"
        elif head in CARD_NAMES and head in state.hands[seat]:
            ok = ACTION_ID.get(action) in self._card_target_ids(state, seat, head)
        else:
            ok = action == "draw"
        if not ok:
            raise IllegalAction(self._why_not(state, seat, action, head))
        events: list[JSON] = []
        self._step(state, seat, ACTION_ID[action], events)
        return events

    def apply_id(self, state: State, seat: int, action: int) -> None:
        """``apply`` for playouts: a legal action id (not checked), no events built."""
        self._step(state, seat, action, None)

    def _step(self, state: State, seat: int, action: int, events: list[JSON] | None) -> None:
        """Carry out a legal action (an id); ``events`` None: a playout, nothing is
        reported. Both paths run this one code, so they leave the same state."""
        step, a, x, b, y = DECODED[action]
        if step == MARK:  # C9
            state.markers[a].append(seat)
            state.supply[seat] -= 1
            state.phase = "play"
            if events is not None:
                events.append(event("marked", seat=seat, animal=a))
        elif step == FEED:
            self._place(state, seat, a, True, events)
        elif step == MORE:  # C12: the next card goes on the same animal
            self._place(state, seat, state.target, False, events)  # type: ignore[arg-type]  # C12
        elif step == STOP:
            if events is not None:
                events.append(event("stopped", seat=seat, animal=state.target))
            self._feeding_done(state, seat, events)
        elif step == DRAW:
            self._draw(state, seat, events)
        else:
            self._play_card(state, seat, step, a, x, b, y, events)

    def _why_not(self, state: State, seat: int, action: str, head: str) -> str:
        """A reason a player can read, for an action that is not legal now."""
        if state.phase == "mark":
            return "First place a marker on an animal with a free square."
        if state.phase == "feed":
            if state.skip is not None and action == f"feed:{state.skip}":
                return "Second helping: the second feeding must go to another animal."
            return "Put the drawn food card on an animal that is not sated."
        if state.phase == "more":
            return "Draw more food for the same animal, or stop."
        if head in CARD_NAMES:
            name = CARD_NAMES[head]
            if head not in state.hands[seat]:
                return f"You have no {name} card."
            if not self._card_target_ids(state, seat, head):
                return f"{name} has no legal target now."
            return f"{name} cannot do that (sated animals are out of reach)."
        return "Feed (draw) or play one of your action cards."

    def _draw(self, state: State, seat: int, events: list[JSON] | None) -> None:
        """C11: the drawn card is seen by everyone before it is placed."""
        state.drawn = state.pile.pop(0)
        state.phase = "feed"
        if events is not None:
            events.append(event("drew", seat=seat, card=state.drawn))

    def _place(
        self, state: State, seat: int, a: int, drawn: bool, events: list[JSON] | None
    ) -> None:
        card = state.drawn if drawn else state.pile.pop(0)
        state.drawn = None
        state.target = a
        plate = state.food[a]
        plate.append(card)  # type: ignore[arg-type]  # feed:<a> follows the draw
        if events is not None:
            events.append(event("fed", seat=seat, animal=a, card=card))
            if len(plate) == SATED:
                events.append(event("sated", animal=a))
        # C16: the game ends at once, even in the middle of a feeding.
        if self._ended(state):
            self._finish(state, events)
        # C13: a feeding stops when its animal holds 4 cards or takes its fifth.
        elif len(plate) >= TURN_LIMIT:
            self._feeding_done(state, seat, events)
        else:
            state.phase = "more"

    def _feeding_done(self, state: State, seat: int, events: list[JSON] | None) -> None:
        if state.helps:  # C20i: the second feeding, on another animal
            state.helps -= 1
            state.skip = state.target
            state.target = None
            self._draw(state, seat, events)
        else:
            self._next_turn(state, events)

    def _play_card(  # noqa: C901 - one branch per action card (C9-C14)
        self,
        state: State,
        seat: int,
        step: int,
        a: Any,
        x: Any,
        b: Any,
        y: Any,
        events: list[JSON] | None,
    ) -> None:
        """C14: carry the card out and discard it; no card replaces it. The targets are
        ``DECODED``'s: the first animal ``a``, the second ``b``, a seat or food card
        ``x`` and the other food card ``y``."""
        card = CARD_OF_STEP[step]
        state.hands[seat].remove(card)
        food, markers = state.food, state.markers
        ev = None if events is None else event("action", seat=seat, card=card)
        if step == SHOO:  # C20a
            markers[a].remove(x)
            state.supply[x] += 1
            if ev is not None:
                ev.update(animal=a, owner=x)
        elif step == WANDER:  # C20b
            markers[a].remove(seat)
            markers[b].append(seat)
            if ev is not None:
                ev.update(animal=a, dest=b)  # not "to": that key is the event's audience
        elif step == SWITCH:  # C20c
            markers[a][markers[a].index(seat)] = x
            markers[b][markers[b].index(x)] = seat
            if ev is not None:
                ev.update(animal=a, other_animal=b, owner=x)
        elif step == SNATCH:  # C20d
            food[a].remove(x)
            state.discard.append(x)
            if ev is not None:
                ev.update(animal=a, food=x)
        elif step == BOWL:  # C20e
            food[a].remove(x)
            food[b].append(x)
            if ev is not None:
                ev.update(animal=a, food=x, dest=b)
        elif step == TRADE:  # C20f
            food[a][food[a].index(x)] = y
            food[b][food[b].index(y)] = x
            if ev is not None:
                ev.update(animal=a, food=x, other_animal=b, other_food=y)
        elif step == SWAP:  # C20g
            food[a], food[b] = food[b], food[a]
            if ev is not None:
                ev.update(animal=a, other_animal=b)
        elif step == CLEAN:  # C20h
            state.discard.extend(food[a])
            if ev is not None:
                ev.update(animal=a, food=food[a])
            food[a] = []
        else:  # C20i Second helping: two feedings, the first drawn at once
            state.helps = 1
            if events is not None and ev is not None:
                events.append(ev)
            self._draw(state, seat, events)
            return
        if events is not None and ev is not None:
            events.append(ev)
        if step == BOWL and len(food[b]) == SATED:
            if events is not None:
                events.append(event("sated", animal=b))
            if self._ended(state):  # C16: Pass the bowl can sate the second-last animal
                self._finish(state, events)
                return
        self._next_turn(state, events)

    def _next_turn(self, state: State, events: list[JSON] | None) -> None:
        state.turn = (state.turn + 1) % state.n  # C8: clockwise
        state.target = state.skip = None
        state.helps = 0
        state.phase = "mark" if self._can_mark(state, state.turn) else "play"
        if events is not None:
            events.append(event("turn", seat=state.turn))

    def _ended(self, state: State) -> str | None:
        """C16: all animals but one sated, or the last food card placed."""
        if sum(len(f) == SATED for f in state.food) >= len(state.food) - 1:
            return "sated"
        if not state.pile and state.drawn is None:
            return "food"
        return None

    def _finish(self, state: State, events: list[JSON] | None) -> None:
        state.phase, state.reason = "over", self._ended(state)
        state.target = state.skip = None
        state.helps = 0
        if events is not None:
            events.append(event("over", reason=state.reason, **self.result(state).to_json()))

    # ---- scoring and views ----------------------------------------------------------

    def totals(self, state: State) -> list[int]:
        """C17: each animal's total, sated or not."""
        return [animal_total(aid, f) for aid, f in zip(state.layout, state.food, strict=True)]

    def scores(self, state: State, totals: list[int] | None = None) -> list[int]:
        """C18: each marker scores its animal's total for its owner."""
        scores = [0] * state.n
        totals = self.totals(state) if totals is None else totals
        for total, seats in zip(totals, state.markers, strict=True):
            for s in seats:
                scores[s] += total
        return scores

    def outcome(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        scores = self.scores(state)
        # C16: both ways to end are the rules' own (the game's reason tells which).
        return Result.of(scores, ranks_from(scores))  # C19: ties share a place

    def view(self, state: State, seat: int | None) -> CatsAndDogsView:
        totals = self.totals(state)
        animals: list[AnimalView] = [
            {
                **CARD_FACES[aid],  # type: ignore[typeddict-item]  # id, kind, name, squares
                "markers": list(markers),
                "food": list(food),
                "sated": len(food) == SATED,
                "score": total,
            }
            for aid, markers, food, total in zip(
                state.layout, state.markers, state.food, totals, strict=True
            )
        ]
        view: CatsAndDogsView = {
            "game": self.slug,
            "n_players": state.n,
            "animals": animals,
            "food_left": len(state.pile),
            "drawn": state.drawn,
            "discard": list(state.discard),
            "markers_left": list(state.supply),
            "action_cards": [len(h) for h in state.hands],
            "scores": self.scores(state, totals),
            "turn": state.turn,
            "to_act": self.to_act(state),
            "phase": state.phase,
            "feeding": state.target,
            "not_on": state.skip,
            "helpings_left": state.helps,
            "over": state.phase == "over",
            "reason": state.reason,
        }
        if state.phase == "over":
            # the places as C19 decides them, for every screen
            result = self.result(state)
            view["scores"] = list(result.scores)  # type: ignore[arg-type]  # C18: ints
            view["ranks"] = list(result.ranks)
        if seat is not None:
            view["seat"] = seat
            view["hand"] = sorted(state.hands[seat])
        return view

    # ---- persistence ----------------------------------------------------------------

    def dump(self, state: State) -> JSON:
        return {
            "n": state.n,
            "layout": list(state.layout),
            "markers": [list(m) for m in state.markers],
            "food": [list(f) for f in state.food],
            "pile": list(state.pile),
            "discard": list(state.discard),
            "hands": [list(h) for h in state.hands],
            "supply": list(state.supply),
            "turn": state.turn,
            "phase": state.phase,
            "drawn": state.drawn,
            "target": state.target,
            "skip": state.skip,
            "helps": state.helps,
            "reason": state.reason,
        }

    def load(self, data: JSON) -> State:
        return State(
            data["n"],
            list(data["layout"]),
            [list(m) for m in data["markers"]],
            [list(f) for f in data["food"]],
            list(data["pile"]),
            list(data["discard"]),
            [list(h) for h in data["hands"]],
            list(data["supply"]),
            data["turn"],
            data["phase"],
            data["drawn"],
            data["target"],
            data["skip"],
            data["helps"],
            data["reason"],
        )

    def clone(self, state: State) -> State:
        return State(
            state.n,
            state.layout,  # never mutated
            [m[:] for m in state.markers],
            [f[:] for f in state.food],
            state.pile[:],
            state.discard[:],
            [h[:] for h in state.hands],
            state.supply[:],
            state.turn,
            state.phase,
            state.drawn,
            state.target,
            state.skip,
            state.helps,
            state.reason,
        )

    # ---- for search -----------------------------------------------------------------

    n_actions = len(ACTIONS)

    def action_id(self, action: str) -> int:
        return ACTION_ID[action]

    def action_str(self, action: int) -> str:
        return ACTIONS[action]

    def sampler(self, view: JSON, history: Sequence[JSON]) -> Callable[[random.Random], State]:
        return sample_states(view, history)


def deal_layout(n_players: int, seed: int, layout: list[int] | None) -> list[int]:
    """C5: twice as many animals as players, face up; the rest are not used."""
    n_animals = 2 * n_players
    if layout is None:
        layout = list(range(len(ANIMALS)))
        rng_for(seed, "animals").shuffle(layout)
        return layout[:n_animals]
    layout = list(layout)
    if len(layout) != n_animals or len(set(layout)) != n_animals:
        raise ValueError(f"layout needs {n_animals} distinct animal ids")
    if not all(isinstance(a, int) and 0 <= a < len(ANIMALS) for a in layout):
        raise ValueError(f"layout ids are 0..{len(ANIMALS) - 1}")
    return layout


def deal_food(n_animals: int, seed: int, options: JSON) -> tuple[list[list[str]], list[str]]:
    """C6: the food cards shuffled face down (after any stacked ``plates``), or a stacked
    pile that fits in the deck together with the plates."""
    plates = [list(p) for p in options.get("plates", [[] for _ in range(n_animals)])]
    if len(plates) != n_animals or any(len(p) > SATED for p in plates):
        raise ValueError(f"plates needs {n_animals} lists of at most {SATED} food cards")
    on_plates = [c for p in plates for c in p]
    if "food" in options:
        pile = list(options["food"])
        check_food(pile + on_plates)
    else:
        check_food(on_plates)
        pile = list((Counter(food_deck()) - Counter(on_plates)).elements())
        rng_for(seed, "food").shuffle(pile)
    if not pile:
        raise ValueError("the food pile is empty")
    return plates, pile


def check_food(cards: list[str]) -> None:
    """Stacked food must be real cards, no more copies than the deck holds (C2)."""
    bad = [c for c in cards if c not in FOOD_CODES]
    if bad:
        raise ValueError(f"not food cards: {bad}; use codes like b3 or f5")
    if Counter(cards) - Counter(food_deck()):
        raise ValueError("more copies of a food card than the 54-card deck holds")


def deal_hands(n_players: int, seed: int, hands: list[list[str]] | None) -> list[list[str]]:
    """C7: three hidden action cards each; the rest are not used."""
    if hands is None:
        deck = action_deck()
        rng_for(seed, "actions").shuffle(deck)
        return [deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(n_players)]
    hands = [list(h) for h in hands]
    if len(hands) != n_players:
        raise ValueError(f"hands needs one list per seat ({n_players})")
    counts = Counter(c for h in hands for c in h)
    if any(c not in CARD_NAMES for c in counts):
        raise ValueError(f"action cards are {', '.join(CARD_NAMES)}")
    if counts - Counter(action_deck()):
        raise ValueError("hands hold more copies of an action card than exist")
    return hands


def stack_markers(
    n_players: int, layout: list[int], markers: list[list[int]] | None
) -> tuple[list[list[int]], list[int]]:
    """C4: six markers each; any stacked on the table come out of their owners' supply."""
    markers = [list(m) for m in markers] if markers is not None else [[] for _ in layout]
    if len(markers) != len(layout):
        raise ValueError(f"markers needs {len(layout)} lists of seats")
    supply = [MARKERS_PER_PLAYER] * n_players
    for a, seats in enumerate(markers):
        if len(seats) > SQUARES[layout[a]]:
            raise ValueError(f"animal {a} has only {SQUARES[layout[a]]} squares")
        for s in seats:
            if not (isinstance(s, int) and 0 <= s < n_players):
                raise ValueError(f"no seat {s!r}")
            supply[s] -= 1
    if min(supply) < 0:
        raise ValueError(f"a player has only {MARKERS_PER_PLAYER} markers")
    return markers, supply


RULES = CatsAndDogsRules()


# --- Determinization ------------------------------------------------------------
# Come Cani e Gatti determinization: full states consistent with what one seat has seen.
#
# Everything on the table is public (C11, C14: drawn food and played action cards are seen
# by all); a seat does not know the others' action cards (C7) nor the order of the draw pile
# (C6). The others' hands are dealt from the action deck minus its own hand and every card
# played so far (from the history), by their hand sizes; the pile is the food deck minus
# every food card in sight, shuffled.
def sample_states(view: JSON, history: Sequence[JSON]) -> Callable[[random.Random], State]:
    if view["over"]:
        raise ValueError("the game is over: nothing to sample")
    me, n = view["seat"], view["n_players"]
    animals = view["animals"]
    played = Counter(ev["card"] for ev in history if ev.get("type") == "action")
    unseen_actions = Counter(action_deck()) - played - Counter(view["hand"])
    pool = sorted(unseen_actions.elements())
    sizes = view["action_cards"]
    if sum(sizes) - sizes[me] > len(pool):
        raise ValueError("the history does not account for the played action cards")
    seen_food: Counter[str] = Counter(view["discard"])
    for animal in animals:
        seen_food.update(animal["food"])
    if view["drawn"]:
        seen_food[view["drawn"]] += 1
    pile_cards = sorted((Counter(food_deck()) - seen_food).elements())
    if len(pile_cards) != view["food_left"]:
        raise ValueError("the view's food does not add up to the deck")
    layout = [animal["id"] for animal in animals]

    def sample(rng: random.Random) -> State:
        cards = pool[:]
        rng.shuffle(cards)
        hands = []
        for s in range(n):
            if s == me:
                hands.append(list(view["hand"]))
            else:
                hands.append(cards[: sizes[s]])
                del cards[: sizes[s]]
        pile = pile_cards[:]
        rng.shuffle(pile)
        return State(
            n,
            layout[:],
            [list(a["markers"]) for a in animals],
            [list(a["food"]) for a in animals],
            pile,
            list(view["discard"]),
            hands,
            list(view["markers_left"]),
            view["turn"],
            view["phase"],
            view["drawn"],
            view["feeding"],
            view["not_on"],
            view["helpings_left"],
            view["reason"],
        )

    return sample
