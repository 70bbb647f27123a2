"""Where a finished game's league and rating update plugs in (the leagues code).

Called by the ``games.tasks.game_finished`` Celery task. Safe to call more than once for
the same game: ``games.ratings.rate_game`` decides each game once.
"""

import logging

from django.db import OperationalError

log = logging.getLogger(__name__)

# Two games finishing together for the same players lock the same rating rows; a rare
# deadlock (PostgreSQL picks a victim) or busy database is worth another try.
ATTEMPTS = 3


def run(game_id: int) -> None:
    from games.ratings import rate_game

    for attempt in range(1, ATTEMPTS + 1):
        try:
            rate_game(game_id)
            return
        except OperationalError:
            if attempt == ATTEMPTS:
                raise
            log.warning("rating game %s: attempt %s failed, retrying", game_id, attempt)
