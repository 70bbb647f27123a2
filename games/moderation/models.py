"""The audit log of moderator actions. It also carries the moderation permissions, so
that who may ban, abort or make a game's moderator moves is granted per staff account or
group."""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import catalog


class ModerationKind(models.TextChoices):
    BAN = "ban", _("ban")
    UNBAN = "unban", _("unban")
    ABORT = "abort", _("abort game")
    SEAT_TO_COMPUTER = "seat_to_computer", _("seat handed to a computer")
    FLAG_NOT_RATED = "flag_not_rated", _("flagged not rated")
    UNFLAG_NOT_RATED = "unflag_not_rated", _("rating restored")
    WARN = "warn", _("warning")
    RENAME = "rename", _("rename")
    DISMISS = "dismiss", _("case dismissed")


def kind_choices() -> list[tuple[str, Any]]:
    """The kinds of the log: the generic ones, then each game's moderator moves (their
    values and labels, ``games.capabilities.ModeratorMove``). A callable asked of the
    catalog, as the check in ``save`` is: a game that brings a new move needs no migration."""
    return [*ModerationKind.choices, *((m.value, m.label) for m in catalog.moderator_moves())]


def game_permissions() -> list[tuple[str, Any]]:
    """The permissions the games' moderator moves name, each once. Made by
    ``create_game_permissions`` after each migrate rather than listed in ``Meta``, so a new
    game's permission needs no migration either."""
    moves = catalog.moderator_moves()
    return list({m.permission: (m.permission, m.permission_label) for m in moves}.values())


def create_game_permissions(**_kwargs: Any) -> None:
    """``post_migrate``: the rows of the games' moderator permissions, on the log's model."""
    # Imported here: the auth models are ready only once the apps are loaded.
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    content_type = ContentType.objects.get_for_model(ModerationAction)
    for codename, name in game_permissions():
        Permission.objects.get_or_create(
            codename=codename, content_type=content_type, defaults={"name": str(name)}
        )


def kind_label(kind: str) -> str:
    """What the moderation log calls a kind, generic or a game's move."""
    if kind in ModerationKind.values:
        return str(ModerationKind(kind).label)
    move = catalog.moderator_move(kind)
    return str(move.label) if move is not None else kind


class ModerationAction(models.Model):
    """Who did what to whom, when and why. Written by ``games.moderation`` only; the
    admin shows it read-only."""

    kind = models.CharField(_("action"), max_length=20, choices=kind_choices)
    # The staff account; its name is kept too, so the log survives a deleted account.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("moderator"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions",
    )
    actor_name = models.CharField(_("moderator name"), max_length=150)
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions",
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions",
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    reason = models.TextField(_("reason"))
    # What the action did beyond its kind (a ban's end, the seats handed over, what a
    # game's move changed).
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        ordering = ["-created_at", "-id"]
        permissions = [
            ("ban_player", _("Can ban and unban players")),
            ("abort_game", _("Can abort games")),
            ("replace_seat", _("Can hand a seat to a computer")),
            ("flag_game", _("Can flag games as not rated")),
            # The games' own (their moderator moves'): ``create_game_permissions``.
            # The seed, options, state and hidden moves of open games (admin_ui.secrets).
            ("view_secrets", _("Can see the seed, state and hidden moves of open games")),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="moderation_has_reason"),
            # Which kinds exist is the catalog's to say (``save``); the database keeps none
            # empty.
            models.CheckConstraint(condition=~Q(kind=""), name="moderation_kind_given"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name}: {self.get_kind_display()}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.kind not in {value for value, _label in kind_choices()}:
            raise ValueError(f"unknown moderation kind {self.kind!r}")
        super().save(*args, **kwargs)


# --- Issue 48: reports from players and the queue of cases ----------------------------------
class ReportReason(models.TextChoices):
    ABUSIVE_NAME = "name", _("abusive name")
    STALLING = "stalling", _("stalling")
    COLLUSION = "collusion", _("collusion")
    OTHER = "other", _("other")


class CaseKind(models.TextChoices):
    REPORTS = "reports", _("reports from players")
    COLLUSION = "collusion", _("collusion signal")
    NAME = "name", _("new name to review")


class CaseStatus(models.TextChoices):
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")


class Case(models.Model):
    """What moderators have to look at about one player: the open reports about them
    (one open case of reports per player gathers them all), a collusion signal computed
    over their games (``games.moderation.collusion``), or a new name a league reviews.
    A case acts on nobody by itself: a moderator decides (``games.moderation.cases``)."""

    kind = models.CharField(_("kind"), max_length=12, choices=CaseKind.choices)
    status = models.CharField(
        _("status"), max_length=8, choices=CaseStatus.choices, default=CaseStatus.OPEN
    )
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="cases",
    )
    league = models.ForeignKey(
        "games.League",
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cases",
    )
    # A collusion signal: the partner, the figure and the games behind it; a name: the
    # name under review.
    details = models.JSONField(_("details"), default=dict, blank=True)
    opened_at = models.DateTimeField(_("opened"), auto_now_add=True, db_index=True)
    # The last report or signal that joined the case: the queue shows the newest first.
    updated_at = models.DateTimeField(_("last report"), default=timezone.now, db_index=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # What the moderator did (the log's kind); the log keeps who and why.
    resolution = models.CharField(_("resolution"), max_length=20, blank=True)

    class Meta:
        verbose_name = _("case")
        verbose_name_plural = _("cases")
        ordering = ["-updated_at", "-id"]
        permissions = [("handle_cases", _("Can handle reports and cases"))]
        constraints = [
            # One open case of each kind per player: new reports join it.
            models.UniqueConstraint(
                fields=["player", "kind"],
                condition=Q(status="open") & ~Q(kind="collusion"),
                name="one_open_case_per_player_and_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}: {self.player}"


class Report(models.Model):
    """A player's report about another, from a finished game (its page, its final message
    in Telegram) or about a player in general (their profile, ``/report`` in a league's
    group). Nobody but moderators sees who reported."""

    MAX_TEXT = 280

    reporter = models.ForeignKey(
        "games.Player",
        verbose_name=_("reporter"),
        on_delete=models.CASCADE,
        related_name="reports_made",
    )
    reported = models.ForeignKey(
        "games.Player",
        verbose_name=_("reported player"),
        on_delete=models.CASCADE,
        related_name="reports_received",
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports",
    )
    league = models.ForeignKey(
        "games.League",
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports",
    )
    reason = models.CharField(_("reason"), max_length=12, choices=ReportReason.choices)
    text = models.CharField(_("details"), max_length=MAX_TEXT, blank=True)
    source = models.CharField(_("from"), max_length=12)  # web, telegram
    case = models.ForeignKey(
        Case,
        verbose_name=_("case"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports",
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    # When the case it joined was closed (the reporter was told then).
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "game", "reported"],
                condition=Q(game__isnull=False),
                name="one_report_per_game_and_player",
            ),
            # A report not about a game: one waiting at a time per reporter and player.
            models.UniqueConstraint(
                fields=["reporter", "reported"],
                condition=Q(game__isnull=True, handled_at__isnull=True),
                name="one_open_report_per_player",
            ),
            models.CheckConstraint(
                condition=~Q(reporter=models.F("reported")), name="report_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_reason_display()}: {self.reported}"
