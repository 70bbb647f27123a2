"""Bon Appétit!: its catalog entry (a game's package: ``games.kinds``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.kinds import GameKind

KIND = GameKind(
    slug="bon_appetit",
    package=__name__,
    cover="mouse2",
    pictures={
        "B1": ("cheese", "mouse1", "mouse2", "mouse3", "cat"),
    },
    name=_("Bon Appétit!"),
    short_name=pgettext_lazy("short game name", "Bon Appétit!"),
    emoji="🐭",
    aliases=("bonappetit", "bon"),
    turn_seconds=30,
    private_hands=False,  # B15: nothing is hidden but the order of the piles
    auto_play=True,  # B15: there are no decisions, a flip is all a seat can do
    summary=(
        _(
            "2 to 6 players. Everyone has a face-down pile; in turn, flip your top card onto"
            " the common pile."
        ),
        _(
            "A mouse (🐭1–3 paws) must be caught: the next player flips that many cards. A cat"
            " 🐱 catches it and wins the pile and a 🏅; only cheese 🧀 and the mouse's owner"
            " wins the pile. Another mouse passes the chase on."
        ),
        _("The game ends with the last 🏅 or when someone cannot flip. Most cards wins."),
    ),
    interpretations=(
        (
            "B13a",
            _(
                "A hand-stacked table can flip forever: when the position repeats one seen"
                " earlier in the game (every pile, the common pile, the tokens, whose turn"
                " it is and any chase), the game ends at once, the common pile belongs to"
                " nobody and the players are ranked as usual. A game also ends after"
                " 2,000 flips, which no shuffled deal has come near."
            ),
        ),
        (
            "B2",
            _("The 18 mouse cards: six each with 1, 2 and 3 paw prints."),
        ),
        (
            "B3",
            _(
                "With 2 or 3 players the red-backed deck is used: 29 cheese, 9 mice (three of"
                " each paw count) and 7 cats, with 5 tokens."
            ),
        ),
        (
            "B5",
            _("A random player starts."),
        ),
        (
            "B10",
            _(
                "A won pile goes under the winner's own pile as a whole, so its bottom card "
                "is the first of them to come up again."
            ),
        ),
        (
            "B12",
            _(
                "If the card that starts the game is a mouse, the starting player chases it; "
                "if that chase ends in cheese, nobody wins the pile."
            ),
        ),
    ),
)
