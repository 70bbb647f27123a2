"""The engine contract shared by the four games.

An engine is a pure rules library: no Django, no Celery, no I/O. A game is a state object
owned by the engine, mutated only through ``apply``. Everything a front-end or a computer
player may know comes from ``view``; the state itself never leaves the engine's callers in
``games/``.

Seats are numbered 0..n-1 clockwise. Actions are short canonical strings (they travel in
Telegram's 64-byte callback data together with a game id and a version).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

MAX_ACTION_BYTES = 40
# A JSON object as engines pass them: events, views, dumped states, options.
JSON = dict[str, Any]
# What ``view`` returns: each game's own TypedDict (``games/kinds/<slug>/types.py``), a
# plain dict at run time; read-only to its callers.
View = Mapping[str, Any]
# The events an engine's helper adds to, or None on a playout's fast path, which builds
# none: the helper gives back what it was given, and mypy knows which.
Events = TypeVar("Events", list[JSON], None)


def as_json(view: View) -> JSON:
    """A game's view as the JSON its readers take (the computers, the play layer, the
    front-ends): a TypedDict is a plain dict at run time, so this is only its type."""
    return cast(JSON, view)


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The message is shown to the player."""


def rng_for(seed: int, *labels: object) -> random.Random:
    """A fresh RNG derived from the game's seed and a label (e.g. the deal number).

    Engines keep no RNG object in their state: each shuffle derives its generator from the
    seed, so a dumped state stays small and a replay of (seed, options, actions) is exact.
    String seeding is stable across processes (it does not depend on PYTHONHASHSEED).
    """
    return random.Random(":".join(str(part) for part in (seed, *labels)))


def event(kind: str, to: Sequence[int] | None = None, **data: Any) -> JSON:
    """An event for the log. ``to`` lists the seats that may see it; None means everyone."""
    ev = {"type": kind, "to": None if to is None else list(to)}
    ev.update(data)
    return ev


def visible_to(ev: JSON, seat: int | None) -> bool:
    """Whether an audience (a seat, or None for the public) may see an event."""
    to = ev.get("to")
    return to is None or (seat is not None and seat in to)


def observations(events: Sequence[JSON], seat: int | None) -> list[JSON]:
    """A seat's observation history: the events it was allowed to see, in order."""
    return [ev for ev in events if visible_to(ev, seat)]


def utilities(ranks: Sequence[int]) -> list[float]:
    """Each seat's utility in [0, 1] from the final ranks, the same for every game: 1 for
    first place, 0 for last, linear between (a shared place shares the value)."""
    n = len(ranks)
    return [(n - rank) / (n - 1) for rank in ranks]


def ranks_from(keys: Sequence[Any]) -> list[int]:
    """Rank each seat by a comparable key, higher is better.

    A seat's rank is 1 + the number of seats with a strictly better key, so ties share a
    place and the next place is skipped (1, 1, 3).
    """
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


