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


# Issue 46: a tournament entry needs an identity that costs something, and sign-ups are
# limited per address and per tournament (``games.tournaments.entry_guard``).
class EntryNeedsIdentity(GameError):
    code = "entry_needs_identity"
    message = _(
        "To enter a tournament, sign in with Telegram, or first finish a game with other people."
    )


class TooManySignUps(GameError):
    code = "too_many_signups"
    message = _("Too many tournament sign-ups from your connection. Try again in an hour.")


class TournamentFull(GameError):
    code = "tournament_full"
    message = _("This tournament is full.")
