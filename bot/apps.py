from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotConfig(AppConfig):
    name = "bot"
    verbose_name = _("Telegram bot")

    def ready(self) -> None:
        # Imported once the apps are loaded (the receiver's module uses the models). The
        # bot brings its Telegram messages up to date whenever a game changes.
        from bot import sync
        from games.play.signals import game_updated

        game_updated.connect(sync.on_game_updated, dispatch_uid="bot.sync")
