from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The composition root of the app: upper layers listen to the play layer's signals
        # (the play layer itself imports none of them). Imported here, once the apps are
        # loaded: the receivers' and tasks' modules use the models.
        from django.db.models.signals import post_migrate

        from games.moderation.models import create_game_permissions
        from games.moderation.reports import on_seating
        from games.play.signals import game_ended, seating
        from games.play.tasks import on_game_ended as review_ended_game
        from games.ratings.receivers import on_game_ended

        game_ended.connect(on_game_ended, dispatch_uid="games.ratings")
        game_ended.connect(review_ended_game, dispatch_uid="games.reviews")
        seating.connect(on_seating, dispatch_uid="games.moderation.names")  # issue 48
        # The games' moderator permissions, from the catalog (no migration per game).
        post_migrate.connect(create_game_permissions, sender=self, dispatch_uid="games.perms")
