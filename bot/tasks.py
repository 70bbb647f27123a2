"""The bot's Celery tasks, gathered for Celery's autodiscovery (which imports
``<app>.tasks``). Each task is defined beside the work it runs."""

from bot.sync import recover_syncs, sync_game

__all__ = ["recover_syncs", "sync_game"]
