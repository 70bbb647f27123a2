"""Felix: The Cat in the Sack, as text and buttons (view keys: games/kinds/felix/engine.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bot.keyboard import Button, grid
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
from games.kinds.felix.types import Bid, Place, parse_action
from games.play.result import Result

recent = every_event  # the table shows every recent event

QUICK_RAISES = (1, 2, 5)
BIDS_PER_PAGE = 40


def card(code: str | None) -> str:
    """A card as a short symbol in brackets: [11], [🐰], [🐕] big dog, [🐶] small dog."""
    if code is None:
        return "[??]"
    return "[" + {"R": "🐰", "D": "🐕", "d": "🐶"}.get(code, code) + "]"


def cards(codes) -> str:
    return " ".join(card(c) for c in codes) or "—"


def mice(n: int) -> str:
    return ngettext("%(n)d mouse", "%(n)d mice", n) % {"n": n}


def _round(view: dict) -> str:
    return _("round %(round)d/%(rounds)d") % view


def _row(view: dict, ctx: Ctx) -> str:
    if not view["row"]:
        return ""
    return "🎒 " + " ".join(card(c) for c in view["row"])


def _mouse_cards(view: dict) -> str:
    loaded = " · ".join(str(on) for _number, on in view["mouse_cards"])
    return "🐭 " + _("on the mouse cards: %(cards)s · bank: %(bank)d") % {
        "cards": loaded,
        "bank": view["bank"],
    }


def _bids(view: dict, ctx: Ctx) -> str:
    parts = []
    for seat in range(view["n_players"]):
        if view["passed"][seat]:
            parts.append(_("%(name)s passed") % {"name": ctx.name(seat)})
        elif view["stakes"][seat]:
            parts.append(f"{ctx.name(seat)} {view['stakes'][seat]}")
        elif seat != view["turn"]:
            parts.append(ctx.name(seat))
    line = " · ".join(parts)
    return join([line, turn_marker(ctx, view["to_act"])]).replace("\n", " · ")


def _placing(view: dict, ctx: Ctx) -> str:
    done = [f"{ctx.name(s)} ✅" for s in range(view["n_players"]) if view["placed"][s]]
    line = _("Placing a card:") + " " + " · ".join(done) if done else _("Placing a card.")
    return join([line, turn_marker(ctx, view["to_act"])])


def _sacks(view: dict, ctx: Ctx) -> str:
    counts = " · ".join(f"{ctx.name(s)} {n}" for s, n in enumerate(view["sacks"]))
    return "👜 " + _("sacks: %(counts)s") % {"counts": counts}


def first_line(view: dict, ctx: Ctx) -> str:
    return header(ctx, _round(view), _("first: %(name)s") % {"name": ctx.name(view["first"])})


def table(view: dict, ctx: Ctx):
    if view["over"]:
        return final_table(view, ctx), []
    body = [first_line(view, ctx), _row(view, ctx), _mouse_cards(view)]
    body.append(_placing(view, ctx) if view["phase"] == "place" else _bids(view, ctx))
    body.append(_sacks(view, ctx))
    body.append(event_lines([event_line(e, ctx) for e in ctx.events]))
    return join(body), []


def final_table(view: dict, ctx: Ctx) -> str:
    lines = [header(ctx, _("game over"))]
    result = Result.from_json({k: view[k] for k in ("scores", "ranks", "cat_points") if k in view})
    lines += ranking(ctx, result.ranks, lambda s: score_label(result, s))
    return join(lines)


def score_label(result: Result, seat: int, view: dict | None = None) -> str:
    text = str(result.score(seat))
    cats = result.detail("cat_points", seat)
    if cats is not None:
        text += " (" + _("cats %(points)d") % {"points": cats} + ")"
    return text


# -- private -------------------------------------------------------------------------------


def private(view: dict, ctx: Ctx):
    if view["over"]:
        return final_table(view, ctx), []
    mine = ctx.seat in view["to_act"]
    status = _("your turn") if mine else ""
    lines = [first_line(view, ctx) + (f" — <b>{status}</b>" if status else "")]
    highest = view["highest_bid"]
    info = "🐭 " + _("Your mice: %(mice)d") % {"mice": view["mice"]}
    if highest:
        info += " · " + _("highest bid: %(name)s %(amount)d") % {
            "name": ctx.name(view["highest_bidder"]),
            "amount": highest,
        }
    lines.append(info)
    lines.append(_("Your hand:") + " " + cards(view["hand"]))
    if view["my_card"] is not None:
        lines.append(_("Your card this round:") + " " + card(view["my_card"]))
    lines.append(_row(view, ctx))
    if view["score_pile"]:
        lines.append(_("Your sacks:") + " " + cards(view["score_pile"]))
    lines.append(_("Left out of your set:") + " " + card(view["missing"]))
    lines.append(event_lines([event_line(e, ctx) for e in ctx.events], limit=2))
    if not mine:
        lines.append(turn_marker(ctx, view["to_act"]))
        return join(lines), []
    if view["phase"] == "place":
        lines.append(_("Choose the card to place face down."))
        places = [(p, a) for a in ctx.legal if isinstance(p := parse_action(a), Place)]
        buttons = [Button(card(p.card), ctx.move(a)) for p, a in places]
        return join(lines), grid(buttons, 5)
    return join(lines), auction_keyboard(view, ctx)


def _bid_amounts(legal: list[str]) -> list[int]:
    return [p.mice for a in legal if isinstance(p := parse_action(a), Bid)]


def auction_keyboard(view: dict, ctx: Ctx):
    amounts = _bid_amounts(ctx.legal)
    rows = []
    if view["last_offer"]:
        if amounts:
            rows.append([Button(_("Buy the row for 1 mouse"), ctx.move("bid:1"))])
    elif amounts:
        quick = [view["highest_bid"] + r for r in QUICK_RAISES]
        quick = [a for a in quick if a in amounts]
        row = [Button(_("Bid %(amount)d") % {"amount": a}, ctx.move(f"bid:{a}")) for a in quick]
        if len(amounts) > len(quick):
            row.append(Button(_("Other…"), ctx.menu("bid")))
        rows.append(row)
    if "pass" in ctx.legal:
        gain = view["stakes"][ctx.seat] + view["pass_gain"]
        label = _("Pass: take back your bid, +%(gain)d 🐭") % {"gain": gain}
        if not view["stakes"][ctx.seat]:
            label = _("Pass: +%(gain)d 🐭") % {"gain": gain}
        rows.append([Button(label, ctx.move("pass"))])
    return rows


def menu(view: dict, ctx: Ctx, prefix: str):
    """The custom bid amount: every legal amount, a page at a time."""
    base, _sep, offset = prefix.partition("@")
    if base != "bid" or ctx.seat not in view["to_act"]:
        return None
    amounts = _bid_amounts(ctx.legal)
    start = int(offset) if offset.isdigit() else 0
    page = amounts[start : start + BIDS_PER_PAGE]
    if not page:
        return None
    rows = grid([Button(str(a), ctx.move(f"bid:{a}")) for a in page], 8)
    nav = [ctx.back()]
    if start + BIDS_PER_PAGE < len(amounts):
        nav.append(Button(_("More") + " ›", ctx.menu(f"bid@{start + BIDS_PER_PAGE}")))
    rows.append(nav)
    text = join([first_line(view, ctx), _("How many mice do you bid in total?")])
    return text, rows


# -- events, notices, toasts -----------------------------------------------------------------


# How Felix's narration reads in Telegram (``games.narration``).
PIECES = {"card": card, "cards": " ".join, "mice": mice}


def event_line(ev: dict, ctx: Ctx) -> str | None:
    return told(ev, ctx, PIECES)


def notice(ev: dict, ctx: Ctx) -> str | None:
    return None  # every round shows on the table; only the final result is announced


def toast(action: str, ctx: Ctx | None) -> str:
    parsed = parse_action(action)
    if isinstance(parsed, Place):
        return _("Card placed: %(card)s") % {"card": card(parsed.card)}
    if isinstance(parsed, Bid):
        return _("Bid %(amount)s placed") % {"amount": parsed.mice}
    return _("You pass")
