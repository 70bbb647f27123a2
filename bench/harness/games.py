"""The catalog games a bench picks, by what the bench needs of a game."""

from __future__ import annotations

from games import catalog


def swiss_game() -> str:
    """The Swiss's game: the catalog's first whose tables may be smaller and larger than
    4, so that the pairing has every table size to choose among."""
    return next(k.slug for k in catalog.all_games() if k.min_players <= 3 and k.max_players >= 5)


def arena_game() -> str:
    """The Arena's game: the catalog's first played at one table size only, so that the
    lobby seats only full tables."""
    return next(k.slug for k in catalog.all_games() if k.min_players == k.max_players)
