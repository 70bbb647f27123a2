"""Renderers, one module per game, each with the same functions:

table(view, ctx) -> (text, rows)          the group's table message (public view)
private(view, ctx) -> (text, rows) | None the seat's private message (its own view)
menu(view, ctx, prefix) -> (text, rows) | None   a step of a multi-step choice
event_line(event, ctx) -> str | None      one line for the last-events list: the game's
                                          narration (``common.told``) with the module's
                                          ``PIECES``
notice(event, ctx) -> str | None          a new group message worth a notification
score_label(result, seat, view) -> str    a seat's score in the final result (``view``: the
                                          last public view)
toast(action, ctx) -> str                 the answer to a tap that made a move
recent(events) -> events                  the recent events the table shows of those it
                                          may (``common.every_event``: all of them)
"""

from types import ModuleType

from games import catalog


def renderer(slug: str) -> ModuleType:
    """The game's Telegram renderer, as its catalog entry names it."""
    return catalog.get(slug).renderer(catalog.TELEGRAM)
