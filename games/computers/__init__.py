"""Computer players. Like the engines, pure Python: no Django, no Celery.

A strategy sees exactly what its seat may see: ``choose(view, legal, rng, history=())``
gets the seat's ``view``, its ``legal_actions`` and, for strategies that ask for it, its
observation history (every event the seat was allowed to see, in order, from the start of
the game: ``games.engines.observations``), and returns one of the legal actions. It never
gets the state.

A strategy that needs the history says so with ``needs_history = True``; for the others
the caller need not gather it (and they are still called with ``(view, legal, rng)``).

Each game's module here exposes ``STRATEGIES``, its strategies by name: the ladder's
levels ``beginner``, ``easy``, ``normal`` (``heuristic`` is the same object: stored seats
use that name), ``strong`` and ``hard`` (search; ``games.computers.levels``, issue 47);
``random`` plays every game. The catalog (``games.catalog``) names the module of
each game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from importlib import import_module
from typing import Any, Protocol

from games.engines.base import JSON, Rules, as_json

RANDOM = "random"
# The three levels people chose from first (issue 14): a league's handover level is one.
LEVELS = ("easy", "normal", "hard")
# The ladder, weakest first (issue 47): each level is measured on the rating scale.
LADDER = ("beginner", "easy", "normal", "strong", "hard")


class Strategy(Protocol):
    needs_history: bool

    def choose(
        self, view: JSON, legal: list[str], rng: random.Random, history: Sequence[JSON] = ()
    ) -> str: ...


class RandomStrategy:
    """Any legal action, uniformly."""

    needs_history = False

    def choose(
        self, view: JSON, legal: list[str], rng: random.Random, history: Sequence[JSON] = ()
    ) -> str:
        return rng.choice(legal)


def needs_history(strategy: Strategy) -> bool:
    """Whether ``strategy`` wants the seat's observation history (older ones lack the flag)."""
    return getattr(strategy, "needs_history", False)


def strategies(module: str | None) -> dict[str, Strategy]:
    """Every strategy of a game's computers module (``None``: a game with none of its own)."""
    # Loaded by name, as the catalog names it: a game's module is imported when first used.
    own = import_module(module).STRATEGIES if module else {}
    return {RANDOM: RandomStrategy(), **own}


def act(
    rules: Rules,
    state: Any,
    seat: int,
    strategy: Strategy,
    rng: random.Random,
    history: Sequence[JSON] = (),
) -> str:
    """The action ``strategy`` picks for ``seat``, from the seat's view (and, for those
    that need it, its observation history) alone."""
    view, legal = as_json(rules.view(state, seat)), rules.legal_actions(state, seat)
    if needs_history(strategy):
        return strategy.choose(view, legal, rng, history)
    return strategy.choose(view, legal, rng)
