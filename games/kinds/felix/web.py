"""Felix: The Cat in the Sack at the web table: the row under the cat-in-the-sack card,
the mouse cards and the bank, the auction's bids, and the viewer's own hand, mice and score
pile (F17: mice and score piles are secret, so only the viewer's own are in its view).

Face-down cards of the row are ``None`` in every view but their owner's ``my_card``; the
page draws nothing else of them."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.kinds.felix.types import Place, parse_action

TEMPLATE = "web/tables/felix.html"

# The replay page's words for this game's board (static/web/replay/felix.js).
REPLAY_LABELS = {
    "round": gettext_lazy("Round"),
    "row": gettext_lazy("Row"),
    "stake": gettext_lazy("Stake"),
    "passed": gettext_lazy("passed"),
    "mice": gettext_lazy("Mice"),
    "sacks": gettext_lazy("Sacks"),
    "bank": gettext_lazy("Bank"),
    "phase_place": gettext_lazy("placing cards"),
    "phase_auction": gettext_lazy("auction"),
}
BOARD = ("hand",)  # the hand's cards are the buttons that place them
# What goes by itself when it is the only legal action: the last card of the hand (F25:
# the ninth round), passing with no bid left to make (F12, F13).
AUTO = ("place", "pass")
MINUS = "\u2212"  # a true minus sign, as the card art prints it


def cat_value(code: str) -> int | None:
    """A cat's value from its code ("-8" ... "15"); None for the rabbit, dogs and others."""
    digits = code[1:] if code.startswith("-") else code
    return int(code) if digits.isdigit() else None


def card_label(code: str) -> str:
    value = cat_value(code)
    if value is not None:
        if value < 0:
            return _("bad cat %(value)s") % {"value": f"{MINUS}{-value}"}
        return _("cat %(value)s") % {"value": value}
    if code.startswith("mouse:"):
        return _("mouse card %(number)s") % {"number": code[6:]}
    names = {
        "R": _("rabbit"),
        "D": _("big dog"),
        "d": _("small dog"),
        "sack": _("the sack"),
    }
    return names.get(code, code)


def mice(n: int) -> str:
    return ngettext("%(n)d mouse", "%(n)d mice", n) % {"n": n}


def legend_texts() -> list[str]:
    """What the deck's symbols mean, in the order of ``art.legend``."""
    return [
        _("Big dog: chases the highest cat"),
        _("Small dog: chases the lowest cat"),
        _("Rabbit: worth 0, never chased"),
        _("Mouse card: the mice a player takes on passing"),
    ]


def option(parts: tuple[str, ...], view: dict, names: list[str]) -> tuple[str, str | None]:
    """``place:<card>`` is the card itself; ``bid:<n>`` is "Bid n". The board says what
    passing gains (an option does not see the view)."""
    head = parts[0]
    if head == "place":
        if len(parts) == 1:
            return _("Place a card"), None
        return card_label(parts[1]), parts[1]
    if head == "bid":
        if len(parts) == 1:
            return _("Bid"), None
        return _("Bid %(amount)d") % {"amount": int(parts[1])}, None
    if head == "pass":
        return _("Pass"), None
    return head, None


def picks(action: str, view: dict, names: list[str]) -> list[list[tuple[str, str]]]:
    """The taps that make ``action`` (``web.tables.pick_tree``): a card of the hand is
    placed with one tap on it; a bid, or passing, is one button under the board."""
    parsed = parse_action(action)
    if isinstance(parsed, Place):
        return [[(f"hand:{parsed.card}", card_label(parsed.card))]]
    return [[(action, option(tuple(action.split(":")), view, names)[0])]]


def pieces(view: dict | None) -> dict:
    """How Felix's narration reads at the web table (``games.narration``)."""
    return {"card": card_label, "mice": mice}


def score_text(result, seat: int, view: dict | None) -> str:
    text = str(result.score(seat))
    cats = result.detail("cat_points", seat)
    if cats is not None:
        text += " (" + _("cats %(points)d") % {"points": cats} + ")"
    return text
