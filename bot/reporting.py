"""The "Report" button of a game's final message (issue 48; its taps:
``bot.handlers.reports``)."""

from django.utils.translation import gettext as _

from bot.keyboard import Button, Rows


def final_rows(game_id: int) -> Rows:
    """In the group's language, which the caller set."""
    return [[Button("⚑ " + _("Report a player"), data=f"R{game_id}")]]
