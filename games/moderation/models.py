"""The audit log of moderator actions. It also carries the moderation permissions, so
that who may ban, abort or make a game's moderator moves is granted per staff account or
group."""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import catalog


class ModerationKind(models.TextChoices):
    BAN = "ban", _("ban")
    UNBAN = "unban", _("unban")
    ABORT = "abort", _("abort game")
    SEAT_TO_COMPUTER = "seat_to_computer", _("seat handed to a computer")
    FLAG_NOT_RATED = "flag_not_rated", _("flagged not rated")
    UNFLAG_NOT_RATED = "unflag_not_rated", _("rating restored")


# The kinds of the log: the generic ones, then each game's moderator moves (their values
# and labels, ``games.capabilities.ModeratorMove``). A game that brings a new move brings
# a migration with it: the choices, the check below and the permissions list them.
KINDS = [*ModerationKind.choices, *((m.value, m.label) for m in catalog.moderator_moves())]
GAME_PERMISSIONS: list[tuple[str, Any]] = list(
    {m.permission: (m.permission, m.permission_label) for m in catalog.moderator_moves()}.values()
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

    kind = models.CharField(_("action"), max_length=20, choices=KINDS)
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
            *GAME_PERMISSIONS,
            # The seed, options, state and hidden moves of open games (admin_ui.secrets).
            ("view_secrets", _("Can see the seed, state and hidden moves of open games")),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="moderation_has_reason"),
            models.CheckConstraint(
                condition=Q(kind__in=[value for value, _label in KINDS]),
                name="moderation_kind_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name}: {self.get_kind_display()}"
