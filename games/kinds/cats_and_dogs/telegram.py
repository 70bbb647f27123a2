"""Come Cani e Gatti as text and buttons (view keys: games/kinds/cats_and_dogs/engine.py).

Action cards stay in their owner's private message until played; an action's targets are
chosen step by step (``bot.render.menus``), one token of the action string per step.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from bot.keyboard import Button, grid
from bot.render.common import (
    DEADLINE,
    MARKS,
    Ctx,
    event_lines,
    every_event,
    header,
    join,
    ranking,
    told,
)
from bot.render.menus import next_steps
from games.kinds.cats_and_dogs import cards
from games.kinds.cats_and_dogs.types import parse_action
from games.play.result import Result

recent = every_event  # the table shows every recent event

# What each token after the card's name stands for (the engine's action grammar).
GRAMMAR = {
    "shoo": ("animal", "seat"),
    "wander": ("animal", "animal"),
    "switch": ("animal", "animal", "seat"),
    "snatch": ("animal", "food"),
    "bowl": ("animal", "food", "animal"),
    "trade": ("animal", "food", "animal", "food"),
    "swap": ("animal", "animal"),
    "clean": ("animal",),
    "helping": (),
}


def card_name(code: str) -> str:
    return cards.name(code)


def action_card(code: str) -> str:
    return "🃏" + card_name(code)


def food(code: str) -> str:
    """🦴3 a bone worth 3, 🐟5 a fish worth 5."""
    return ("🦴" if code[0] == "b" else "🐟") + code[1:]


def mark(seat: int) -> str:
    return MARKS[seat % len(MARKS)]


def animal_name(view: dict, a: int) -> str:
    animal = view["animals"][a]
    return f"{a + 1} {'🐶' if animal['kind'] == 'dog' else '🐱'} {animal['name']}"


def _animal_line(view: dict, a: int) -> str:
    animal = view["animals"][a]
    free = animal["squares"] - len(animal["markers"])
    markers = "".join(mark(s) for s in animal["markers"]) + "▫️" * free
    plate = " ".join(food(c) for c in animal["food"]) or "—"
    sated = " ✅" if animal["sated"] else ""
    return f"{animal_name(view, a)} {markers}{sated} · {plate} = {animal['score']:+d}"


def _players(view: dict, ctx: Ctx) -> str:
    parts = [
        f"{mark(s)} {ctx.name(s)} {view['scores'][s]:+d} · ●{view['markers_left'][s]} · 🃏{n}"
        for s, n in enumerate(view["action_cards"])
    ]
    return "\n".join(parts)


def _step(view: dict, ctx: Ctx) -> str:
    seat = view["turn"]
    values = {"name": ctx.name(seat)}
    steps = {
        "mark": _("%(name)s places a marker"),
        "play": _("%(name)s feeds or plays an action card"),
        "feed": _("%(name)s puts the food on an animal"),
        "more": _("%(name)s draws more or stops"),
    }
    text = steps.get(view["phase"], "") % values
    if view["drawn"]:
        text += " · " + _("drawn: %(food)s") % {"food": food(view["drawn"])}
    if ctx.has_deadline and view["to_act"]:
        text += f" ⏱ {DEADLINE}"
    return text


def first_line(view: dict, ctx: Ctx) -> str:
    return header(ctx, "🍽 " + _("food left: %(count)d") % {"count": view["food_left"]})


def table(view: dict, ctx: Ctx):
    if view["over"]:
        return final_table(view, ctx), []
    lines = [first_line(view, ctx)]
    lines += [_animal_line(view, a) for a in range(len(view["animals"]))]
    lines += [_players(view, ctx), "▶ " + _step(view, ctx)]
    lines.append(event_lines([event_line(e, ctx) for e in ctx.events]))
    return join(lines), []


def final_table(view: dict, ctx: Ctx) -> str:
    lines = [first_line(view, ctx) + " · " + _("game over")]
    lines += [_animal_line(view, a) for a in range(len(view["animals"]))]
    scores = view["scores"]
    lines += ranking(ctx, view["ranks"], lambda s: f"{scores[s]:+d}")
    return join(lines)


def score_label(result: Result, seat: int, view: dict | None = None) -> str:
    return f"{int(result.score(seat) or 0):+d}"


# -- private -------------------------------------------------------------------------------


def private(view: dict, ctx: Ctx):
    if view["over"]:
        return final_table(view, ctx), []
    mine = ctx.seat in view["to_act"]
    lines = [first_line(view, ctx) + (" — <b>" + _("your turn") + "</b>" if mine else "")]
    lines += [_animal_line(view, a) for a in range(len(view["animals"]))]
    lines.append(
        _("You are %(mark)s · markers left: %(count)d")
        % {"mark": mark(ctx.own_seat), "count": view["markers_left"][ctx.own_seat]}
    )
    hand = " · ".join(action_card(c) for c in view["hand"]) or "—"
    lines.append(_("Your action cards:") + " " + hand)
    lines.append(event_lines([event_line(e, ctx) for e in ctx.events], limit=2))
    if not mine:
        lines.append("▶ " + _step(view, ctx))
        return join(lines), []
    return join([*lines, _prompt(view)]), _main_keyboard(view, ctx)


def _prompt(view: dict) -> str:
    if view["phase"] == "mark":
        return _("Place one of your markers on an animal.")
    if view["phase"] == "feed":
        return _("Put %(food)s on an animal.") % {"food": food(view["drawn"])}
    if view["phase"] == "more":
        return _("Draw another card for the same animal, or stop?")
    return _("Draw food to feed an animal, or play an action card.")


def _main_keyboard(view: dict, ctx: Ctx):
    legal = ctx.legal
    phase = view["phase"]
    if phase in ("mark", "feed"):
        buttons = [
            Button(animal_name(view, parse_action(a).animal or 0), ctx.move(a))
            for a in legal
            if a.startswith(phase + ":")
        ]
        return grid(buttons, 2)
    if phase == "more":
        return [
            [
                Button("🍽 " + _("More"), ctx.move("more")),
                Button("✋ " + _("Stop"), ctx.move("stop")),
            ]
        ]
    rows = [[Button("🍽 " + _("Draw food"), ctx.move("draw"))]]
    for code in sorted(set(view["hand"])):
        if code == "helping":
            if "helping" in legal:
                rows.append([Button(action_card(code), ctx.move("helping"))])
        elif any(a.startswith(code + ":") for a in legal):
            rows.append([Button(action_card(code) + "…", ctx.menu(code))])
    return rows


def menu(view: dict, ctx: Ctx, prefix: str):
    """Choose an action card's targets one at a time."""
    code = prefix.split(":", 1)[0]
    if code not in GRAMMAR or ctx.seat not in view["to_act"] or view["phase"] != "play":
        return None
    steps = next_steps(ctx.legal, prefix)
    if not steps:
        return None
    chosen = prefix.split(":")[1:]
    kind = GRAMMAR[code][len(chosen)]
    buttons = [
        Button(
            _token_label(view, ctx, kind, token),
            ctx.move(full) if full else ctx.menu(f"{prefix}:{token}"),
        )
        for token, full in steps
    ]
    rows = grid(buttons, 2 if kind == "animal" else 4)
    rows.append([ctx.back()])
    so_far = " → ".join(_token_label(view, ctx, GRAMMAR[code][i], t) for i, t in enumerate(chosen))
    question = {
        "animal": _("Which animal?"),
        "seat": _("Whose marker?"),
        "food": _("Which food card?"),
    }[kind]
    text = join(
        [first_line(view, ctx), action_card(code) + (f": {so_far}" if so_far else ""), question]
    )
    return text, rows


def _token_label(view: dict, ctx: Ctx, kind: str, token: str) -> str:
    if kind == "animal":
        return animal_name(view, int(token))
    if kind == "seat":
        return f"{mark(int(token))} {ctx.names[int(token)]}"
    return food(token)


# -- events, notices, toasts -----------------------------------------------------------------


# How Come Cani e Gatti's narration reads in Telegram (``games.narration``): an animal
# by its number on the table.
PIECES = {"food": food, "action": action_card, "animal": lambda place: str(int(place) + 1)}


def event_line(ev: dict, ctx: Ctx) -> str | None:
    return told(ev, ctx, PIECES)


def notice(ev: dict, ctx: Ctx) -> str | None:
    return None


def toast(action: str, ctx: Ctx | None) -> str:
    head = parse_action(action).verb
    texts = {
        "mark": _("Marker placed"),
        "draw": _("You draw a food card"),
        "feed": _("Fed"),
        "more": _("One more card"),
        "stop": _("You stop feeding"),
    }
    if head in texts:
        return texts[head]
    return _("You play %(card)s") % {"card": action_card(head)}
