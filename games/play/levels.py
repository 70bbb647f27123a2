"""Computer levels as people see them: the ladder, beginner to hard, each with its measured
rating (issues 14 and 47).

A seat stores the name of the strategy that plays it (``Seat.strategy``); the levels are
five of those names (``games.computers.LADDER``), the first three people chose from
(easy, normal, hard) among them, so stored seats and leagues keep their players. Seats
stored before the levels say ``heuristic``, the same player as ``normal``, and are shown as
normal. ``random`` (and any strategy a game names otherwise) is no level: it is shown
without one. A level's rating (``games.computers.ladder``) is on the scale of people's
ratings, measured at the game's usual table size (or the table's own, when known).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games import catalog
from games.computers import LADDER, LEVELS, ladder
from games.play.models import Game, Seat

NORMAL = "normal"
# The older name of the normal player, kept by seats stored before the levels.
_ALIASES = {"heuristic": NORMAL}
LABELS = {
    "beginner": _("beginner"),
    "easy": _("easy"),
    "normal": _("normal"),
    "strong": _("strong"),
    "hard": _("hard"),
}
# For model fields (a league's handover level): the first three, as stored since issue 14.
CHOICES = [(level, LABELS[level]) for level in LEVELS]


def offered(kind: catalog.GameKind) -> list[str]:
    """The levels a game's computers come in (none for a game with only the random one)."""
    names = kind.strategies()
    return [level for level in LADDER if level in names]


def level_of(strategy: str) -> str | None:
    """The level a stored strategy plays at, or None if it is no level."""
    strategy = _ALIASES.get(strategy, strategy)
    return strategy if strategy in LADDER else None


def strategy_for(kind: catalog.GameKind, level: str | None) -> str:
    """The strategy to store for a level chosen by a person or a league. Normal is stored
    as the game's everyday player (``heuristic``, the name seats have always stored), as
    is a level the game lacks (or none chosen)."""
    return level if level != NORMAL and level in offered(kind) else kind.default_strategy


def next_level(level: str | None) -> str:
    """The level after ``level``, round the ladder (the lobby's level button cycles)."""
    if level not in LADDER:
        return NORMAL
    return LADDER[(LADDER.index(level) + 1) % len(LADDER)]


def rating(kind: catalog.GameKind, level: str | None, players: int | None = None) -> int | None:
    """A level's measured rating in a game (None: no level, or not yet measured)."""
    return ladder.rating(kind.slug, level, players or kind.table_players)


def with_rating(kind: catalog.GameKind, level: str, players: int | None = None) -> str:
    """A level as offered: "hard · 1650" (its name alone while unmeasured)."""
    points = rating(kind, level, players)
    name = str(LABELS[level])
    return f"{name} · {points}" if points is not None else name


def choices(kind: catalog.GameKind, players: int | None = None) -> list[tuple[str, str]]:
    """The levels a game offers, each with its rating, weakest first (the lobby's menus)."""
    return [(level, with_rating(kind, level, players)) for level in offered(kind)]


def at_my_level(kind: catalog.GameKind, person: int, players: int | None = None) -> str:
    """The offered level whose rating is nearest ``person``'s ("Play at my level"; normal
    when none is measured)."""
    found = ladder.nearest(kind.slug, offered(kind), person, players or kind.table_players)
    return found or NORMAL


def label(strategy: str) -> str:
    """A strategy's level in the active language, or "" for no level."""
    level = level_of(strategy)
    return str(LABELS[level]) if level else ""


def seat_level(seat: Seat) -> str:
    """The level shown beside a seat's name: a computer's, or the one that took a
    person's seat over; "" for a person playing. (The name alone: a rating beside every
    seat of every message would be noise; the lobbies, where levels are chosen, show it.)"""
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
