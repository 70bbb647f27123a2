"""Bon Appétit! as text and buttons (view keys: games/kinds/bon_appetit/engine.py).

Nothing is hidden from anyone but the order of the face-down piles, which no view holds;
the Flip button lives on the table message and answers only the seat that must flip.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from bot.keyboard import Button
from bot.render.common import (
    Ctx,
    event_lines,
    every_event,
    header,
    join,
    ranking,
    told,
    turn_marker,
)
from games.play.result import Result

recent = every_event  # the table shows every recent event

SHOWN_ON_PILE = 6
SYMBOL = {"cheese": "🧀", "cat": "🐱", "mouse1": "🐭1", "mouse2": "🐭2", "mouse3": "🐭3"}


def card(name: str) -> str:
    """🧀 cheese, 🐱 cat, 🐭2 a mouse with two paws."""
    return SYMBOL[name]


def _piles(view: dict, ctx: Ctx) -> str:
    parts = []
    for seat, size in enumerate(view["piles"]):
        tokens = f" 🏅{view['tokens'][seat]}" if view["tokens"][seat] else ""
        mark = "▶ " if seat in view["to_act"] else ""
        parts.append(f"{mark}{ctx.name(seat)} 🂠{size}{tokens}")
    return " · ".join(parts)


def _common(view: dict) -> str:
    pile = view["common"]
    if not pile:
        return _("The common pile is empty.")
    shown = " ".join(card(c) for c in pile[-SHOWN_ON_PILE:])
    more = "… " if len(pile) > SHOWN_ON_PILE else ""
    return _("Common pile (%(count)d):") % {"count": len(pile)} + f" {more}{shown}"


def _chase(view: dict, ctx: Ctx) -> str:
    chase = view["chase"]
    if not chase:
        return ""
    values = {"name": ctx.name(chase["chaser"]), "flips": chase["flips_left"]}
    if chase["mouse_owner"] is None:
        return "🐭 " + _("%(name)s chases the mouse: %(flips)d flips left.") % values
    values["owner"] = ctx.name(chase["mouse_owner"])
    return "🐭 " + _("%(name)s chases %(owner)s's mouse: %(flips)d flips left.") % values


def table(view: dict, ctx: Ctx):
    if view["over"]:
        return final_table(view, ctx), []
    lines = [
        header(ctx, "🏅 " + _("left: %(left)d") % {"left": view["tokens_left"]}),
        _piles(view, ctx),
        _common(view),
        _chase(view, ctx),
        turn_marker(ctx, view["to_act"]),
        event_lines([event_line(e, ctx) for e in ctx.events]),
    ]
    rows = []
    if view["to_act"]:
        seat = view["to_act"][0]
        label = "🂠 " + _("Flip (%(name)s)") % {"name": ctx.names[seat]}
        rows.append([Button(label, ctx.move("flip"))])
    return join(lines), rows


def final_table(view: dict, ctx: Ctx) -> str:
    result = Result(tuple(view["piles"]), tuple(view["ranks"]), {"tokens": view["tokens"]})
    lines = [header(ctx, _("game over"))]
    lines += ranking(ctx, result.ranks, lambda s: score_label(result, s))
    return join(lines)


def score_label(result: Result, seat: int, view: dict | None = None) -> str:
    text = _("%(cards)d cards") % {"cards": result.score(seat)}
    tokens = result.detail("tokens", seat, 0)
    return text + (f" · 🏅{tokens}" if tokens else "")


def private(view: dict, ctx: Ctx):
    return None  # nothing is private in Bon Appétit: the table says it all


def menu(view: dict, ctx: Ctx, prefix: str):
    return None


# How Bon Appétit!'s narration reads in Telegram (``games.narration``).
PIECES = {"card": card}


def event_line(ev: dict, ctx: Ctx) -> str | None:
    return told(ev, ctx, PIECES)


def notice(ev: dict, ctx: Ctx) -> str | None:
    if ev["type"] != "token":
        return None
    return "🎉 " + _("%(name)s catches a mouse! 🏅 %(tokens)d · %(left)d left") % {
        "name": ctx.name(ev["seat"]),
        "tokens": ev["tokens"],
        "left": ev["left"],
    }


def toast(action: str, ctx: Ctx | None) -> str:
    return _("Flipped!")
