"""The tournaments' beat task (issue 26: "rounds start by themselves"): every due or
running tournament takes a step (``rounds.advance``). A round also moves on as soon as its
last game ends (``receivers``); the beat is what catches a step a lost task missed, starts
tournaments at their time and seats an arena's waiting players."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from games.tournaments import rounds
from games.tournaments.models import Status, Tournament

log = logging.getLogger(__name__)


@shared_task(name="games.tourneys.advance_all")
def advance_all() -> int:
    """Step every tournament that is due or running. Returns how many."""
    due = Tournament.objects.filter(
        Q(status=Status.RUNNING) | Q(status=Status.SIGNUP, starts_at__lte=timezone.now())
    ).values_list("pk", flat=True)
    count = 0
    for tournament_id in due:
        try:
            rounds.advance(tournament_id)
            count += 1
        except Exception:  # one broken tournament must not stop the others
            log.exception("tournament %s could not move on", tournament_id)
    return count


@shared_task(name="games.tourneys.advance")
def advance(tournament_id: int) -> None:
    rounds.advance(tournament_id)
