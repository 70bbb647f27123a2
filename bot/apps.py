from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def create_shared_cache_table(using="default", **kwargs) -> None:
    """Without Redis the syncs' locks live in a database table (the "shared" cache): every
    ``migrate`` makes sure it is there (createcachetable skips what exists)."""
    call_command("createcachetable", database=using, verbosity=0)


class BotConfig(AppConfig):
    name = "bot"
    verbose_name = _("Telegram bot")

    def ready(self) -> None:
        # Imported once the apps are loaded (the receivers' modules use the models). The
        # bot brings its Telegram messages up to date whenever a game changes.
        from bot import sync
        from bot.handlers import reports
        from bot.tournaments import posts as tournaments
        from games.play.signals import game_updated
        from games.tournaments import signals as tourney_signals

        game_updated.connect(sync.on_game_updated, dispatch_uid="bot.sync")
        if tournaments.recover not in sync.ALSO_RECOVER:
            sync.ALSO_RECOVER.append(tournaments.recover)
        # Issue 26: a tournament's rounds and end are told in its group and in private.
        tourney_signals.round_started.connect(
            tournaments.on_round_started, dispatch_uid="bot.tournaments.round"
        )
        tourney_signals.tournament_finished.connect(
            tournaments.on_tournament_finished, dispatch_uid="bot.tournaments.finished"
        )
        tourney_signals.tournament_cancelled.connect(
            tournaments.on_tournament_cancelled, dispatch_uid="bot.tournaments.cancelled"
        )
        post_migrate.connect(create_shared_cache_table, sender=self)
        # Issue 48: what moderation tells in Telegram (a case opened, reports handled).
        reports.connect()
