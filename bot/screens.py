"""What each audience of a game should see now, rendered from the engine's views.

``GameScreens`` loads a game once (seats, its ``Table``, recent events) and renders the
lobby, the group's table, a seat's private message (or one step of a menu), the notices due
since a move, and the final result. Renderers get views from the table, never a state.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from bot import transport
from bot.keyboard import Button, Rows, content_hash
from bot.render import lobby as lobby_render
from bot.render import renderer
from bot.render.common import DEADLINE, Ctx, format_left, header
from games.play import completion
from games.play.models import Game, GameStatus, Move, MoveStatus
from games.play.table import Table, seen_by
from server.links import absolute

RECENT_MOVES = 12


@dataclass
class Screen:
    text: str
    rows: Rows

    @property
    def hash(self) -> str:
        return content_hash(self.text, self.rows)


class GameScreens:
    def __init__(self, game: Game):
        self.game = game
        self.seats = list(game.seats.select_related("player").order_by("number"))
        self.render = renderer(game.game_type)
        self.game_table = Table(game)
        self._events: list[dict] | None = None

    # -- shared -------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """Seat labels in the language being rendered ("Computer" is translated)."""
        return [lobby_render.seat_label(s) for s in self.seats]

    @property
    def started(self) -> bool:
        return self.game_table.started

    def to_act(self) -> list[int]:
        return self.game_table.to_act()

    def seat(self, number: int):
        return next((s for s in self.seats if s.number == number), None)

    def human_seats(self):
        return [s for s in self.seats if s.player_id is not None]

    def recent_events(self) -> list[dict]:
        if self._events is None:
            # Up to the version rendered: a move applied since belongs to the next render,
            # and its events may show what this state still hides.
            moves = Move.objects.filter(
                game=self.game, status=MoveStatus.APPLIED, seq__lte=self.game.version
            ).order_by("-seq")
            events: list[dict] = []
            for move in reversed(list(moves.only("events")[:RECENT_MOVES])):
                events.extend(move.events or [])
            self._events = events
        return self._events

    def _ctx(self, seat: int | None, legal: list[str]) -> Ctx:
        events = self.render.recent(seen_by(self.recent_events(), seat))
        humans_to_act = [n for n in self.to_act() if not self.seat(n).is_computer]
        return Ctx(
            game_id=self.game.pk,
            version=self.game.version,
            game_type=self.game.game_type,
            names=self.names,
            seat=seat,
            legal=legal,
            events=events,
            has_deadline=self.game.deadline is not None and bool(humans_to_act),
        )

    def _screen(self, text: str, rows: Rows) -> Screen:
        """The countdown is filled in after hashing, so time passing alone edits nothing."""
        return Screen(text, rows or [])

    def fill(self, screen: Screen) -> str:
        left = format_left(self.game.deadline, timezone.now())
        return screen.text.replace(DEADLINE, left)

    # -- the group ----------------------------------------------------------------------
    def lobby(self) -> Screen:
        link = transport.deep_link(f"g{self.game.pk}")
        records = None
        if self.game.status == GameStatus.LOBBY:
            # Issue 26: every seated player's completion record, in one query.
            records = completion.records(s.player_id for s in self.seats)
        return self._screen(*lobby_render.lobby(self.game, self.seats, link, records))

    def table(self) -> Screen:
        if self.game.status == GameStatus.ABORTED:
            return self._screen(lobby_render.cancelled(self.game), [])
        ctx = self._ctx(None, [])
        text, rows = self.render.table(self.game_table.view(None), ctx)
        link = transport.miniapp_link(self.game.pk)
        if link and self.game.status == GameStatus.RUNNING:
            # In a group only a URL button can open a Mini App (a Direct Link one).
            rows = [*(rows or []), [Button("🃏 " + translation.gettext("Open table"), url=link)]]
        return self._screen(text, rows)

    def notices(self, after_seq: int) -> list[tuple[int, str]]:
        """(seq, text) of the notices due for moves after ``after_seq``."""
        out = []
        moves = Move.objects.filter(game=self.game, status=MoveStatus.APPLIED, seq__gt=after_seq)
        ctx = self._ctx(None, [])
        for move in moves.order_by("seq").only("seq", "events"):
            for ev in move.events or []:
                if seen_by([ev], None):
                    text = self.render.notice(ev, ctx)
                    if text and move.seq is not None:
                        out.append((move.seq, text))
        return out

    def final(self) -> str:
        return lobby_render.final(
            self.game, self.names, self.render.score_label, self.game_table.view(None)
        )

    def final_keyboard(self) -> Rows:
        """ "Play again" under the final result (issue 45): a new lobby of the same game in
        the group, its computers at the same levels; the people join it with a tap."""
        return [[Button("🔁 " + _("Play again"), data=f"n:{self.game.game_type}.{self.game.pk}")]]

    # -- a seat -------------------------------------------------------------------------
    def private(self, number: int, prefix: str | None = None) -> Screen | None:
        """A seat's private message; with ``prefix``, one step of a menu (None when that
        menu has nothing to offer now)."""
        if not self.started:
            return None
        seat = self.seat(number)
        if self.game.status == GameStatus.ABORTED:
            return self._screen(lobby_render.cancelled(self.game), [])
        if seat.replaced_by_computer and self.game.status == GameStatus.RUNNING:
            # The seat is not theirs any more: its cards are the computer's business.
            text = header(Ctx(self.game.pk, self.game.version, self.game.game_type, self.names))
            return self._screen(
                text + "\n🤖 " + translation.gettext("A computer plays your seat now."), []
            )
        view = self.game_table.view(number)
        legal = [] if seat.is_computer else self.game_table.legal(number)
        ctx = self._ctx(number, legal)
        shown = self.render.menu(view, ctx, prefix) if prefix else self.render.private(view, ctx)
        if shown is None and prefix is None and self.game.chat_id is None:
            # A tournament's table has no group message: a game that keeps nothing private
            # shows each player the table itself, with its buttons.
            shown = self.render.table(self.game_table.view(None), self._ctx(None, []))
        if shown is None:
            return None
        text, rows = shown
        if transport.miniapp_link(self.game.pk) and self.game.status == GameStatus.RUNNING:
            table_url = absolute("web:table", self.game.pk)
            rows = [
                *(rows or []),
                [Button("🃏 " + translation.gettext("Open table"), web_app=table_url)],
            ]
        return self._screen(text, rows)

    def view(self, number: int | None) -> dict:
        return self.game_table.view(number)
