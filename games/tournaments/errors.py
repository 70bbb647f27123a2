"""What sign-up and withdrawal refuse, as the play layer's errors are (a translatable
message and a stable code the bot answers a tap with)."""

from django.utils.translation import gettext_lazy as _

from games.play.errors import GameError


class SignUpClosed(GameError):
    code = "signup_closed"
    message = _("Sign-up for this tournament is closed.")


class AlreadyEntered(GameError):
    code = "already_entered"
    message = _("You are already signed up.")


class NotEntered(GameError):
    code = "not_entered"
    message = _("You are not signed up.")


class TournamentOver(GameError):
    code = "tournament_over"
    message = _("This tournament is over.")
