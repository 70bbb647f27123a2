"""Replaying a game from its move log: the log is the truth, the stored state a cache.

``steps`` walks the engine states (for checks inside the play layer); everyone else gets
views from ``views``, as from a ``Table``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engines.base import as_json
from games.play.models import Game, Move, MoveStatus
from games.play.processing import apply_move


def applied_moves(game: Game) -> list[Move]:
    return list(game.moves.filter(status=MoveStatus.APPLIED).order_by("seq"))


def steps(game: Game, moves: list[Move] | None = None) -> Iterator[tuple[Move | None, Any]]:
    """The state before any move (with ``None``), then after each applied move in order.
    The same state object is advanced in place: clone it to keep a step."""
    rules = game.kind.rules
    if game.seed is None:  # dealt when the game starts
        raise ValueError(f"game {game.pk} has not started: there is nothing to replay")
    state = rules.setup(game.seats.count(), game.seed, game.options)
    yield None, state
    for move in applied_moves(game) if moves is None else moves:
        apply_move(game.kind, state, move)
        yield move, state


def views(
    game: Game, moves: list[Move] | None = None, *, seats: bool = False
) -> Iterator[tuple[Move | None, dict, list[dict]]]:
    """The public view before any move (with ``None``) and after each applied move, with
    every seat's own view too when ``seats`` (for a caller that may reveal them: a game
    that is over)."""
    rules = game.kind.rules
    for move, state in steps(game, moves):
        n = rules.n_players(state)
        private = [as_json(rules.view(state, seat)) for seat in range(n)] if seats else []
        yield move, as_json(rules.view(state, None)), private


def replay(game: Game) -> Any:
    *_, (_last_move, state) = steps(game)
    return state


def matches_stored_state(game: Game) -> bool:
    rules = game.kind.rules
    return rules.dump(replay(game)) == game.state
