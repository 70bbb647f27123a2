"""Whether a person's table page is open and in sight (issue 45): the clock of a casual
table where that person plays alone with computers stands still while it is.

A newcomer alone with computers who stopped to read the rules was timed out twice and the
table cancelled as abandoned, with a forfeit on their public record, while they were
looking at it. Nobody waits on such a table but its computers, so its turn clock only
matters once the person has gone: the page reports itself every ``PING_SECONDS`` while
it is visible (``web/static/web/presence.js``), and a report stays fresh for
``FRESH_SECONDS``. A timeout that finds it fresh plays nothing and starts the turn's
clock again (``processing.Step.time_out``). A hidden or closed page stops reporting, the
clock runs, and an abandoned table is cancelled as before.

In the ``shared`` cache: the site, the workers and the bot's process all read it.
"""

from __future__ import annotations

from django.core.cache import caches

PING_SECONDS = 20
# Two pings and a slow network: one lost report does not start the clock.
FRESH_SECONDS = 2 * PING_SECONDS + 15


def _key(game_id: int, seat: int) -> str:
    return f"presence:{game_id}:{seat}"


def mark(game_id: int, seat: int) -> None:
    """The page of ``seat`` at game ``game_id`` is open and visible now."""
    caches["shared"].set(_key(game_id, seat), 1, FRESH_SECONDS)


def present(game_id: int, seat: int) -> bool:
    return caches["shared"].get(_key(game_id, seat)) is not None
