"""Computer levels as people see them: easy, normal and hard (issue 14).

A seat stores the name of the strategy that plays it (``Seat.strategy``); the levels are
three of those names. Seats stored before the levels say ``heuristic``, the same player as
``normal``, and are shown as normal. ``random`` (and any strategy a game names otherwise)
is no level: it is shown without one.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games import catalog
from games.computers import LEVELS
from games.play.models import Game, Seat

NORMAL = "normal"
# The older name of the normal player, kept by seats stored before the levels.
_ALIASES = {"heuristic": NORMAL}
LABELS = {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")}
# For model fields (a league's handover level).
CHOICES = [(level, LABELS[level]) for level in LEVELS]


def offered(kind: catalog.GameKind) -> list[str]:
    """The levels a game's computers come in (none for a game with only the random one)."""
    names = kind.strategies()
    return [level for level in LEVELS if level in names]


def level_of(strategy: str) -> str | None:
    """The level a stored strategy plays at, or None if it is no level."""
    strategy = _ALIASES.get(strategy, strategy)
    return strategy if strategy in LEVELS else None


def strategy_for(kind: catalog.GameKind, level: str | None) -> str:
    """The strategy to store for a level chosen by a person or a league. Normal is stored
    as the game's everyday player (``heuristic``, the name seats have always stored), as
    is a level the game lacks (or none chosen)."""
    return level if level != NORMAL and level in offered(kind) else kind.default_strategy


def next_level(level: str | None) -> str:
    """The level after ``level``, round the three (the lobby's level button cycles)."""
    if level not in LEVELS:
        return NORMAL
    return LEVELS[(LEVELS.index(level) + 1) % len(LEVELS)]


def label(strategy: str) -> str:
    """A strategy's level in the active language, or "" for no level."""
    level = level_of(strategy)
    return str(LABELS[level]) if level else ""


def seat_level(seat: Seat) -> str:
    """The level shown beside a seat's name: a computer's, or the one that took a
    person's seat over; "" for a person playing."""
    return label(seat.strategy) if seat.is_computer else ""


def with_level(name: str, seat: Seat) -> str:
    """A seat's name as shown everywhere, its level beside it: "Computer 2 (hard)"."""
    level = seat_level(seat)
    return f"{name} ({level})" if level else name


def handover_strategy(game: Game) -> str:
    """The strategy of a seat handed to a computer mid-game (its player timed out too often,
    was banned or handed over by a moderator): its league's level, normal outside leagues."""
    level = game.league.computer_level if game.league is not None else NORMAL
    return strategy_for(game.kind, level)
