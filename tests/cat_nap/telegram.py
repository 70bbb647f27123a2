"""Cat Nap as text and buttons (the bot's renderer contract: ``bot.render``)."""

from __future__ import annotations

from bot.keyboard import Button
from bot.render.common import header, turn_marker


def table(view, ctx):
    naps = " · ".join(f"{ctx.name(s)} 💤{n}" for s, n in enumerate(view["naps"]))
    rows = [[Button("💤 Nap", ctx.move("nap")), Button("😺 Purr", ctx.move("purr"))]]
    return "\n".join([header(ctx), naps, turn_marker(ctx, view["to_act"])]), rows


def private(view, ctx):
    return None


def menu(view, ctx, prefix):
    return None


def event_line(ev, ctx):
    return f"{ctx.name(ev['seat'])} {ev['type']}s"


def notice(ev, ctx):
    return None


def score_label(result, seat, view=None):
    return f"💤{result.score(seat)}"


def toast(action, ctx):
    return action


def recent(events):
    return events
