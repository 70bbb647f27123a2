"""Renderers, one module per game, each with the same functions:

table(view, ctx) -> (text, rows)          the group's table message (public view)
private(view, ctx) -> (text, rows) | None the seat's private message (its own view)
menu(view, ctx, prefix) -> (text, rows) | None   a step of a multi-step choice
event_line(event, ctx) -> str | None      one line for the last-events list
notice(event, ctx) -> str | None          a new group message worth a notification
score_label(result, seat) -> str          a seat's score in the final result
toast(action, ctx) -> str                 the answer to a tap that made a move
"""

from importlib import import_module
from types import ModuleType

MODULES = {
    "felix": "bot.render.felix",
    "smoking_cat": "bot.render.smoking_cat",
    "bon_appetit": "bot.render.bon_appetit",
    "cats_and_dogs": "bot.render.cats_and_dogs",
}


def renderer(slug: str) -> ModuleType:
    return import_module(MODULES[slug])
