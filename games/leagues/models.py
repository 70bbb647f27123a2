import re

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.play import levels

word_validator = RegexValidator(
    r"^[^\W\d_]{3,12}$", _("The league word is 3 to 12 alphabetic characters, nothing else.")
)


def all_game_types() -> list[str]:
    return list(catalog.slugs())


# What the project writes into a league's rows (``manage.py demo``), stored in English and
# shown in the reader's language: a description the catalogs translate, a season named
# after its year.
DEMO_DESCRIPTION = gettext_noop("Games played by the demo players of a fresh install.")
YEAR_NAME = re.compile(r"Season (\d{4})")


def year_name(year: int) -> str:
    """A season named after its year, as stored (``Season.shown_name`` translates it)."""
    return f"Season {year}"


class League(models.Model):
    """A group of chats whose games count for shared standings and ratings."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    # The game types whose games count for this league's standings and ratings; games of
    # other types played in its chats still count for the overall ratings.
    game_types = models.JSONField(
        _("games counted"),
        default=all_game_types,
        help_text=_("Games of these types played in the league's chats count for it."),
    )
    # A word the league gives its games: a game that plays for a word takes it as a league
    # option (``games.capabilities.LeagueOption``); a game keeps the word its league had
    # when it started.
    word = models.CharField(
        _("league word"),
        max_length=12,
        default="GATTO",
        validators=[word_validator],
        help_text=_(
            "3 to 12 alphabetic characters, e.g. a name, for the games that play for a word "
            "(their rules say how). A game keeps the word the league had when it started; a "
            "change applies to the next games."
        ),
    )
    # Seconds per turn in this league's games; empty: the chat's or the game type's default.
    turn_seconds = models.PositiveIntegerField(_("seconds per turn"), null=True, blank=True)
    # Issue 14: the level of a computer that takes over a seat mid-game (its player timed
    # out too often, or a moderator handed it over); games outside leagues use normal.
    computer_level = models.CharField(
        _("level of seats handed to a computer"),
        max_length=10,
        choices=levels.CHOICES,
        default=levels.NORMAL,
        help_text=_(
            "When a player's seat is handed to a computer mid-game, it plays at this level."
        ),
    )
    # Issue 26: the share of their last started games a player must have finished
    # (``games.play.completion``) to sit at this league's tables; empty: no minimum.
    min_completion = models.PositiveSmallIntegerField(
        _("minimum completion, percent"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(100)],
        help_text=_(
            "Players who finished fewer than this percent of their last 20 games (leaving, "
            "or timing out until a computer took over) cannot join the league's games. "
            "Empty: no minimum."
        ),
    )
    is_active = models.BooleanField(_("active"), default=True)
    # Issue 48: a new player's name opens a case that a moderator reviews.
    review_names = models.BooleanField(
        _("review new names"),
        default=False,
        help_text=_("A new player's name opens a case for the league's moderators."),
    )
    # A chat joins the league only with this code (the league's approval): its organisers
    # hand it to the groups they accept, and a new code (``games.leagues.services.
    # issue_join_code``) retires the old one. Empty: no chat may join by itself.
    join_code = models.CharField(
        _("join code"), max_length=16, null=True, blank=True, unique=True, editable=False
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=GreaterThanOrEqual(Length("word"), 3)
                & LessThanOrEqual(Length("word"), 12),
                name="league_word_length",
            ),
            models.CheckConstraint(
                condition=Q(min_completion__isnull=True) | Q(min_completion__lte=100),
                name="league_min_completion_percent",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.word = self.word.strip().upper()
        # Kept in the engines' order, without repeats, so comparisons stay simple.
        self.game_types = [t for t in catalog.slugs() if t in (self.game_types or [])]
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        self.word = (self.word or "").strip().upper()
        types = self.game_types if isinstance(self.game_types, list) else None
        if not types or any(t not in catalog.slugs() for t in types):
            raise ValidationError({"game_types": _("Choose at least one game.")})

    def counts(self, game_type: str) -> bool:
        return game_type in (self.game_types or [])

    @property
    def shown_options(self) -> list[tuple[str, object]]:
        """The options the league gives the games it counts (``GameKind.league_options``:
        the league's word, say), as its page shows them: (label, value)."""
        shown: dict[str, tuple[str, object]] = {}
        for kind in catalog.all_games():
            if self.counts(kind.slug):
                for option in kind.league_options:
                    shown.setdefault(option.field, (str(option.label), getattr(self, option.field)))
        return list(shown.values())

    def current_season(self, today=None):
        today = today or timezone.localdate()
        return (
            self.seasons.filter(starts_on__lte=today)
            .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=today))
            .order_by("-starts_on")
            .first()
        )

    @property
    def shown_description(self) -> str:
        """The description in the reader's language when it is one the project wrote
        (``DEMO_DESCRIPTION``: its catalogs translate it); a league's own as written."""
        return gettext(self.description) if self.description else ""


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


class Season(models.Model):
    """A stretch of a league's calendar with standings of its own. Ratings run on across
    seasons; a season's table shows each player's rating after their last game in it."""

    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    # Empty: the season is open-ended (it runs until an end date is set).
    ends_on = models.DateField(_("ends on"), null=True, blank=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique"),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="season_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.shown_name

    @property
    def shown_name(self) -> str:
        """The name in the reader's language when the project made it (``year_name``:
        "Season 2026", "Stagione 2026"), a league's own as written."""
        match = YEAR_NAME.fullmatch(self.name)
        if match is None:
            return self.name
        return gettext("Season %(year)s") % {"year": match.group(1)}

    def clean(self) -> None:
        super().clean()
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("A season cannot end before it starts.")})
        if self.league_id and self.starts_on:
            # Overlapping seasons would count a game twice in "this season" views.
            others = Season.objects.filter(league_id=self.league_id).exclude(pk=self.pk)
            end = self.ends_on
            overlap = others.filter(Q(ends_on__isnull=True) | Q(ends_on__gte=self.starts_on))
            if end is not None:
                overlap = overlap.filter(starts_on__lte=end)
            clash = overlap.first()
            if clash is not None:
                raise ValidationError(
                    _("This season overlaps %(season)s.") % {"season": clash.name}
                )

    def contains(self, day) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)


class LeagueMember(models.Model):
    """A player of a league. Organisers add members ahead of time; anyone whose game
    counted for the league becomes a member by playing."""

    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="members"
    )
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    note = models.CharField(_("note"), max_length=200, blank=True)
    # Issue 45: an organiser runs the league's tournaments from the site (and the bot's
    # private /tournament points them there); set by the site's administrators.
    is_organiser = models.BooleanField(_("organiser"), default=False)
    # Issue 48: told in private when a case about the league opens.
    is_moderator = models.BooleanField(_("moderator"), default=False)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["league", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="league_member_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.league}"
