"""Renderers, one module per game, each keeping ``TelegramRenderer``: what the bot asks of
a game to show its table, a seat's hand, a step of a choice and the events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from games import catalog

if TYPE_CHECKING:  # only for the annotations: common's helpers are not needed to load this
    from games.play.result import Result

    from ..keyboard import Rows
    from .common import Ctx

Message = tuple[str, "Rows"]


@runtime_checkable
class TelegramRenderer(Protocol):
    """A game's Telegram module (its catalog entry's ``renderers["telegram"]``)."""

    def table(self, view: dict, ctx: Ctx) -> Message:
        """The group's table message (public view)."""
        ...

    def private(self, view: dict, ctx: Ctx) -> Message | None:
        """The seat's private message (its own view)."""
        ...

    def menu(self, view: dict, ctx: Ctx, prefix: str) -> Message | None:
        """A step of a multi-step choice."""
        ...

    def event_line(self, ev: dict, ctx: Ctx) -> str | None:
        """One line for the last-events list: the game's narration (``common.told``)
        with the module's ``PIECES``."""
        ...

    def notice(self, ev: dict, ctx: Ctx) -> str | None:
        """A new group message worth a notification."""
        ...

    def score_label(self, result: Result, seat: int, view: dict | None = None) -> str:
        """A seat's score in the final result (``view``: the last public view)."""
        ...

    def toast(self, action: str, ctx: Ctx | None) -> str:
        """The answer to a tap that made a move."""
        ...

    def recent(self, events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """The recent events the table shows of those it may (``common.every_event``:
        all of them)."""
        ...


def renderer(slug: str) -> TelegramRenderer:
    """The game's Telegram renderer, as its catalog entry names it."""
    return cast(TelegramRenderer, catalog.get(slug).renderer(catalog.TELEGRAM))
