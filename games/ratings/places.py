"""An ended game's places as everything counts them: the ratings, a tournament's round and
its standings, and the game's page (issue 45: the round, the page and the ratings once
disagreed on who came first).

The places are the game's: the engine's ranks, seat by seat, ties shared. One rule is
added, and every page that shows places says it: a seat its player forfeited
(``Seat.forfeits``: they did not show, stayed away until the timer handed the seat to a
computer, withdrew, or cancelled the running game) counts as the table's last place, n of
n, whatever the computer that played it did. The others keep the places they played to:
nobody moves up past a forfeit, so a person the game placed behind its winner is never
counted above the winner, and whoever came second of the game never gains as a winner.

An aborted game has no places, unless someone forfeited it by cancelling it while it ran:
then the forfeits are last and the others share first.
"""

from __future__ import annotations

from games.play.models import Game, GameStatus, Seat


def seat_places(game: Game, seats: list[Seat]) -> dict[int, int] | None:
    """seat number -> the place it counts for, or None when the game has no places."""
    n = len(seats)
    forfeits = {s.number for s in seats if s.forfeits}
    if game.status == GameStatus.FINISHED:
        result = game.outcome
        if result is None or result.n_seats < n:
            return None
        played = {s.number: result.ranks[s.number] for s in seats}
    elif game.status == GameStatus.ABORTED and forfeits:
        played = {s.number: 1 for s in seats}
    else:
        return None
    return {number: (n if number in forfeits else place) for number, place in played.items()}
