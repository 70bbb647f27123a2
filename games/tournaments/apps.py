from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TourneysConfig(AppConfig):
    name = "games.tournaments"
    label = "tourneys"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # A round moves on as soon as its last game ends, not at the next beat. Imported
        # here, once the apps are loaded: the receivers' modules use the models.
        from games.play.signals import game_ended
        from games.tournaments.receivers import on_game_ended

        game_ended.connect(on_game_ended, dispatch_uid="games.tournaments")
