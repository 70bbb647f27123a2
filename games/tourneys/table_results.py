"""A finished table's places for the tournament (issue 26: "a player who does not show is
forfeited for that round").

A player who stays away times out until the play layer hands their seat to a computer: the
seat then forfeits (``Seat.forfeits``, as the ratings read it), and so does one who
cancelled the running game. A forfeit is last at the table, whatever the computer playing
the seat did; forfeits share that place. A game aborted without anyone forfeiting (a
moderator's abort) has no places: ``None``, and its players count as having had a bye.
"""

from __future__ import annotations

from games.play.models import Game, GameStatus, Seat
from games.tournaments.results import TableResult


def places(game: Game, seats: list[Seat]) -> dict[int, tuple[int, float | None]] | None:
    """player id -> (place, score) for an ended game, or None when it has no places."""
    forfeits = any(s.forfeits for s in seats)
    if game.status == GameStatus.ABORTED and not forfeits:
        return None
    result = game.outcome if game.status == GameStatus.FINISHED else None
    keys = {}
    for seat in seats:
        if seat.player_id is None:
            continue
        rank = result.ranks[seat.number] if result else 1
        keys[seat.player_id] = (seat.forfeits, rank)
    out = {}
    for player, key in keys.items():
        # Competition ranks (1, 1, 3) among the table's people, so a forfeit placed
        # behind every seat is still a place the table has.
        place = 1 + sum(1 for other in keys.values() if other < key)
        score = result.score(_seat_of(seats, player).number) if result else None
        out[player] = (place, float(score) if isinstance(score, (int, float)) else None)
    return out


def _seat_of(seats: list[Seat], player_id: int) -> Seat:
    return next(s for s in seats if s.player_id == player_id)


def table_result(players: list[int], ranks: list[int]) -> TableResult:
    return TableResult(tuple(players), tuple(ranks))
