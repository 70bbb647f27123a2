"""A game's table: the one door from a stored game to what each audience may see.

Front-ends, pages and moderators never decode an engine's state themselves: they open a
``Table`` and ask it for views, the seats to act and their legal actions. The state stays
inside; a view is all a seat (or a spectator, ``None``) may know.
"""

from __future__ import annotations

from typing import Any

from games import catalog
from games.engines import observations
from games.engines.base import as_json
from games.play.models import Game, GameStatus

# The events an audience (a seat, or ``None``: everyone) may see: each engine event names
# its audience, and the engines say who sees what.
seen_by = observations


class Table:
    def __init__(self, game: Game):
        self.game = game
        self.kind: catalog.GameKind = game.kind
        self.rules = self.kind.rules
        self._state: Any = self.rules.load(game.state) if game.state is not None else None

    @property
    def started(self) -> bool:
        return self._state is not None and self.game.status != GameStatus.LOBBY

    @property
    def running(self) -> bool:
        return self._state is not None and self.game.status == GameStatus.RUNNING

    def to_act(self) -> list[int]:
        """The seats whose decision is awaited (none unless the game is running)."""
        return self.rules.to_act(self._state) if self.running else []

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know now; ``None``: a spectator (the public view)."""
        return as_json(self.rules.view(self._state, seat))

    def legal(self, seat: int) -> list[str]:
        """The actions ``seat`` may take now (none unless it is among the seats to act)."""
        if seat not in self.to_act():
            return []
        return self.rules.legal_actions(self._state, seat)
