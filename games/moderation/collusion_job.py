"""The periodic collusion scan (issue 48; Celery beat: ``collusion`` in
``CELERY_BEAT_SCHEDULE``): the statistic of ``games.moderation.collusion`` over the
finished rated games of the last ``COLLUSION_DAYS``, one game type at a time (a player's
level differs from game to game). Each flagged pair opens a case about the beneficiary,
with the figure and the games behind it, unless an open case already holds that pair. A
case acts on nobody: a moderator decides."""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games.leagues.models import League
from games.moderation import collusion, reports
from games.moderation.models import Case, CaseKind, CaseStatus
from games.play.models import Game, GameStatus, Player
from games.ratings.models import RatedGame

log = logging.getLogger(__name__)

# The games behind a signal kept in its case (the newest).
GAMES_KEPT = 50


def results(since) -> dict[str, list[collusion.Game]]:
    """The finished rated games since ``since``, per game type, as the statistic reads
    them: each human seat's placement."""
    rated = RatedGame.objects.filter(rated=True).values("game_id")
    games = (
        Game.objects.filter(status=GameStatus.FINISHED, finished_at__gte=since, pk__in=rated)
        .order_by("finished_at", "pk")
        .prefetch_related("seats")
    )
    by_type: dict[str, list[collusion.Game]] = defaultdict(list)
    for game in games.iterator(chunk_size=2000):
        ranks = (game.result or {}).get("ranks") or []
        seats = list(game.seats.all())
        if len(ranks) != len(seats):
            continue
        places = collusion.placements(ranks)
        humans = {
            s.player_id: places[s.number]
            for s in seats
            if s.player_id is not None and not s.replaced_by_computer and s.number < len(places)
        }
        if len(humans) >= 2:
            by_type[game.game_type].append(collusion.Game(game.pk, humans))
    return by_type


def scan(days: int | None = None) -> list[Case]:
    days = days or int(getattr(settings, "COLLUSION_DAYS", 180))
    opened = []
    for game_type, games in results(timezone.now() - timedelta(days=days)).items():
        found, tested = collusion.signals(games)
        log.info(
            "collusion %s: %d games, %d pairs, %d flagged",
            game_type,
            len(games),
            tested,
            len(found),
        )
        for signal in found:
            case = _open(game_type, signal)
            if case is not None:
                opened.append(case)
    return opened


def _open(game_type: str, signal: collusion.Signal) -> Case | None:
    already = Case.objects.filter(
        kind=CaseKind.COLLUSION,
        status=CaseStatus.OPEN,
        player_id=signal.beneficiary,
        details__partner=signal.partner,
    )
    if already.exists():
        return None
    beneficiary = Player.objects.filter(pk=signal.beneficiary).first()
    partner = Player.objects.filter(pk=signal.partner).first()
    if beneficiary is None or partner is None:
        return None
    games = list(signal.games[-GAMES_KEPT:])
    leagues = Counter(Game.objects.filter(pk__in=games).values_list("league", flat=True))
    league_id, _count = leagues.most_common(1)[0] if leagues else (None, 0)
    details = {
        "partner": partner.pk,
        "partner_name": partner.display_name,
        "game_type": game_type,
        "games": games,
        "together": signal.together,
        "z_gain": round(signal.z_gain, 3),
        "z_loss": round(signal.z_loss, 3),
        "p": signal.p,
        "threshold": signal.threshold,
        "figure": signal.figure(),
    }
    league = League.objects.filter(pk=league_id).first() if league_id else None
    return reports.open_case(beneficiary, CaseKind.COLLUSION, league, details)


@shared_task(name="games.moderation.collusion_scan", acks_late=True)
def collusion_scan() -> int:
    return len(scan())
