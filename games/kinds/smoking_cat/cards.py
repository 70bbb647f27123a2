"""Smoking Cat's cards as players read them, in one place (issue 44): the order a hand is
sorted in, and each suit's and rank's name, translated, which the web table and Telegram
both use.

The English words are the card art's (``art.RANK_NAMES``, ``art.FRENCH``: it is pure and
translates nothing); ``tests/games/test_issue_44_cards.py`` holds the msgids here to
those.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

SUIT_ORDER = "LHBA"
RANK_ORDER = "789XUOKA"

SUITS: dict[str, Promise] = {
    "L": gettext_lazy("Leaves"),
    "H": gettext_lazy("Hearts"),
    "B": gettext_lazy("Bells"),
    "A": gettext_lazy("Acorns"),
}
# The French suit each German one stands for (the legend says so).
FRENCH: dict[str, Promise] = {
    "L": gettext_lazy("Spades"),
    "H": gettext_lazy("Hearts"),
    "B": gettext_lazy("Diamonds"),
    "A": gettext_lazy("Clubs"),
}
RANKS: dict[str, Promise | str] = {
    "X": "10",
    "U": gettext_lazy("Unter"),
    "O": gettext_lazy("Ober"),
    "K": gettext_lazy("King"),
    "A": gettext_lazy("Ace"),
}


def sort_key(code: str) -> tuple[int, int]:
    """A hand's order: by suit, then rank low to high."""
    return SUIT_ORDER.index(code[0]), RANK_ORDER.index(code[1])


def suit_name(code: str) -> str:
    return str(SUITS[code])


def french_name(code: str) -> str:
    return str(FRENCH[code])


def rank_name(code: str) -> str:
    return str(RANKS.get(code, code))


def card_label(code: str) -> str:
    """ "Ober of Leaves", "7 of Hearts"."""
    return _("%(rank)s of %(suit)s") % {"rank": rank_name(code[1]), "suit": suit_name(code[0])}
