"""Replaying a game from its move log: the log is the truth, the stored state a cache."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games import catalog
from games.models import Game, Move, MoveStatus
from games.processing import apply_move


def applied_moves(game: Game) -> list[Move]:
    return list(game.moves.filter(status=MoveStatus.APPLIED).order_by("seq"))


def steps(game: Game, moves: list[Move] | None = None) -> Iterator[tuple[Move | None, Any]]:
    """The state before any move (with ``None``), then after each applied move in order.
    The same state object is advanced in place: clone it to keep a step."""
    rules = catalog.get(game.game_type).rules
    state = rules.setup(game.seats.count(), game.seed, game.options)
    yield None, state
    for move in applied_moves(game) if moves is None else moves:
        apply_move(rules, state, move)
        yield move, state


def replay(game: Game) -> Any:
    *_, (_last_move, state) = steps(game)
    return state


def matches_stored_state(game: Game) -> bool:
    rules = catalog.get(game.game_type).rules
    return rules.dump(replay(game)) == game.state
