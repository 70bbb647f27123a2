"""Felix: The Cat in the Sack: its catalog entry (a game's package: ``games.kinds``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.kinds import GameKind

KIND = GameKind(
    slug="felix",
    package=__name__,
    cover="sack",
    pictures={
        "F1": ("-8", "-5", "3", "5", "8", "11", "15", "R", "D", "d"),
        "F2": ("sack", "mouse:2", "mouse:3", "mouse:4", "mouse:6"),
        "F19": ("D", "d"),
    },
    name=_("Felix: The Cat in the Sack"),
    short_name=pgettext_lazy("short game name", "Felix"),
    emoji="🐱",
    aliases=(),
    turn_seconds=90,
    summary=(
        _(
            "3 to 5 players, 9 rounds. Everyone has the same 9 cards: cats worth -8 to 15,"
            " a rabbit and two dogs."
        ),
        _(
            "Each round everyone places a card face down; the first card of the row turns"
            " up. Then bid mice for the whole row, or pass: a pass takes back your bid plus"
            " the mice on the lowest mouse card, and turns the next card up."
        ),
        _(
            "The last bidder pays and takes the row. A lone dog chases a cat away (the big"
            " dog the best, the small dog the worst); two dogs chase each other."
        ),
        _("Score: your cats plus your mice. Your mice are secret: only you see them."),
    ),
    interpretations=(
        (
            "F10",
            _(
                "Everyone chooses their card at the same time; the row is laid out by seat, "
                "starting with the first player."
            ),
        ),
        (
            "F21",
            _(
                "After an auction each mouse card is topped up to its printed number; mice "
                "still on a card stay there."
            ),
        ),
    ),
)
