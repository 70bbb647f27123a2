"""Come Cani e Gatti's action cards as players read them, translated, in one place
(issue 44): the web table and the Telegram renderer both name a card and say what it does
from here.

The English words are the rules' own (``data.ACTION_CARDS``, which the card art draws:
it is pure and translates nothing); ``tests/games/test_issue_44_cards.py`` holds the
msgids here to those, so a card renamed in one place fails there.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

NAMES: dict[str, Promise] = {
    "shoo": pgettext_lazy("action card", "Shoo"),
    "wander": pgettext_lazy("action card", "Wander"),
    "switch": pgettext_lazy("action card", "Switch seats"),
    "snatch": pgettext_lazy("action card", "Snatch"),
    "bowl": pgettext_lazy("action card", "Pass the bowl"),
    "trade": pgettext_lazy("action card", "Trade a bite"),
    "swap": pgettext_lazy("action card", "Swap dinners"),
    "clean": pgettext_lazy("action card", "Clean the bowl"),
    "helping": pgettext_lazy("action card", "Second helping"),
}

DOES: dict[str, Promise] = {
    "shoo": gettext_lazy("Remove any one marker from an animal; it returns to its owner."),
    "wander": gettext_lazy("Move one of your markers to a free square of another animal."),
    "switch": gettext_lazy(
        "Swap one of your markers with another player's marker on a different animal."
    ),
    "snatch": gettext_lazy("Remove one food card from an animal and discard it."),
    "bowl": gettext_lazy("Move one food card from one animal to another."),
    "trade": gettext_lazy("Swap one food card of one animal with one of another animal."),
    "swap": gettext_lazy("Swap all food cards between two animals."),
    "clean": gettext_lazy("Discard all food cards of one animal."),
    "helping": gettext_lazy("Feed twice this turn, on two different animals."),
}


def name(code: str) -> str:
    """An action card's name in the active language (KeyError for no such card)."""
    return str(NAMES[code])


def does(code: str) -> str:
    """What an action card does, in the active language."""
    return str(DOES[code])
