"""Come Cani e Gatti: its catalog entry (a game's package: ``games.kinds``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.kinds import GameKind

KIND = GameKind(
    slug="cats_and_dogs",
    package=__name__,
    cover="animal:0",
    pictures={
        "C1": ("animal:0", "animal:9"),
        "C2": ("b1", "b6", "f1", "f6"),
        "C20a": ("shoo",),
        "C20b": ("wander",),
        "C20c": ("switch",),
        "C20d": ("snatch",),
        "C20e": ("bowl",),
        "C20f": ("trade",),
        "C20g": ("swap",),
        "C20h": ("clean",),
        "C20i": ("helping",),
    },
    name=_("Come Cani e Gatti"),
    short_name=pgettext_lazy("short game name", "Come Cani e Gatti"),
    emoji="🐶",
    aliases=("catsanddogs", "cani", "canigatti", "cani_e_gatti"),
    turn_seconds=90,
    summary=(
        _("2 to 6 players, twice as many animals on the table."),
        _(
            "Your turn: place a marker on an animal (if you can), then feed — draw food and"
            " put it on any animal, draw more for the same one, or stop — or play one of your"
            " 3 secret action cards."
        ),
        _(
            "Dogs like bones 🦴, cats like fish 🐟: the favourite food adds, the other"
            " subtracts. An animal with 5 cards is sated."
        ),
        _("At the end each of your markers scores its animal's total. Highest total wins."),
    ),
    interpretations=(
        (
            "C1",
            _(
                "Each species has three animals with 1 marker square, three with 2 and three "
                "with 3."
            ),
        ),
        (
            "C19",
            _("Players tied for the highest total share the victory."),
        ),
        (
            "C20",
            _(
                "The nine action cards, two of each: Shoo (remove any marker), Wander (move "
                "your marker to another animal), Switch seats (swap your marker with another "
                "player's), Snatch (discard one food card), Pass the bowl (move a food card "
                "to another animal), Trade a bite (swap two food cards), Swap dinners (swap "
                "all food of two animals), Clean the bowl (discard all food of an animal) and"
                " Second helping (feed twice this turn)."
            ),
        ),
    ),
)
