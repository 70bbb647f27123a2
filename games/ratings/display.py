"""The rating people see: openskill's estimate on a familiar, Elo-like scale.

The stored figure is openskill's ordinal (mu - 3 sigma): it starts at 0 and a newcomer's
first losses take it below zero ("Rating -5.9"), which reads as a fault. Every page, bot
message, admin list and JSON shows ``shown(...)`` instead; the stored values never change,
so this is presentation only and can be retuned without touching a rating.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.ratings.maths import MODEL

# Where a newcomer starts (ordinal 0): the number Elo-rated games made familiar.
CENTRE = 1500
# Points per unit of ordinal: openskill's starting spread, sigma0 = 25/3, becomes 200
# points, the width of an Elo rating class (1500 to 1700 is one class up). So the
# uncertainty a newcomer starts with reads as "about one class either way", and a
# settled average player (mu 25, sigma near 2) stands a few classes above a newcomer.
POINTS_PER_UNIT = 200 / MODEL.sigma
# Nobody reads below this: a floor, like the Elo floors of chess federations, so no
# run of losses ever shows a negative (or near-zero) number.
FLOOR = 100
# A rating on fewer rated games than this is marked provisional. openskill's sigma
# shrinks slowly in free-for-all games (about 8.3 to 6.9 over ten four-player games),
# so sigma alone would keep everyone provisional for hundreds of games; ten games put a
# rating on at least ten results (twenty to forty head-to-head comparisons at usual
# table sizes), past the swings of the first few games, and most regulars reach it in a
# few evenings.
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Shown:
    """A rating as shown: a whole number at or above ``FLOOR``, and whether it is still
    provisional (too few rated games to go on)."""

    value: int
    provisional: bool

    def __str__(self) -> str:
        return f"{self.value}?" if self.provisional else str(self.value)


def points(ordinal: float) -> int:
    """The shown number for an openskill ordinal: ``CENTRE + POINTS_PER_UNIT * ordinal``,
    rounded and never below ``FLOOR``. Monotonic: a higher ordinal never shows lower, so
    tables sorted by the stored ordinal stay sorted as shown."""
    return max(FLOOR, round(CENTRE + POINTS_PER_UNIT * ordinal))


def shown_ordinal(ordinal: float, games: int) -> Shown:
    return Shown(points(ordinal), games < PROVISIONAL_GAMES)


def shown(mu: float, sigma: float, games: int) -> Shown:
    """The rating of an openskill estimate (``mu``, ``sigma``) resting on ``games`` rated
    games. The conservative ordinal (mu - 3 sigma, as stored and sorted by) is what is
    scaled, so a player with few games sits lower until the games show their skill."""
    return shown_ordinal(mu - 3 * sigma, games)


def change(ordinal_before: float, ordinal_after: float) -> int:
    """What a game did to the shown number (the floor included)."""
    return points(ordinal_after) - points(ordinal_before)
