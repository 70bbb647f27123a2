"""Computer players. Like the engines, pure Python: no Django, no Celery.

A player sees exactly what its seat may see: ``choose(view, legal, rng)`` gets the seat's
``view`` and its ``legal_actions`` and returns one of them. It never gets the state.
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import Protocol

STRATEGIES = ("random", "heuristic")


class Player(Protocol):
    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str: ...


class RandomPlayer:
    """Any legal action, uniformly."""

    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str:
        return rng.choice(legal)


def get_player(slug: str, strategy: str = "heuristic") -> Player:
    if strategy == "random":
        return RandomPlayer()
    if strategy != "heuristic":
        raise KeyError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
    return import_module(f"games.players.{slug}").HEURISTIC


def act(rules, state, seat: int, player: Player, rng: random.Random) -> str:
    """The action ``player`` picks for ``seat``, from the seat's view alone."""
    return player.choose(rules.view(state, seat), rules.legal_actions(state, seat), rng)
