"""The places a finished game gives its tournament table (issue 26: "a player who does not
show is forfeited for that round"; issue 45: the round agrees with its game).

The places are the game's, as the ratings and the game's page count them
(``games.ratings.places``): the engine's ranks, and a forfeit (a player who did not show,
whose seat a computer took when the round started; one who stayed away until the timer
handed the seat over; one who withdrew or cancelled the running game) counted last at the
table, n of n, whatever the computer playing the seat did. The others keep the places
they played to: a forfeit never lifts a loser above the game's winner. A game aborted
without anyone forfeiting (a moderator's abort) has no places: ``None``, and its players
count as having had a bye.
"""

from __future__ import annotations

from games.play.models import Game, GameStatus, Seat
from games.ratings.places import seat_places


def places(game: Game, seats: list[Seat]) -> dict[int, tuple[int, float | None]] | None:
    """player id -> (place, score) for an ended game, or None when it has no places."""
    placed = seat_places(game, seats)
    if placed is None:
        return None
    result = game.outcome if game.status == GameStatus.FINISHED else None
    out = {}
    for seat in seats:
        if seat.player_id is None:
            continue
        score = result.score(seat.number) if result else None
        out[seat.player_id] = (
            placed[seat.number],
            float(score) if isinstance(score, (int, float)) else None,
        )
    return out
