"""What a moderator does from a case (issue 48): warn, rename, ban for a time, void a
game's rating, dismiss. Each needs ``games.handle_cases`` (a ban and a void also the
permission of their own action), writes the moderation log with its reason and closes the
case; its reporters are then told that their report was handled, never what was done.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.moderation import services, signals
from games.moderation.models import Case, CaseStatus, ModerationAction, ModerationKind, Report
from games.play import names
from games.play.models import Game, Player

PERMISSION = "games.handle_cases"


class CaseClosed(services.ModerationError):
    code = "case_closed"
    message = _("This case is already closed.")


class BadName(services.ModerationError):
    code = "bad_name"


def may_handle(user) -> bool:
    return bool(user is not None and user.is_active and user.has_perm(PERMISSION))


def _begin(case: Case, by, reason: str) -> tuple[Case, str]:
    if not may_handle(by):
        raise PermissionDenied(f"{getattr(by, 'username', by)!s} may not handle cases")
    reason = (reason or "").strip()
    if not reason:
        raise services.ReasonRequired()
    case = Case.objects.select_for_update().get(pk=case.pk)
    if case.status != CaseStatus.OPEN:
        raise CaseClosed()
    return case, reason


def _close(case: Case, entry: ModerationAction) -> None:
    now = timezone.now()
    case.status, case.closed_at, case.resolution = CaseStatus.CLOSED, now, entry.kind
    case.save(update_fields=["status", "closed_at", "resolution"])
    details = {**entry.details, "case": case.pk}
    ModerationAction.objects.filter(pk=entry.pk).update(details=details)
    entry.details = details
    ids = list(case.reports.filter(handled_at=None).values_list("pk", flat=True))
    Report.objects.filter(pk__in=ids).update(handled_at=now)
    if ids:
        transaction.on_commit(lambda: signals.reports_handled.send(Case, report_ids=ids))


def warn(case: Case, *, by, reason: str) -> ModerationAction:
    """A warning: the player is told (in their language) that a moderator warns them."""
    with transaction.atomic():
        case, reason = _begin(case, by, reason)
        entry = services._record(by, ModerationKind.WARN, reason, player=case.player)
        _close(case, entry)
        player_id = case.player_id
        transaction.on_commit(lambda: signals.player_warned.send(Case, player_id=player_id))
        return entry


def rename(case: Case, new_name: str, *, by, reason: str) -> ModerationAction:
    """A new name for the player, shown everywhere from now on; Telegram's name no
    longer replaces it (``Player.name_locked``)."""
    with transaction.atomic():
        case, reason = _begin(case, by, reason)
        try:
            new_name = names.for_browser(new_name)
        except Exception as exc:  # the name rules' own refusal, said as it is
            raise BadName(str(getattr(exc, "message", exc))) from exc
        player = Player.objects.select_for_update().get(pk=case.player_id)
        old = player.display_name
        player.display_name, player.name_locked = new_name, True
        player.save(update_fields=["display_name", "name_locked"])
        entry = services._record(
            by,
            ModerationKind.RENAME,
            reason,
            player=player,
            details={"from": old, "to": new_name},
        )
        _close(case, entry)
        return entry


def ban(case: Case, *, by, reason: str, until: datetime | None) -> ModerationAction:
    if not may_handle(by):
        raise PermissionDenied("may not handle cases")
    with transaction.atomic():
        case, reason = _begin(case, by, reason)
        entry = services.ban(case.player, by=by, reason=reason, until=until)
        _close(case, entry)
        return entry


def void(case: Case, game: Game, *, by, reason: str) -> ModerationAction:
    """The game no longer counts: its rating is taken out and every scope it touched is
    recomputed from its other games, as if it had never been rated
    (``services.flag_not_rated``)."""
    with transaction.atomic():
        case, reason = _begin(case, by, reason)
        entry = services.flag_not_rated(game, by=by, reason=reason)
        ModerationAction.objects.filter(pk=entry.pk).update(player=case.player)
        _close(case, entry)
        return entry


def dismiss(case: Case, *, by, reason: str) -> ModerationAction:
    with transaction.atomic():
        case, reason = _begin(case, by, reason)
        entry = services._record(by, ModerationKind.DISMISS, reason, player=case.player)
        _close(case, entry)
        return entry
