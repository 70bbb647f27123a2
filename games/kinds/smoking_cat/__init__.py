"""Smoking Cat: its catalog entry (a game's package: ``games.kinds``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.kinds import GameKind

from . import capabilities

KIND = GameKind(
    slug="smoking_cat",
    package=__name__,
    cover="LO",
    pictures={
        "S1": ("LA", "HA", "BA", "AA"),
        "S2": ("H7", "H8", "H9", "HX", "HU", "HO", "HK", "HA"),
        "S3": ("LO", "HA"),
    },
    name=_("Smoking Cat"),
    short_name=pgettext_lazy("short game name", "Smoking Cat"),
    emoji="🚬",
    aliases=("smokingcat", "smoking"),
    turn_seconds=60,
    # S15-S17: played for the letters of the league's word, fewer is better, and
    # moderators may award and remove letters.
    league_options=capabilities.LEAGUE_OPTIONS,
    moderator_moves=capabilities.MODERATOR_MOVES,
    scoring=capabilities.SCORING,
    progress=capabilities.PROGRESS,
    summary=(
        _(
            "4 players, 32 cards in four suits (🍃 leaves, ❤️ hearts, 🔔 bells, 🌰 acorns),"
            " ranked 7 8 9 10 U O K A."
        ),
        _(
            "Each deal: pass 3 cards to your left, then play 8 tricks; follow suit when you"
            " can. Hearts and the Ober of Leaves (🍃O, 10) are penalty points; the last trick"
            " adds 5."
        ),
        _(
            "The deal ends when the cards run out or someone reaches 17 points; a player may"
            " throw down to concede it. The loser gets the next letter of the word."
        ),
        _("Whoever spells the whole word loses the match."),
    ),
    interpretations=(
        (
            "S2",
            _(
                "Inside a suit the cards rank 7, 8, 9, 10, Unter, Ober, King, Ace. There are "
                "no trumps."
            ),
        ),
        (
            "S12",
            _(
                "Throwing down concedes the deal: the thrower takes every card still to be "
                "played, the trick on the table and the 5 points of the last trick, and "
                "receives the letter."
            ),
        ),
        (
            "S14",
            _(
                "When players tie for the most points and none of them took the Ober of "
                "Leaves, all of them lose the deal; the first of them clockwise after the "
                "previous dealer deals next."
            ),
        ),
        (
            "S17",
            _(
                "Reneges cannot happen here, so the table's penalty letter becomes a "
                "moderator's power: a moderator may award or remove a letter, with a reason "
                "that is recorded."
            ),
        ),
    ),
)