class Termination(StrEnum):
    """Why a game ended: the same few words for every game, which the front-ends read
    instead of each game's own strings. Which of its normal endings a game reached (the
    last token or no card to flip, B13; the animals sated or the food gone, C16) is the
    game's own detail, in its events.

    The values are what results, events and states store (JSON); ``REPEATED_POSITION``
    and ``MOVE_LIMIT`` keep the words that B13a's events and states said before there
    was a ``Termination`` ("repeat", "flip_limit"), so old rows read the same."""

    NORMAL = "normal"  # the rules' own end
    REPEATED_POSITION = "repeat"  # a position came back: the game would never end
    MOVE_LIMIT = "flip_limit"  # the engine's bound on the moves of one game
    CONCEDED = "conceded"  # a player gave up the part of the game that ended it
    MODERATOR = "moderator"  # a moderator's move ended it

    @classmethod
    def of(cls, value: object) -> Termination:
        """The termination a stored string names; ``NORMAL`` for None or any other word
        (results stored before they named one, a game's own end reasons)."""
        try:
            return cls(value) if isinstance(value, str) else cls.NORMAL
        except ValueError:
            return cls.NORMAL

    @classmethod
    def of_event(cls, ev: Mapping[str, Any]) -> Termination:
        """The termination an end event names. Events stored before they carried one said
        why in ``reason``, in the words the values keep."""
        return cls.of(ev.get("termination", ev.get("reason")))


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game's result, typed (like python-chess's ``Outcome``): each seat's
    score and place, why the game ended, and the game's own details (F27's cat points,
    B14's tokens, S16's losers), which stay in ``details``."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]  # 1 is best; tied seats share a rank
    details: Mapping[str, Any] = field(default_factory=dict)
    termination: Termination = Termination.NORMAL

    @classmethod
    def of(
        cls,
        scores: Sequence[float],
        ranks: Sequence[int],
        termination: Termination = Termination.NORMAL,
        **details: Any,
    ) -> Result:
        return cls(tuple(scores), tuple(ranks), details, termination)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """A stored result. One stored before results named their termination reads as
        ``NORMAL`` (``games.play.models.Game.outcome`` asks the engine's state first)."""
        ranks = data.get("ranks")
        if not isinstance(ranks, list | tuple):
            raise ValueError("a result needs its ranks")
        scores = data.get("scores") or [None] * len(ranks)
        details = {k: v for k, v in data.items() if k not in ("scores", "ranks", "termination")}
        termination = Termination.of(data.get("termination"))
        return cls(tuple(scores), tuple(int(r) for r in ranks), details, termination)

    def places(self) -> JSON:
        """Scores, ranks and details, as a final view shows them (JSON-able)."""
        return {"scores": list(self.scores), "ranks": list(self.ranks), **self.details}

    def to_json(self) -> JSON:
        """What a game's row and its end event store: ``places`` and the termination."""
        return {**self.places(), "termination": self.termination.value}

    @property
    def n_seats(self) -> int:
        return len(self.ranks)

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def score(self, seat: int) -> float | None:
        return self.scores[seat] if 0 <= seat < len(self.scores) else None

    def order(self) -> list[int]:
        """Seats best first (ties in seat order)."""
        return sorted(range(self.n_seats), key=lambda s: (self.ranks[s], s))

    def detail(self, key: str, seat: int, default: Any = None) -> Any:
        values = self.details.get(key)
        if isinstance(values, list | tuple) and 0 <= seat < len(values):
            return values[seat]
        return default


