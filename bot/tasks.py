"""The bot's Celery tasks, gathered for Celery's autodiscovery (which imports
``<app>.tasks``). Each task is defined beside the work it runs."""

from bot.handlers.reports import tell as tell_moderation
from bot.sync import recover_syncs, sync_game
from bot.tournaments.posts import post_round, tell_tournament

__all__ = ["post_round", "recover_syncs", "sync_game", "tell_moderation", "tell_tournament"]
