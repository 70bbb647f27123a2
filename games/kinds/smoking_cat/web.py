"""Smoking Cat at the web table: the letters of the game word, the points of the deal, the
trick on the table, and the seat's own hand drawn with the German-suited deck, whose cards
are the buttons. Passing is three single taps, one card at a time (the engine's
``pass:<card>``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.kinds.smoking_cat.cards import (
    RANK_ORDER,
    SUIT_ORDER,
    card_label,
    french_name,
    rank_name,
    sort_key,
    suit_name,
)
from games.kinds.smoking_cat.types import PassCards, Play, parse_action

TEMPLATE = "web/tables/smoking_cat.html"

# The replay page's words for this game's board (static/web/replay/smoking_cat.js).
REPLAY_LABELS = {
    "letters": gettext_lazy("Letters"),
    "points": gettext_lazy("Points"),
    "deal": gettext_lazy("Deal"),
    "dealer": gettext_lazy("dealer"),
    "trick": gettext_lazy("Trick"),
    "last_trick": gettext_lazy("Last trick"),
    "passed_cards": gettext_lazy("passed"),
    "phase_pass": gettext_lazy("passing cards"),
    "phase_play": gettext_lazy("play"),
}
BOARD = ("hand",)  # the hand's cards are the buttons that play or pass them
CONFIRM = ("throw",)  # conceding the deal waits for Confirm: a slip would cost the deal


def legend_texts() -> list[str]:
    """What the German-suited deck's symbols mean, in the order of ``art.legend``: the
    suits with the French suits they stand for, the ranks low to high, the penalties."""
    suits = [
        _("%(suit)s (like %(french)s)") % {"suit": suit_name(s), "french": french_name(s)}
        for s in SUIT_ORDER
    ]
    like = {"U": _("Unter (like a Jack)"), "O": _("Ober (like a Queen)")}
    ranks = [like.get(r) or rank_name(r) for r in RANK_ORDER]
    return [*suits, *ranks, _("Penalty points (Hearts 1 to 5, Ober of Leaves 10)")]


def option(parts: tuple[str, ...], view: dict, names: list[str]) -> tuple[str, str | None]:
    verb = parts[0]
    if verb == "throw":
        return _("Throw down (concede the deal)"), None
    if len(parts) == 1:
        return {"pass": _("Pass"), "play": _("Play")}.get(verb, verb), None
    return card_label(parts[1]), parts[1]


def picks(action: str, view: dict, names: list[str]) -> list[list[tuple[str, str]]]:
    """The taps that make ``action`` (``web.tables.pick_tree``): a card is played, or
    passed, with one tap on it in the hand; throwing down is a button, then Confirm."""
    parsed = parse_action(action)
    if isinstance(parsed, Play):
        return [[(f"hand:{parsed.card}", card_label(parsed.card))]]
    if isinstance(parsed, PassCards):
        code = ",".join(parsed.cards)  # one card: the legal passes are chosen one at a time
        return [[(f"hand:{code}", card_label(code))]]
    return [[(action, option(("throw",), view, names)[0])]]


def pieces(view: dict | None) -> dict:
    """How Smoking Cat's narration reads at the web table (``games.narration``)."""
    return {"card": card_label}


def score_text(result, seat: int, view: dict | None) -> str:
    count = int(result.score(seat))
    word = (view or {}).get("word", "")
    return (
        (word[:count] or "–")
        + " · "
        + ngettext("%(count)d letter", "%(count)d letters", count) % {"count": count}
    )


def hand(view: dict) -> list[str]:
    return sorted(view.get("hand") or [], key=sort_key)
