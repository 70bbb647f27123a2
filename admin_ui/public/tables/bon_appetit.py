"""Bon Appétit! at the web table: the piles, the common pile with its cards, the chase.
Nothing is hidden but the order of the face-down piles, which no view holds (B15)."""

from __future__ import annotations

from django.utils.translation import gettext as _

TEMPLATE = "web/tables/bon_appetit.html"
SHOWN_ON_PILE = 8


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


def top_cards(view: dict) -> list[str]:
    return view["common"][-SHOWN_ON_PILE:]


def event_text(ev: dict, names: list[str], view: dict) -> str | None:
    kind = ev["type"]

    def name(seat):
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    if kind == "flip":
        return _("%(name)s turns up %(card)s.") % {
            "name": name(ev["seat"]),
            "card": card_label(ev["card"]),
        }
    if kind in ("chase_start", "chase_pass"):
        return _("%(name)s must catch it in %(flips)d flips!") % {
            "name": name(ev["chaser"]),
            "flips": ev["flips_left"],
        }
    if kind == "chase_end":
        if ev["result"] == "caught":
            return _("Caught! %(name)s wins the pile.") % {"name": name(ev["winner"])}
        if ev["winner"] is None:
            return _("The mouse got away; nobody wins the pile.")
        return _("The mouse got away: %(name)s wins the pile.") % {"name": name(ev["winner"])}
    if kind == "game_end" and ev.get("reason") in ("repeat", "flip_limit"):
        return _("The cards went round in a circle: the game ends here (B13a).")
    if kind == "pile_won":
        return _("%(name)s takes %(cards)d cards.") % {
            "name": name(ev["seat"]),
            "cards": ev["cards"],
        }
    return None


def score_text(result, seat: int, view: dict | None) -> str:
    text = _("%(cards)d cards") % {"cards": result.score(seat)}
    tokens = result.detail("tokens", seat, 0)
    return text + (f" · 🏅{tokens}" if tokens else "")
