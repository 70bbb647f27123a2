"""Ratings: one openskill (Plackett–Luce) rating per player and game, overall, per
league and per league season, with every change kept so a history can be drawn and
standings aggregated."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.ratings import display


class Rating(models.Model):
    """A player's current rating in one scope: a game type, overall (no league) or in a
    league. ``ordinal`` (mu - 3 sigma) is stored so tables sort by it in the database."""

    player = models.ForeignKey(
        "games.Player", verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    game_type = models.CharField(_("game"), max_length=20, choices=catalog.choices)
    league = models.ForeignKey(
        "games.League",
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    # A season's rating: the league's games of that season only, from a fresh start (each
    # season resets the table). Empty: the league's all-time rating (or overall).
    season = models.ForeignKey(
        "games.Season",
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    ordinal = models.FloatField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["game_type", "-ordinal"]
        constraints = [
            # One rating per scope. NULL leagues never clash in a plain unique index, so
            # the overall scope gets a partial index of its own (SQLite and PostgreSQL).
            models.UniqueConstraint(
                fields=["player", "game_type", "league"],
                condition=Q(league__isnull=False, season__isnull=True),
                name="rating_unique_in_league",
            ),
            models.UniqueConstraint(
                fields=["player", "game_type", "season"],
                condition=Q(season__isnull=False),
                name="rating_unique_in_season",
            ),
            models.CheckConstraint(
                condition=Q(season__isnull=True) | Q(league__isnull=False),
                name="rating_season_has_league",
            ),
            models.UniqueConstraint(
                fields=["player", "game_type"],
                condition=Q(league__isnull=True),
                name="rating_unique_overall",
            ),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]
        indexes = [models.Index(fields=["league", "game_type", "-ordinal"], name="rating_table")]

    def __str__(self) -> str:
        scope: object = self.league or _("overall")
        if self.season_id:
            scope = f"{scope} · {self.season}"
        return f"{self.player} · {self.get_game_type_display()} · {scope}: {self.shown}"

    @property
    def shown(self) -> display.Shown:
        """The rating as people see it (``games.ratings.display``)."""
        return display.shown_ordinal(self.ordinal, self.games)


class RatingChange(models.Model):
    """What one rated game did to one rating: before and after, with the seat's result.
    Standings are aggregated from these rows, and the history chart drawn from them."""

    rating = models.ForeignKey(
        Rating, verbose_name=_("rating"), on_delete=models.CASCADE, related_name="changes"
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="rating_changes",
    )
    # Denormalised from the game so standings filter by season without a join.
    played_at = models.DateTimeField(_("played"), db_index=True)
    rank = models.PositiveSmallIntegerField(_("place"))
    score = models.FloatField(_("score"), null=True, blank=True)
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    ordinal_before = models.FloatField(_("rating before"))
    ordinal_after = models.FloatField(_("rating after"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["played_at", "id"]
        constraints = [
            # A game changes a rating once, however often its task is delivered.
            models.UniqueConstraint(fields=["rating", "game"], name="rating_change_once"),
        ]
        indexes = [models.Index(fields=["rating", "played_at"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.rating_id} @ game {self.game_id}: {self.shown_change:+d}"

    @property
    def delta(self) -> float:
        return self.ordinal_after - self.ordinal_before

    @property
    def shown_change(self) -> int:
        """The change as people see it: in the shown rating's points."""
        return display.change(self.ordinal_before, self.ordinal_after)


class RatedGame(models.Model):
    """The rating decision for a finished or aborted game, taken once: whether it was
    rated and, if not, why. Its primary key on the game makes the update idempotent."""

    class Skip(models.TextChoices):
        ABORTED = "aborted", _("aborted")
        FLAGGED = "flagged", _("flagged by a moderator")
        COMPUTERS = "computers", _("computers in more than half the seats")
        TOO_FEW = "too_few", _("fewer than two players")
        NO_RESULT = "no_result", _("no result")
        CASUAL = "casual", _("a table in the browser, outside any league")

    game = models.OneToOneField(
        "games.Game",
        verbose_name=_("game"),
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="rating_decision",
    )
    rated = models.BooleanField(_("rated"))
    skipped = models.CharField(_("not rated because"), max_length=12, choices=Skip.choices)
    # The league the game counted for (None: overall ratings only).
    league = models.ForeignKey(
        "games.League",
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The league's season the game counted for (None: no season ran that day).
    season = models.ForeignKey(
        "games.Season",
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided"), auto_now=True)

    class Meta:
        verbose_name = _("rating decision")
        verbose_name_plural = _("rating decisions")
        constraints = [
            models.CheckConstraint(
                condition=Q(rated=True, skipped="") | Q(rated=False) & ~Q(skipped=""),
                name="rated_game_has_reason_when_skipped",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {'rated' if self.rated else self.skipped}"
