"""What tournaments tell the front-ends, after commit: the bot posts a round's tables in
the tournament's group on ``round_started`` (kwargs: tournament_id, round_id), its final
standings on ``tournament_finished`` and says it was called off on
``tournament_cancelled`` (kwargs: tournament_id, too_few: whether too few players had
signed up when it was due)."""

from django.dispatch import Signal

round_started = Signal()
tournament_finished = Signal()  # kwargs: tournament_id
tournament_cancelled = Signal()  # kwargs: tournament_id, too_few
