from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebConfig(AppConfig):
    name = "web"
    verbose_name = _("Public site")

    def ready(self) -> None:
        # Imported once the apps are loaded (the receiver's module uses the models). Every
        # change of a game moves its marker, which the table pages' long polls watch; in
        # every process that changes games (the site, the workers, the bot).
        from games.play.signals import game_updated, review_stored

        from .live import changes, notify

        game_updated.connect(changes.mark, dispatch_uid="web.live.changes")
        # After the marker moved, so that a page woken by the message reads the new token.
        game_updated.connect(notify.publish, dispatch_uid="web.live.notify")
        # A stored review is news to an open page of its game (issue 45): the same way.
        review_stored.connect(changes.mark, dispatch_uid="web.live.changes.review")
        review_stored.connect(notify.publish, dispatch_uid="web.live.notify.review")
