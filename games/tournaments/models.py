"""A tournament, its entries, its rounds and their tables (issue 26)."""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.tournaments.pairing.ranking import DEFAULT_TIEBREAKS, TIEBREAKS


class Format(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ARENA = "arena", _("Arena")
    KNOCKOUT = "knockout", _("Knockout")


class Status(models.TextChoices):
    SCHEDULED = "scheduled", _("scheduled")  # announced; sign-up not open yet
    SIGNUP = "signup", _("sign-up open")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


def new_seed() -> int:
    # Below 2**31: it travels in JSON and makes the duplicate rounds' deals.
    return secrets.randbelow(2**31)


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Tournament(models.Model):
    league = models.ForeignKey(
        "games.League",
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="tournaments",
    )
    name = models.CharField(_("name"), max_length=100)
    game_type = models.CharField(_("game"), max_length=20, choices=catalog.choices)
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.SWISS
    )
    round_count = models.PositiveSmallIntegerField(
        _("rounds"), null=True, blank=True, help_text=_("Swiss: the number of rounds.")
    )
    duration_minutes = models.PositiveSmallIntegerField(
        _("duration, minutes"), null=True, blank=True, help_text=_("Arena: its time window.")
    )
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=4)
    go_on = models.PositiveSmallIntegerField(
        _("players going on per table"),
        default=2,
        help_text=_("Knockout: how many of each table play the next round."),
    )
    starts_at = models.DateTimeField(_("starts at"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SIGNUP
    )
    duplicate_deals = models.BooleanField(
        _("duplicate deals"),
        default=False,
        help_text=_("Swiss: every table of a round plays the same deal."),
    )
    seed = models.BigIntegerField(_("seed"), default=new_seed, editable=False)
    # Announced before the start: the standings order ties by these, in this order.
    tiebreaks = models.JSONField(_("tie-breaks"), default=default_tiebreaks)
    # The group that organised it (``/tournament``): the bot posts its rounds there.
    chat_id = models.BigIntegerField(_("chat id"), null=True, blank=True)
    created_by = models.ForeignKey(
        "games.Player",
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The arena's lobby between two beats (``games.tournaments.pairing.arena.Arena.snapshot``).
    arena_state = models.JSONField(_("arena state"), null=True, blank=True, editable=False)
    # Moves with every change its page shows (``games.tournaments.live``): entries, rounds,
    # places, status. The open pages compare it, not the rows.
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=Status.values), name="tournament_status_known"
            ),
            models.CheckConstraint(
                condition=Q(format__in=Format.values), name="tournament_format_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def kind(self) -> catalog.GameKind:
        return catalog.get(self.game_type)

    @property
    def min_table(self) -> int:
        return self.kind.rules.min_players

    def allowed_sizes(self) -> frozenset[int]:
        rules = self.kind.rules
        return frozenset(range(rules.min_players, rules.max_players + 1))

    def clean(self) -> None:
        super().clean()
        errors: dict[str, object] = {}
        if self.game_type in catalog.slugs():
            rules = self.kind.rules
            if not rules.min_players <= self.table_size <= rules.max_players:
                errors["table_size"] = _("This game is played by %(min)d to %(max)d.") % {
                    "min": rules.min_players,
                    "max": rules.max_players,
                }
            if self.league_id and not self.league.counts(self.game_type):
                errors["game_type"] = _("The league does not count this game.")
        if self.format == Format.SWISS and not self.round_count:
            errors["round_count"] = _("A Swiss tournament needs its number of rounds.")
        if self.format == Format.ARENA and not self.duration_minutes:
            errors["duration_minutes"] = _("An arena needs its duration.")
        if self.format == Format.KNOCKOUT and not 1 <= self.go_on < self.table_size:
            errors["go_on"] = _("Someone must be left out of each table.")
        tiebreaks = self.tiebreaks if isinstance(self.tiebreaks, list) else None
        if tiebreaks is None or any(t not in TIEBREAKS for t in tiebreaks):
            errors["tiebreaks"] = _("Tie-breaks are chosen among: %(names)s.") % {
                "names": ", ".join(TIEBREAKS)
            }
        if errors:
            raise ValidationError(errors)


class Entry(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="tournament_entries",
    )
    created_at = models.DateTimeField(_("signed up"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    paused = models.BooleanField(_("paused"), default=False)  # arena only
    # The player's last sign of being there (signing up, the tournament's page open): a
    # round's seat of a player not seen lately goes to a computer when the round starts
    # (``games.tournaments.rounds``, issue 45).
    seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    # A duplicate round's shared deal; empty: each table is dealt on its own.
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            # The lock on the tournament keeps a round from being made twice; this makes
            # sure of it.
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}"


class RoundTable(models.Model):
    """A table of a round: a game, or a bye (no game, one player)."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    game = models.OneToOneField(
        "games.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_table",
    )
    # Player ids in seat order, as paired (kept if the game row is ever deleted).
    players = models.JSONField(_("players"), default=list)
    # Each player's place once the game ended (forfeits last); empty while it runs. An
    # aborted game nobody forfeited has no places: its players count as having a bye.
    ranks = models.JSONField(_("places"), null=True, blank=True)
    # Each player's score in the game (the duplicate comparison reads it); empty: none.
    scores = models.JSONField(_("scores"), null=True, blank=True)
    recorded_at = models.DateTimeField(_("recorded"), null=True, blank=True)
    is_bye = models.BooleanField(_("bye"), default=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} / {self.number}"
