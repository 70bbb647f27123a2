"""A person's move recorded in one statement, when it is legal.

Each processing step stores, beside the game's state, the legal actions of every person
the game waits for (``Game.legal``, by seat). A submission then checks and records the move
in one statement on PostgreSQL: the row is inserted only if its seat belongs to that
person, is still theirs (not handed to a computer), the game runs and the action is among
the seat's legal ones. At a table of people every move is a submission, so this halves what
a tap costs the database (issue 16).

It is a fast path, never the judge: when it records nothing (a refusal, a redelivered
update, a game whose first step has not run yet, or SQLite) the submission takes the path
that reads the game and says why (``services.submit_move``), and the processor still has
the last word on every move.
"""

from __future__ import annotations

import functools
from typing import cast

from django.db import connection
from django.db.models import Field
from django.utils import timezone

from games.play.models import Game, GameStatus, Move, MoveSource, MoveStatus, Seat


def legal_by_seat(rules, state, seats: dict[int, Seat]) -> dict[str, list[str]] | None:
    """What ``Game.legal`` holds: each waiting person's legal actions, by seat number (JSON
    keys are text). None when the game waits for nobody."""
    legal = {
        str(n): rules.legal_actions(state, n)
        for n in rules.to_act(state)
        if not seats[n].is_computer
    }
    return legal or None


# The move's own columns, given as parameters (the game and seat come from the seat's row).
GIVEN = (
    "key",
    "action",
    "source",
    "seen_version",
    "status",
    "reason",
    "note",
    "events",
    "created_at",
)


@functools.cache
def _statement() -> str:
    move, seat, game = Move._meta, Seat._meta, Game._meta

    def column(opts, name: str) -> str:
        return connection.ops.quote_name(opts.get_field(name).column)

    columns = [column(move, f) for f in ("game", "seat", *GIVEN)]
    values = ["s.game_id", "s.number", *["%s"] * len(GIVEN)]
    # Only the models' own table and column names are formatted in; values are parameters.
    return (
        f"WITH new AS (INSERT INTO {move.db_table} ({', '.join(columns)})"  # noqa: S608
        f" SELECT {', '.join(values)}"
        f" FROM {seat.db_table} s JOIN {game.db_table} g ON g.id = s.game_id"
        f" WHERE s.game_id = %s AND s.player_id = %s AND NOT s.replaced_by_computer"
        f" AND g.status = %s AND (g.{column(game, 'legal')} -> s.number::text) ? %s"
        f" ON CONFLICT DO NOTHING"
        f" RETURNING id, {column(move, 'seat')}, {column(move, 'game')})"
        f" SELECT new.id, new.{column(move, 'seat')}, g.{column(game, 'game_type')}"
        f" FROM new JOIN {game.db_table} g ON g.id = new.{column(move, 'game')}"
    )


def record_if_legal(
    game_id: int, player_id: int, action: str, key: str, seen_version: int | None
) -> Move | None:
    """Record the move if the table makes it legal now: one statement. None when nothing
    was recorded (not legal, not known to be, or a key already used)."""
    if connection.vendor != "postgresql":
        return None
    move = Move(
        game_id=game_id,
        key=key,
        action=action,
        source=MoveSource.HUMAN,
        seen_version=seen_version,
        status=MoveStatus.PENDING,
        created_at=timezone.now(),
    )
    given = [
        cast(Field, Move._meta.get_field(name)).get_db_prep_save(getattr(move, name), connection)
        for name in GIVEN
    ]
    params = [*given, game_id, player_id, GameStatus.RUNNING, action]
    with connection.cursor() as cursor:
        cursor.execute(_statement(), params)
        row = cursor.fetchone()
    if row is None:
        return None
    move.pk, move.seat, game_type = row
    # The game as far as this statement read it; its other fields load when first read.
    move.game = Game.from_db(connection.alias, ["id", "game_type"], [game_id, game_type])
    return move
