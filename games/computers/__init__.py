"""Computer players. Like the engines, pure Python: no Django, no Celery.

A strategy sees exactly what its seat may see: ``choose(view, legal, rng)`` gets the seat's
``view`` and its ``legal_actions`` and returns one of them. It never gets the state.

Each game's module here exposes ``STRATEGIES``, its strategies by name; ``random`` plays
every game. The catalog (``games.catalog``) names the module of each game.
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import Protocol

RANDOM = "random"


class Strategy(Protocol):
    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str: ...


class RandomStrategy:
    """Any legal action, uniformly."""

    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str:
        return rng.choice(legal)


def strategies(module: str | None) -> dict[str, Strategy]:
    """Every strategy of a game's computers module (``None``: a game with none of its own)."""
    # Loaded by name, as the catalog names it: a game's module is imported when first used.
    own = import_module(module).STRATEGIES if module else {}
    return {RANDOM: RandomStrategy(), **own}


def act(rules, state, seat: int, strategy: Strategy, rng: random.Random) -> str:
    """The action ``strategy`` picks for ``seat``, from the seat's view alone."""
    return strategy.choose(rules.view(state, seat), rules.legal_actions(state, seat), rng)
