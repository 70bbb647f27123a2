"""A player's completion record (issue 26): of their last started games, how many they
saw to the end. Shown on their public page and beside their name in lobbies, and a
league may ask a minimum of it to join its games.

How a game is told apart, from what the seat and the game record:

- **Against the player**: the game ended without them through their own doing. Their
  seat forfeits (``Seat.forfeits``: they cancelled the game while it ran, or stayed
  away until the timer handed the seat to a computer), or the table was cancelled
  because they, its only player, stopped playing (``AbortReason.ABANDONED``; the seat is
  still theirs, the step cancels the table instead of handing it over).
- **Finished**: the game finished with a result and the seat was still theirs.
- **Not counted at all**: a game with no other person at the table (issue 45): alone with
  computers, nobody waited on the player, so leaving it wronged nobody (a newcomer who
  stopped to read the rules read "Finished 0 of their last 1 games"). And everything else
  that ended, i.e. what was neither their result
  nor their doing. An aborted game in which they did not forfeit (a moderator's abort,
  the chat moved, another player cancelled it), and a seat a moderator or a ban handed
  to a computer (``replace_with_computer`` resets the timeouts, so it is no forfeit).
  Games still running are not counted yet, and lobbies never started are not games.

Fewer counted games than the window: the record is of those (a newcomer with three
finished games reads "3 of 3")."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import BooleanField, Case, Exists, F, OuterRef, Q, Value, When, Window
from django.db.models.functions import RowNumber

from games.play.models import AbortReason, GameStatus, Seat

WINDOW = 20  # the last this many counted games make the record


@dataclass(frozen=True)
class Completion:
    finished: int
    counted: int

    @property
    def percent(self) -> int | None:
        """Whole percent finished, or None before any counted game."""
        return round(100 * self.finished / self.counted) if self.counted else None

    def meets(self, minimum: int | None) -> bool:
        """Whether the record reaches ``minimum`` percent. A player with no counted game
        yet meets any minimum: a newcomer has nothing against them."""
        return minimum is None or self.percent is None or self.percent >= minimum


NONE = Completion(0, 0)


def _forfeits() -> Q:
    # ``Seat.forfeits`` in the database.
    return Q(forfeited=True) | Q(
        replaced_by_computer=True, timeouts__gte=settings.TIMEOUTS_BEFORE_COMPUTER
    )


def against() -> Q:
    """Seats whose game ended without the player through their own doing."""
    return _forfeits() | Q(game__abort_reason=AbortReason.ABANDONED, replaced_by_computer=False)


def counted() -> Q:
    """Seats that count for the record: against the player, or finished by them."""
    return against() | Q(game__status=GameStatus.FINISHED, replaced_by_computer=False)


def with_others() -> Exists:
    """Seats at a table where another person sat too: only there did anyone wait on them."""
    others = Seat.objects.filter(game_id=OuterRef("game_id"), player__isnull=False)
    return Exists(others.exclude(player_id=OuterRef("player_id")))


def records(player_ids) -> dict[int, Completion]:
    """The completion record of each player, in one query whatever their number: each
    player's counted seats numbered newest first (a window function), the first
    ``WINDOW`` of each kept. Players without counted games are left out (``NONE``)."""
    ids = {pid for pid in player_ids if pid is not None}
    if not ids:
        return {}
    rows = (
        Seat.objects.filter(
            counted(), with_others(), player_id__in=ids, game__started_at__isnull=False
        )
        .annotate(
            lost=Case(
                When(against(), then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
            n=Window(
                RowNumber(),
                partition_by=[F("player_id")],
                order_by=[F("game__started_at").desc(), F("game_id").desc()],
            ),
        )
        .filter(n__lte=WINDOW)
        .values_list("player_id", "lost")
    )
    tally: dict[int, list[int]] = {}
    for player_id, lost in rows:
        finished, total = tally.setdefault(player_id, [0, 0])
        tally[player_id] = [finished + (not lost), total + 1]
    return {pid: Completion(f, n) for pid, (f, n) in tally.items()}


def record(player_id: int) -> Completion:
    return records([player_id]).get(player_id, NONE)
