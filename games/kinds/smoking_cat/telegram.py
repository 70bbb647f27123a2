"""Smoking Cat as text and buttons (view keys: games/kinds/smoking_cat/engine.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bot.keyboard import Button, grid
from bot.render.common import Ctx, event_lines, header, join, ranking, told, turn_marker
from games.kinds.smoking_cat.cards import sort_key
from games.kinds.smoking_cat.types import PassCards, Play, Throw, parse_action
from games.play.result import Result

SUIT_EMOJI = {"L": "🍃", "H": "❤️", "B": "🔔", "A": "🌰"}


def card(code: str) -> str:
    """🍃O is the Ober of Leaves; ranks 7 8 9 10 U O K A."""
    rank = "10" if code[1] == "X" else code[1]
    return SUIT_EMOJI[code[0]] + rank


def cards(codes) -> str:
    return " ".join(card(c) for c in codes) or "—"


def _letters(view: dict, ctx: Ctx) -> str:
    parts = [f"{ctx.name(s)} {letters or '–'}" for s, letters in enumerate(view["letters"])]
    return "🔤 " + " · ".join(parts)


def _points(view: dict, ctx: Ctx) -> str:
    parts = [f"{ctx.name(s)} {p}" for s, p in enumerate(view["points"])]
    line = _("Points this deal:") + " " + " · ".join(parts)
    if view["taken_ober"] is not None:
        line += " · " + _("%(card)s taken by %(name)s") % {
            "card": card("LO"),
            "name": ctx.name(view["taken_ober"]),
        }
    return line


def _trick(view: dict, ctx: Ctx) -> str:
    played = [f"{ctx.name(s)} {card(c)}" for s, c in view["trick"]]
    line = _("Trick:") + " " + (" · ".join(played) if played else "—")
    return join([line, turn_marker(ctx, view["to_act"])]).replace("\n", " · ")


def _last_trick(view: dict, ctx: Ctx) -> str:
    if not view["last_trick"]:
        return ""
    return (
        _("Last trick:")
        + " "
        + " · ".join(f"{ctx.name(s)} {card(c)}" for s, c in view["last_trick"])
    )


def _previous(view: dict, ctx: Ctx) -> str:
    prev = view["previous"]
    if not prev or view["trick"] or view["last_trick"]:
        return ""
    return _("Deal %(deal)d was lost by %(names)s.") % {
        "deal": prev["deal"],
        "names": ", ".join(ctx.name(s) for s in prev["losers"]),
    }


def first_line(view: dict, ctx: Ctx) -> str:
    return header(
        ctx,
        _("deal %(deal)d") % {"deal": view["deal"]},
        _("word %(word)s") % {"word": view["word"]},
    )


def table(view: dict, ctx: Ctx):
    if view["phase"] == "over":
        return final_table(view, ctx), []
    lines = [first_line(view, ctx), _letters(view, ctx)]
    if view["phase"] == "pass":
        done = [f"{ctx.name(s)} ✅" for s in range(4) if view["passed"][s]]
        lines.append(_previous(view, ctx))
        lines.append(_("Passing 3 cards to the left:") + " " + (" · ".join(done) or "—"))
        lines.append(turn_marker(ctx, view["to_act"]))
    else:
        lines += [_points(view, ctx), _trick(view, ctx), _last_trick(view, ctx)]
    lines.append(event_lines([event_line(e, ctx) for e in ctx.events]))
    return join(lines), []


def final_table(view: dict, ctx: Ctx) -> str:
    lines = [header(ctx, _("match over"))]
    lines += ranking(ctx, view["ranks"], lambda s: view["letters"][s] or "–")
    return join(lines)


def score_label(result: Result, seat: int, view: dict | None = None) -> str:
    count = int(result.score(seat) or 0)
    word = (view or {}).get("word", "")
    return (
        (word[:count] or "–")
        + " · "
        + ngettext("%(count)d letter", "%(count)d letters", count) % {"count": count}
    )


# -- private -------------------------------------------------------------------------------


def private(view: dict, ctx: Ctx):
    if view["phase"] == "over":
        return final_table(view, ctx), []
    mine = ctx.seat in view["to_act"]
    lines = [first_line(view, ctx) + (" — <b>" + _("your turn") + "</b>" if mine else "")]
    lines.append(_letters(view, ctx))
    hand = sorted(view["hand"], key=sort_key)
    if view["phase"] == "pass":
        return _passing(view, ctx, lines, hand, mine)
    lines += [_points(view, ctx), _trick(view, ctx), _last_trick(view, ctx)]
    lines.append(_("Your hand:") + " " + cards(hand))
    lines.append(event_lines([event_line(e, ctx) for e in ctx.events], limit=2))
    if not mine:
        return join(lines), []
    plays = [(p.card, a) for a in ctx.legal if isinstance(p := parse_action(a), Play)]
    buttons = [Button(card(code), ctx.move(a)) for code, a in sorted(plays, key=_by_card)]
    rows = grid(buttons, 4)
    if "throw" in ctx.legal:
        rows.append([Button("🏳 " + _("Throw down…"), ctx.menu("throw"))])
    return join(lines), rows


def _passing(view: dict, ctx: Ctx, lines: list[str], hand: list[str], mine: bool):
    left = ctx.name((ctx.own_seat + 1) % 4)
    lines.append(_("Your hand:") + " " + cards(hand))
    if not mine:
        lines.append(
            _("You passed %(cards)s to %(name)s.")
            % {
                "cards": cards(view["passed_cards"]),
                "name": left,
            }
        )
        if view["received"]:
            lines.append(_("You received: %(cards)s") % {"cards": cards(view["received"])})
        lines.append(turn_marker(ctx, view["to_act"]))
        return join(lines), []
    # One card at a time (the engine's pass:<card>): a tap passes that card.
    chosen = view.get("passed_cards") or []
    lines.append(_("Choose 3 cards to pass to %(name)s.") % {"name": left})
    lines.append(_("Selected:") + " " + cards(chosen))
    # One card each: the legal passes are chosen one at a time.
    passes = [
        (",".join(p.cards), a) for a in ctx.legal if isinstance(p := parse_action(a), PassCards)
    ]
    buttons = [Button(card(code), ctx.move(a)) for code, a in sorted(passes, key=_by_card)]
    return join(lines), grid(buttons, 4)


def menu(view: dict, ctx: Ctx, prefix: str):
    if prefix != "throw" or "throw" not in ctx.legal:
        return None
    text = join(
        [
            first_line(view, ctx),
            _("Throw down? You take every card still in play and lose this deal."),
        ]
    )
    rows = [[Button("🏳 " + _("Yes, throw down"), ctx.move("throw")), ctx.back()]]
    return text, rows


# -- events, notices, toasts -----------------------------------------------------------------


def recent(events: list[dict]) -> list[dict]:
    """Only this deal's events: cards of an earlier deal say nothing now, and are not shown
    beside the new hands."""
    for i in range(len(events) - 1, -1, -1):
        if events[i]["type"] == "deal":
            return events[i:]
    return events


# How Smoking Cat's narration reads in Telegram (``games.narration``).
PIECES = {"card": card, "cards": " ".join}


def event_line(ev: dict, ctx: Ctx) -> str | None:
    return told(ev, ctx, PIECES)


def notice(ev: dict, ctx: Ctx) -> str | None:
    if ev["type"] != "deal_end":
        return None
    reasons = {
        "throw": _("threw down"),
        "reached_17": _("17 points or more"),
        "all_played": _("all cards played"),
    }
    points = " · ".join(f"{ctx.name(s)} {p}" for s, p in enumerate(ev["points"]))
    return join(
        [
            "📝 " + (event_line(ev, ctx) or "") + f" ({reasons.get(ev['reason'], ev['reason'])})",
            _("Points:") + " " + points,
        ]
    )


def _by_card(pair: tuple[str, str]) -> tuple[int, int]:
    return sort_key(pair[0])


def toast(action: str, ctx: Ctx | None) -> str:
    parsed = parse_action(action)
    if isinstance(parsed, PassCards):
        return _("Cards passed")
    if isinstance(parsed, Throw):
        return _("You throw down")
    return _("You play %(card)s") % {"card": card(parsed.card)}
