"""Players' reports about other players (issue 48), gathered into cases for moderators.

A report is about a player of a finished game both sat at, or about a player in general
(their profile, ``/report`` in a league's group). One report per reporter, game and
player; a reporter files at most ``REPORTS_PER_DAY`` a day. What a reporter is told never
says who else reported, and the reported player is told nothing: the case, which only
moderators see, gathers the reports.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.moderation import signals
from games.moderation.models import Case, CaseKind, CaseStatus, Report, ReportReason
from games.play import errors
from games.play.models import Game, GameStatus, Player, Seat

DAY = timedelta(days=1)


def per_day() -> int:
    return getattr(settings, "REPORTS_PER_DAY", 5)


class ReportRefused(errors.GameError):
    code = "report_refused"


class NotYourGame(ReportRefused):
    code = "report_not_your_game"
    message = _("You can report only the players of a finished game you played.")


class NotYourself(ReportRefused):
    code = "report_yourself"
    message = _("You cannot report yourself.")


class AlreadyReported(ReportRefused):
    code = "report_again"
    message = _("You have already reported this player; moderators will look at it.")


class TooManyReports(ReportRefused):
    code = "report_limit"
    message = _("You have sent %(n)d reports today, the most a day: try again tomorrow.")


class BadReason(ReportRefused):
    code = "report_reason"
    message = _("Choose a reason.")


class NameUnderReview(errors.GameError):
    code = "name_under_review"
    message = _(
        "This league reviews new names: a moderator will look at yours (“%(name)s”) "
        "before you play here."
    )


class TextTooLong(ReportRefused):
    code = "report_text"
    message = _("Say it in at most %(n)d characters.")


def reportable(game: Game, reporter: Player) -> list[Seat]:
    """The seats of ``game`` that ``reporter`` may report: the other people of a finished
    game they played. Empty for anyone else."""
    if game.status != GameStatus.FINISHED:
        return []
    seats = list(Seat.objects.filter(game=game, player__isnull=False).select_related("player"))
    if not any(s.player_id == reporter.pk for s in seats):
        return []
    return [s for s in seats if s.player_id != reporter.pk]


def file(
    reporter: Player,
    reported: Player,
    reason: str,
    *,
    game: Game | None = None,
    league=None,
    text: str = "",
    source: str = "web",
) -> Report:
    """File a report and add it to the reported player's open case (opened if none)."""
    if reporter.pk == reported.pk:
        raise NotYourself()
    if reason not in ReportReason.values:
        raise BadReason()
    text = " ".join((text or "").split())
    if len(text) > Report.MAX_TEXT:
        raise TextTooLong(n=Report.MAX_TEXT)
    if game is not None:
        if reported.pk not in {s.player_id for s in reportable(game, reporter)}:
            raise NotYourGame()
        league = game.league
    with transaction.atomic():
        # The reporter's row is the lock that keeps the day's count exact.
        Player.objects.select_for_update().filter(pk=reporter.pk).first()
        mine = Report.objects.filter(reporter=reporter, reported=reported)
        if game is not None and mine.filter(game=game).exists():
            raise AlreadyReported()
        if game is None and mine.filter(game=None, handled_at=None).exists():
            raise AlreadyReported()
        today = Report.objects.filter(reporter=reporter, created_at__gt=timezone.now() - DAY)
        if today.count() >= per_day():
            raise TooManyReports(n=per_day())
        case, opened = _open_case(reported, CaseKind.REPORTS, league)
        try:
            with transaction.atomic():
                report = Report.objects.create(
                    reporter=reporter,
                    reported=reported,
                    game=game,
                    league=league,
                    reason=reason,
                    text=text,
                    source=source,
                    case=case,
                )
        except IntegrityError as exc:  # the same report, sent twice at once
            raise AlreadyReported() from exc
    if opened:
        transaction.on_commit(lambda: signals.case_opened.send(Case, case_id=case.pk))
    return report


def _open_case(player: Player, kind: str, league) -> tuple[Case, bool]:
    """The player's open case of ``kind``, brought to the top of the queue, or a new one."""
    now = timezone.now()
    case = (
        Case.objects.select_for_update()
        .filter(player=player, kind=kind, status=CaseStatus.OPEN)
        .first()
    )
    if case is not None:
        case.updated_at = now
        fields = ["updated_at"]
        if case.league_id is None and league is not None:
            case.league = league
            fields.append("league")
        case.save(update_fields=fields)
        return case, False
    return Case.objects.create(player=player, kind=kind, league=league, updated_at=now), True


def open_case(player: Player, kind: str, league=None, details: dict | None = None) -> Case:
    """A case that no report opened (a name to review, a collusion signal), told to the
    league's moderators once committed."""
    with transaction.atomic():
        if kind == CaseKind.COLLUSION:
            case, opened = (
                Case.objects.create(player=player, kind=kind, league=league, details=details or {}),
                True,
            )
        else:
            case, opened = _open_case(player, kind, league)
            if details:
                case.details = {**case.details, **details}
                case.save(update_fields=["details"])
    if opened:
        transaction.on_commit(lambda: signals.case_opened.send(Case, case_id=case.pk))
    return case


def check_name(league, player: Player) -> None:
    """Issue 48: a league that reviews names seats a player once a moderator has let
    their current name pass (dismissed its case) or set it. The first time, the case is
    opened (its moderators are told) and the seat refused. Called outside the seating's
    transaction, so that the case stays when the seat is refused."""
    if league is None or not league.review_names or player.name_locked:
        return
    passed = Case.objects.filter(
        player=player,
        kind=CaseKind.NAME,
        status=CaseStatus.CLOSED,
        resolution="dismiss",
        details__name=player.display_name,
    )
    if passed.exists():
        return
    open_case(player, CaseKind.NAME, league, {"name": player.display_name})
    raise NameUnderReview(name=player.display_name)


def on_seating(sender, league, player, **_kwargs) -> None:
    """``games.play.signals.seating``: a league's name review refuses the seat."""
    check_name(league, player)
