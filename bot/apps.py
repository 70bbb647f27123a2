from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotConfig(AppConfig):
    name = "bot"
    verbose_name = _("Telegram bot")

    def ready(self) -> None:
        # Bring Telegram messages up to date whenever a game changes (after commit).
        from bot import sync
        from games.signals import game_updated

        game_updated.connect(sync.on_game_updated, dispatch_uid="bot.sync")
