"""The rating task: a finished (or aborted) game's rating decision, taken in a worker.

Queued by ``games.ratings.receivers`` when the play layer announces a game's end. Safe to
run more than once for the same game: ``service.rate_game`` decides each game once.
"""

import logging

from celery import shared_task
from django.db import OperationalError

from games.ratings import service

log = logging.getLogger(__name__)

# Two games finishing together for the same players lock the same rating rows; a rare
# deadlock (PostgreSQL picks a victim) or busy database is worth another try.
ATTEMPTS = 3


@shared_task(name="games.tasks.game_finished")
def rate_game(game_id: int) -> None:
    for attempt in range(1, ATTEMPTS + 1):
        try:
            service.rate_game(game_id)
            return
        except OperationalError:
            if attempt == ATTEMPTS:
                raise
            log.warning("rating game %s: attempt %s failed, retrying", game_id, attempt)
