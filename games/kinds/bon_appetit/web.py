"""Bon Appétit! at the web table: the piles, the common pile with its cards, the chase.
Nothing is hidden but the order of the face-down piles, which no view holds (B15)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

TEMPLATE = "web/tables/bon_appetit.html"

# The replay page's words for this game's board (static/web/replay/bon_appetit.js).
REPLAY_LABELS = {
    "tokens": gettext_lazy("Tokens"),
    "common": gettext_lazy("Common pile"),
    "chase": gettext_lazy("Chase"),
    "flips_left": gettext_lazy("flips left"),
}
SHOWN_ON_PILE = 8
BOARD = ("pile",)  # the seat's own pile is the button that flips its top card


def card_label(code: str) -> str:
    names = {
        "cheese": _("cheese"),
        "cat": _("cat"),
        "mouse1": _("mouse 1"),
        "mouse2": _("mouse 2"),
        "mouse3": _("mouse 3"),
    }
    return names.get(code, code)


def legend_texts() -> list[str]:
    """What the deck's symbols mean, in the order of ``art.legend``."""
    return [
        _("Cheese: nothing happens"),
        _("Mouse: the next player chases it"),
        _("Paw prints: how many cards the chaser may turn up"),
        _("Cat: catches the mouse, wins the pile and a token"),
    ]


def option(parts: tuple[str, ...], view: dict, names: list[str]) -> tuple[str, str | None]:
    return _("Flip"), None


def picks(action: str, view: dict, names: list[str]) -> list[list[tuple[str, str]]]:
    """The one action, a flip, is one tap on the seat's own pile (``web.tables``)."""
    return [[("pile", _("Flip"))]]


def top_cards(view: dict) -> list[str]:
    return view["common"][-SHOWN_ON_PILE:]


def pieces(view: dict | None) -> dict:
    """How Bon Appétit!'s narration reads at the web table (``games.narration``)."""
    return {"card": card_label}


def score_text(result, seat: int, view: dict | None) -> str:
    text = _("%(cards)d cards") % {"cards": result.score(seat)}
    tokens = result.detail("tokens", seat, 0)
    if not tokens:
        return text
    # In words, not the bot's medal emoji: the web shows none (a system without an
    # emoji font draws a box).
    return text + " · " + ngettext("%(n)d token", "%(n)d tokens", tokens) % {"n": tokens}
