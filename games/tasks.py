"""The ``games`` app's Celery tasks, gathered for Celery's autodiscovery (which imports
``<app>.tasks``). Each task is defined beside the work it runs."""

from games.moderation.collusion_job import collusion_scan
from games.play.tasks import ping, process_game, review_game, sweep
from games.ratings.tasks import rate_game

__all__ = ["collusion_scan", "ping", "process_game", "rate_game", "review_game", "sweep"]
