from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual
from django.utils.translation import gettext_lazy as _

game_word_validator = RegexValidator(
    r"^[^\W\d_]{3,12}$", _("The game word has 3 to 12 letters and nothing else.")
)


class League(models.Model):
    """A group of chats whose games count for shared standings and ratings."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    # S15: Smoking Cat matches play for the letters of this word; a match keeps the word
    # its league had when it started.
    game_word = models.CharField(
        _("Smoking Cat game word"),
        max_length=12,
        default="GATTO",
        validators=[game_word_validator],
    )
    # Seconds per turn in this league's games; empty: the chat's or the game type's default.
    turn_seconds = models.PositiveIntegerField(_("seconds per turn"), null=True, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=GreaterThanOrEqual(Length("game_word"), 3)
                & LessThanOrEqual(Length("game_word"), 12),
                name="league_game_word_length",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.game_word = self.game_word.upper()
        super().save(*args, **kwargs)


class LeagueChat(models.Model):
    """A Telegram chat linked to a league: games started there count for it."""

    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="chats"
    )
    chat_id = models.BigIntegerField(_("chat id"), unique=True)
    title = models.CharField(_("chat title"), max_length=255, blank=True)
    linked_at = models.DateTimeField(_("linked"), auto_now_add=True)

    class Meta:
        verbose_name = _("linked chat")
        verbose_name_plural = _("linked chats")
        ordering = ["league", "title"]

    def __str__(self) -> str:
        return self.title or str(self.chat_id)
