"""What moderation tells the layers above it, once committed (issue 48). The bot tells
people in Telegram (``bot.handlers.reports``, connected in ``bot.apps``).

``case_opened``: kwargs case_id; the league's moderators hear of it.
``reports_handled``: kwargs report_ids; their reporters hear that they were handled (not
what was done).
``player_warned``: kwargs player_id; the player hears a moderator's warning.
"""

from django.dispatch import Signal

case_opened = Signal()
reports_handled = Signal()
player_warned = Signal()
