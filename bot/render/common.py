"""Pieces shared by the renderers: the context a renderer gets, names, seats, deadlines,
ranks. Renderers read engine views only (never a state) and return text plus a keyboard.

Text is Telegram HTML: everything that comes from users (names) is escaped here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext as _

from bot import callbacks
from bot.keyboard import Button
from games import catalog, narration
from games.ratings.display import Shown

# The sync step replaces this with the time left, after hashing the text: the countdown
# alone never makes an edit.
DEADLINE = "\x00deadline\x00"
MARKS = ("🔴", "🔵", "🟢", "🟡", "🟣", "🟠")
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


@dataclass
class Ctx:
    """What a renderer knows besides the view."""

    game_id: int
    version: int
    game_type: str
    names: list[str]  # display names by seat number, not escaped
    seat: int | None = None  # the audience: a seat, or None for the group
    legal: list[str] = field(default_factory=list)  # the audience's legal actions
    events: list[dict] = field(default_factory=list)  # recent events it may see, oldest first
    has_deadline: bool = False

    @property
    def own_seat(self) -> int:
        """The audience's seat, for what only a seat is shown (its private message)."""
        if self.seat is None:
            raise ValueError("a seat's message rendered for the group")
        return self.seat

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return html.escape(self.names[seat])

    def move(self, action: str) -> str:
        return callbacks.move(self.game_id, self.version, action)

    def menu(self, prefix: str = "") -> str:
        return callbacks.menu(self.game_id, self.version, prefix)

    def back(self) -> Button:
        return Button("‹ " + _("Back"), self.menu(""))


def esc(text: object) -> str:
    return html.escape(str(text))


def title(slug: str, short: bool = False) -> str:
    """A game's emoji and name in bold: "🐱 <b>Name</b>"."""
    kind = catalog.get(slug)
    return f"{kind.emoji} <b>{esc(kind.short_name if short else kind.name)}</b>"


def header(ctx: Ctx, *parts: str) -> str:
    return " · ".join([title(ctx.game_type, short=True), *parts])


def turn_marker(ctx: Ctx, seats: list[int]) -> str:
    """ "▶ Anna ⏱ 1:30" for the seats to act."""
    if not seats:
        return ""
    who = ", ".join(ctx.name(s) for s in seats)
    return f"▶ {who}" + (f" ⏱ {DEADLINE}" if ctx.has_deadline else "")


def format_left(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return ""
    seconds = max(0, int((deadline - now).total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def every_event(events: list[dict]) -> list[dict]:
    """A renderer's ``recent`` for a game whose table shows every recent event."""
    return events


def told(ev: dict, ctx: Ctx, pieces: dict) -> str | None:
    """One event as the game's narration tells it (``games.narration``), its pieces as
    ``pieces`` says they read in Telegram (card family or amount unit -> text)."""
    return narration.tell(
        catalog.get(ctx.game_type).narrate(ev), translate=_, seat=ctx.name, formats=pieces
    )


def event_lines(lines: Sequence[str | None], limit: int = 3) -> str:
    """The last ``limit`` events told (an event the game does not tell is None)."""
    told = [line for line in lines if line][-limit:]
    return "\n".join(f"<i>{line}</i>" for line in told)


def ranking(ctx: Ctx, ranks: Sequence[int], score_label) -> list[str]:
    """One line per seat, best first: medal, name, score (``score_label(seat)``)."""
    order = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    return [
        f"{MEDALS.get(ranks[s], f'{ranks[s]}.')} {ctx.name(s)} — {score_label(s)}" for s in order
    ]


def join(parts) -> str:
    return "\n".join(part for part in parts if part)


def rating_text(shown: Shown) -> str:
    """A shown rating in a message (``games.ratings.display``), marked when provisional."""
    if shown.provisional:
        return _("rating %(rating)d (provisional)") % {"rating": shown.value}
    return _("rating %(rating)d") % {"rating": shown.value}
