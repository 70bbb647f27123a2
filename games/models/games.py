from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.catalog import slugs


class GameType(models.TextChoices):
    FELIX = "felix", _("Felix: The Cat in the Sack")
    SMOKING_CAT = "smoking_cat", _("Smoking Cat")
    BON_APPETIT = "bon_appetit", _("Bon Appétit!")
    CATS_AND_DOGS = "cats_and_dogs", _("Come Cani e Gatti")


assert tuple(GameType.values) == slugs(), "every engine needs a game type, and no other"


class GameStatus(models.TextChoices):
    LOBBY = "lobby", _("lobby")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    ABORTED = "aborted", _("aborted")


OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.RUNNING)


class Game(models.Model):
    """One game in one chat. The applied moves replay it; ``state`` is their cache."""

    game_type = models.CharField(_("game"), max_length=20, choices=GameType.choices)
    chat_id = models.BigIntegerField(_("chat id"), db_index=True)
    league = models.ForeignKey(
        "games.League",
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=GameStatus.choices, default=GameStatus.LOBBY
    )
    created_by = models.ForeignKey(
        "games.Player",
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    state = models.JSONField(_("engine state"), null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(_("version"), default=0)
    turn_seconds = models.PositiveIntegerField(_("seconds per turn"), null=True, blank=True)
    deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True, db_index=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    abort_reason = models.TextField(_("abort reason"), blank=True)
    # Moderation: a game a moderator flagged does not count for ratings and standings.
    flagged_not_rated = models.BooleanField(_("flagged not rated"), default=False)
    not_rated_reason = models.TextField(_("why not rated"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        constraints = [
            # One open lobby or running game per chat, enforced by a partial unique index.
            models.UniqueConstraint(
                fields=["chat_id"],
                condition=Q(status__in=OPEN_STATUSES),
                name="one_open_game_per_chat",
            ),
            models.CheckConstraint(condition=Q(game_type__in=slugs()), name="game_type_known"),
            models.CheckConstraint(
                condition=Q(status__in=GameStatus.values), name="game_status_known"
            ),
            models.CheckConstraint(
                condition=Q(status=GameStatus.LOBBY) | Q(started_at__isnull=False),
                name="game_started_has_start_time",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "deadline"], name="game_status_deadline"),
            # The bot's recovery looks at the games that ended lately.
            models.Index(fields=["finished_at"], name="game_finished_at"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_type_display()} #{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class Seat(models.Model):
    """A place at a game's table: a player, or a computer with a strategy."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    # The computer strategy that plays this seat: always set for a computer seat, and for
    # a human seat once it was handed to a computer.
    strategy = models.CharField(_("computer strategy"), max_length=20, blank=True)
    replaced_by_computer = models.BooleanField(_("replaced by a computer"), default=False)
    timeouts = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=Q(player__isnull=False),
                name="one_seat_per_player",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(strategy=""),
                name="computer_seat_has_strategy",
            ),
            models.CheckConstraint(
                condition=Q(replaced_by_computer=False) | ~Q(strategy=""),
                name="replaced_seat_has_strategy",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.number}: {self.label}"

    @property
    def is_computer(self) -> bool:
        return self.player_id is None or self.replaced_by_computer

    @property
    def label(self) -> str:
        if self.player_id is None:
            return f"🤖 {self.strategy}"
        return self.player.display_name


class MoveStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    APPLIED = "applied", _("applied")
    REJECTED = "rejected", _("rejected")


class MoveSource(models.TextChoices):
    HUMAN = "human", _("player")
    COMPUTER = "computer", _("computer")
    TIMEOUT = "timeout", _("timeout")
    MODERATOR = "moderator", _("moderator")


class Move(models.Model):
    """A recorded action. Pending until the game processor applies or rejects it.

    ``key`` makes a submission idempotent (the Telegram update or callback query id);
    ``seq`` numbers the applied moves 1..version, so the log replays the game exactly.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    key = models.CharField(_("idempotency key"), max_length=64)
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.CharField(_("action"), max_length=64)
    source = models.CharField(
        _("source"), max_length=10, choices=MoveSource.choices, default=MoveSource.HUMAN
    )
    # The game version the player saw; a move made on an older table may be stale.
    seen_version = models.PositiveIntegerField(_("version seen"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=MoveStatus.choices, default=MoveStatus.PENDING
    )
    seq = models.PositiveIntegerField(_("sequence"), null=True, blank=True)
    reason = models.TextField(_("rejection reason"), blank=True)
    # A moderator's reason, for moves a moderator made (S17 letters).
    note = models.TextField(_("moderator's note"), blank=True)
    # The engine events this move caused (renderers show the last few; replays step them).
    events = models.JSONField(_("events"), default=list, blank=True)
    created_at = models.DateTimeField(_("submitted"), auto_now_add=True)
    processed_at = models.DateTimeField(_("processed"), null=True, blank=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="move_key_unique_per_game"),
            models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique_per_game"),
            models.CheckConstraint(
                condition=Q(status=MoveStatus.APPLIED, seq__isnull=False)
                | (~Q(status=MoveStatus.APPLIED) & Q(seq__isnull=True)),
                name="applied_move_has_seq",
            ),
            models.CheckConstraint(
                condition=Q(status__in=MoveStatus.values), name="move_status_known"
            ),
        ]
        indexes = [
            models.Index(
                fields=["game", "id"],
                condition=Q(status=MoveStatus.PENDING),
                name="move_pending",
            ),
            models.Index(
                fields=["created_at"],
                condition=Q(status=MoveStatus.PENDING),
                name="move_pending_age",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq or '-'} seat {self.seat}: {self.action}"
