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
