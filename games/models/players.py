from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    EN = "en", _("English")
    IT = "it", _("Italian")
    PT = "pt", _("Portuguese")

    @classmethod
    def from_telegram(cls, code: str | None) -> str:
        """Telegram sends IETF tags such as ``pt-br``; unknown ones fall back to English."""
        base = (code or "").split("-")[0].lower()
        return base if base in cls.values else cls.EN


class Player(models.Model):
    """Someone who plays through Telegram. Identified by the Telegram user id only."""

    telegram_id = models.BigIntegerField(_("Telegram user id"), unique=True)
    display_name = models.CharField(_("display name"), max_length=128)
    username = models.CharField(_("username"), max_length=64, blank=True)
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.EN
    )
    # Whether the bot may write to the player privately (they pressed Start, and have not
    # blocked the bot since).
    reachable = models.BooleanField(_("reachable in private"), default=False)
    is_banned = models.BooleanField(_("banned"), default=False)
    ban_reason = models.TextField(_("ban reason"), blank=True)
    banned_until = models.DateTimeField(_("banned until"), null=True, blank=True)
    created_at = models.DateTimeField(_("joined"), auto_now_add=True)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(telegram_id__gt=0), name="player_telegram_id_positive"
            ),
            models.CheckConstraint(
                condition=Q(language__in=Language.values), name="player_language_known"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def banned_now(self) -> bool:
        if not self.is_banned:
            return False
        return self.banned_until is None or self.banned_until > timezone.now()
