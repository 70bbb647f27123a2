"""The "Report" button of a game's final message (issue 48; its taps:
``bot.handlers.reports``)."""

from django.utils.translation import gettext as _

from bot.keyboard import Button, Rows
from games.play.models import Game


def final_rows(game: Game) -> Rows:
    """In the group's language, which the caller set; none where fewer than two people
    played (there is nobody to report)."""
    if game.seats.filter(player__isnull=False).count() < 2:
        return []
    return [[Button("⚑ " + _("Report a player"), data=f"R{game.pk}")]]