@runtime_checkable
class Engine(Protocol):
    """What the play layer, the front-ends' services and the tools ask of a game's rules:
    the contract a catalog entry's ``rules`` keeps (``Rules`` below implements it, and
    adds what search needs). Methods as ``Rules`` documents them."""

    slug: str
    name: str
    min_players: int
    max_players: int

    def setup(self, n_players: int, seed: int, options: JSON | None = None) -> Any: ...
    def to_act(self, state: Any) -> list[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[str]: ...
    def apply(self, state: Any, seat: int, action: str) -> list[JSON]: ...
    def view(self, state: Any, seat: int | None) -> View: ...
    def outcome(self, state: Any) -> Result | None: ...
    def stored_termination(self, data: JSON) -> Termination: ...
    def dump(self, state: Any) -> JSON: ...
    def load(self, data: JSON) -> Any: ...
    def n_players(self, state: Any) -> int: ...
    def check_players(self, n_players: int) -> None: ...


class Rules(Engine):
    """Base class of a game's rules object, keeping ``Engine``. Subclasses implement every
    method below."""

    slug: str = ""
    name: str = ""
    min_players: int = 0
    max_players: int = 0

    def setup(self, n_players: int, seed: int, options: JSON | None = None) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        """Seats whose decision is awaited now; several when choices are simultaneous."""
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[str]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: str) -> list[JSON]:
        """Apply an action in place and return the events, or raise IllegalAction
        leaving the state untouched."""
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> View:
        """What ``seat`` may know (None: a spectator). JSON-able."""
        raise NotImplementedError

    def outcome(self, state: Any) -> Result | None:
        """None while the game runs, then its ``Result``."""
        raise NotImplementedError

    def stored_termination(self, data: JSON) -> Termination:
        """Why the game of a dumped state ended, read from the dump without loading it:
        for results stored before they named their termination. Games with only one way
        to end need not override it."""
        return Termination.NORMAL

    def dump(self, state: Any) -> JSON:
        raise NotImplementedError

    def load(self, data: JSON) -> Any:
        raise NotImplementedError

    def clone(self, state: Any) -> Any:
        return self.load(self.dump(state))

    # -- for search: a fixed integer action space, a fast path, determinization ----------
    #
    # Strings stay the wire format (moves, buttons, logs); the ints never leave a process.
    # The defaults go through the strings; a game overrides them where playouts are hot.

    n_actions: int = 0  # the size of the integer action space: ids are 0..n_actions-1

    def action_id(self, action: str) -> int:
        """The id of a canonical action string (KeyError when it has none)."""
        raise NotImplementedError

    def action_str(self, action: int) -> str:
        raise NotImplementedError

    def legal_ids(self, state: Any, seat: int) -> list[int]:
        """``legal_actions`` as ids, in the same order."""
        return [self.action_id(a) for a in self.legal_actions(state, seat)]

    def apply_id(self, state: Any, seat: int, action: int) -> None:
        """Apply a legal action id for a playout: it may skip checks and build no events."""
        self.apply(state, seat, self.action_str(action))

    # True where ``playout`` is the game's own fused loop rather than the default below.
    fused_playout: bool = False

    def playout(self, state: Any, rng: random.Random) -> int:
        """Play ``state`` on to the end of the game in place with uniformly random choices
        (a seat among those to act, drawn only when several act, then an action among its
        ``legal_ids``) and return how many actions that took: a search's random playout.
        This default drives ``to_act``, ``legal_ids`` and ``apply_id`` with ``rng.choice``.
        A game may override it with one function that makes the same kind of choices
        without a method call per action (and set ``fused_playout``); a game that deals
        again during play then deals its future deals from ``rng``, never from the
        game's seed, since a playout is an imagined future."""
        return random_playout(self, state, rng)

    def determinize(self, view: JSON, history: Sequence[JSON], rng: random.Random) -> Any:
        """A full state consistent with everything ``view["seat"]`` has seen: its view and
        its observation history (every event it saw, from the start of the game). What it
        has not seen is dealt at random from ``rng`` under the known constraints, with a
        fresh seed for future deals. Reads nothing but its arguments."""
        return self.sampler(view, history)(rng)

    def sampler(self, view: JSON, history: Sequence[JSON]) -> Callable[[random.Random], Any]:
        """``determinize`` in two steps: read the view and history once, then draw as many
        states as wanted (a search draws one per iteration)."""
        raise NotImplementedError

    def utilities(self, state: Any) -> list[float]:
        """Each seat's utility of a finished game (see ``utilities``)."""
        return utilities(self.result(state).ranks)

    def result(self, state: Any) -> Result:
        """The ``Result`` of a game that is over (``outcome`` where it must be there)."""
        found = self.outcome(state)
        if found is None:
            raise ValueError("the game is not over: it has no result yet")
        return found

    def n_players(self, state: Any) -> int:
        raise NotImplementedError

    def check_players(self, n_players: int) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(
                f"{self.slug} is played by {self.min_players} to {self.max_players} players,"
                f" not {n_players}"
            )

    def require_turn(self, state: Any, seat: int) -> None:
        """Raise IllegalAction unless ``seat`` is among the seats to act."""
        if seat not in self.to_act(state):
            if self.outcome(state) is not None:
                raise IllegalAction("The game is over.")
            raise IllegalAction("It is not your turn.")


def random_playout(rules: Rules, state: Any, rng: random.Random) -> int:
    """``Rules.playout``'s default loop: uniformly random actions to the end of the game on
    the integer fast path, in place; the count of actions."""
    to_act, legal_ids, apply_id = rules.to_act, rules.legal_ids, rules.apply_id
    choice = rng.choice
    count = 0
    while acting := to_act(state):
        seat = acting[0] if len(acting) == 1 else choice(acting)
        apply_id(state, seat, choice(legal_ids(state, seat)))
        count += 1
    return count
