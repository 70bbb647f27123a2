"""The catalog of games: one entry per game with everything the rest of the code needs.

Nothing outside a game's own package names a game: the bot, the web pages, the admin,
the settings and the services look a game up here (``get(slug)``, ``all_games()``) and
read its facts. Adding a game is one package (``games.kinds``: its entry is the package's
``KIND``) and its name in ``PACKAGES`` below, whose order is the order games are offered in.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from games import art
from games.capabilities import ModeratorMove
from games.kinds import TELEGRAM, WEB, GameKind

__all__ = ["TELEGRAM", "WEB", "GameKind", "UnknownGame"]

PACKAGES = (
    "games.kinds.felix",
    "games.kinds.smoking_cat",
    "games.kinds.bon_appetit",
    "games.kinds.cats_and_dogs",
)


class UnknownGame(KeyError):
    """A slug that no catalog entry has."""


_GAMES: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    _GAMES[kind.slug] = kind
    # Its cards: ``games.art`` sits below the catalog and learns the decks from it.
    if kind.art:
        art.register(kind.slug, kind.art)
    return kind


def unregister(slug: str) -> None:
    """Take a game out of the catalog (tests register games of their own)."""
    _GAMES.pop(slug, None)
    art.unregister(slug)


def get(slug: str) -> GameKind:
    try:
        return _GAMES[slug]
    except KeyError:
        raise UnknownGame(slug) from None


def all_games() -> tuple[GameKind, ...]:
    return tuple(_GAMES.values())


def slugs() -> tuple[str, ...]:
    return tuple(_GAMES)


def choices() -> list[tuple[str, Any]]:
    """``(slug, name)`` pairs for model fields and forms (a callable, so that a new game
    needs no migration)."""
    return [(kind.slug, kind.name) for kind in _GAMES.values()]


def moderator_moves() -> tuple[ModeratorMove, ...]:
    """Every game's moderator moves, in catalog order, each value once."""
    found: dict[str, ModeratorMove] = {}
    for kind in _GAMES.values():
        for move in kind.moderator_moves:
            found.setdefault(move.value, move)
    return tuple(found.values())


def moderator_move(value: str) -> ModeratorMove | None:
    """The moderator's move some game declares under a stored value, or None."""
    return next((move for move in moderator_moves() if move.value == value), None)


def find(text: str) -> GameKind | None:
    """The game a person means by a slug or an alias (``smoking``, ``cani-e-gatti``)."""
    word = text.strip().lower().replace("-", "_")
    for kind in _GAMES.values():
        if word == kind.slug or word in kind.aliases:
            return kind
    return None


def install(package: str) -> GameKind:
    """Register the game a package declares as its ``KIND`` (how every game gets here,
    the tests' own included)."""
    return register(import_module(package).KIND)


for _package in PACKAGES:
    install(_package)
