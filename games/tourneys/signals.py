"""What tournaments tell the front-ends, after commit: the bot posts a round's tables in
the tournament's group on ``round_started`` (kwargs: tournament_id, round_id)."""

from django.dispatch import Signal

round_started = Signal()
tournament_finished = Signal()  # kwargs: tournament_id
