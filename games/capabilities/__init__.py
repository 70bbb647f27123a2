"""What a game adds to the generic code, declared on its catalog entry (``GameKind``) and
called by the play layer, moderation, the leagues and the pages without their knowing
which game it is. A game that declares nothing gets the defaults: no moderator moves,
scores that are points where more is better, no league options, nothing shown of its
running games on a league's page.

``ModeratorMove``  a move a moderator may make on a seat of a running game, with a reason
                   (``GameKind.moderator_moves``): how the processor applies it to the
                   engine's state, what the moderation log keeps, the permission it needs
``Scoring``        how the game's scores read (``GameKind.scoring``): whether fewer is
                   better, and what the pages call a score that is not points
``LeagueOption``   a game option a league gives its games (``GameKind.league_options``)
``Progress``       what a league's page shows of the game's running matches
                   (``GameKind.progress``)

A game's own capabilities live in its own module here (``games.capabilities.<slug>``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

Text = Promise | str


class Refused(Exception):
    """A moderator's move that cannot be made now. ``games.moderation`` shows its message
    (translatable, filled with ``params``) to the moderator."""

    code = "refused"
    message: Text = _("That is not possible now.")

    def __init__(self, message: Text | None = None, **params: Any):
        self.params = params
        if message is not None:
            self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return str(self.message) % self.params if self.params else str(self.message)


class ModeratorMove:
    """A move a moderator makes on a seat of a running game, with a reason. It is recorded
    in the move log like any move (``Move.action`` is ``value``, the source "moderator"),
    so the game still replays exactly, and in the moderation log (``ModerationAction.kind``
    is ``value`` too).

    ``value`` is stored: it never changes once a game has used it. ``permission`` is the
    codename, in the ``games`` app, of the permission that allows it; ``permission_label``
    names it for the admin. A game's moves take their permissions from the catalog: the
    rows are made after each migrate (``games.moderation.models``, on ``post_migrate``),
    so a new game needs no migration."""

    value: str = ""
    label: Text = ""  # the moderation log's word for it
    description: Text = ""  # the admin's action, with the rule's clause ID
    permission: str = ""
    permission_label: Text = ""

    def apply(self, rules: Any, state: Any, seat: int, note: str) -> list[dict]:
        """Apply the move to an engine state, in place: the engine's events, or its
        ``IllegalAction``. The processor and replays call it alike."""
        raise NotImplementedError

    def audit(self, view: dict, seat: int) -> dict:
        """Before the move is recorded: what the moderation log keeps about it, read from
        the table's public view with every earlier move applied; raises ``Refused`` when
        the move cannot be made now."""
        return {}


@dataclass(frozen=True)
class Scoring:
    """How a game's scores read. The labels are for scores that are not points (None:
    the pages' own words for points)."""

    lower_is_better: bool = False
    heading: Text | None = None  # a results table's score column
    average: Text | None = None  # a player's average per game
    column: Text | None = None  # the standings' average column, short
    column_title: Text | None = None  # what that column means, in full


@dataclass(frozen=True)
class LeagueOption:
    """A game option that a league gives its games: the option's name for the engine,
    the ``League`` field that holds it, and what a league's page calls it."""

    option: str
    field: str
    label: Text


@dataclass(frozen=True)
class Progress:
    """What a league's page shows of the game's running matches: under ``heading``, each
    seat's part of a target (a word, say), both read from the public view by ``marks``."""

    heading: Text
    marks: Callable[[dict], tuple[str, list[str]]]
