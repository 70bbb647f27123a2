"""What a game is made of: the people who play, the games, their seats and the move log.

The move log is the truth: the applied moves replay a game exactly (``games.play.replay``)
and ``Game.state`` is their cache.
"""

import dataclasses

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.languages import Language
from games.play.result import Result


class Player(models.Model):
    """A person who plays: in Telegram (identified by the Telegram user id only) or in a
    browser (no Telegram account; tied to the browser's session)."""

    telegram_id = models.BigIntegerField(_("Telegram user id"), unique=True, null=True, blank=True)
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
    # Issue 48: a moderator renamed the player; Telegram's name no longer replaces it.
    name_locked = models.BooleanField(_("name set by a moderator"), default=False)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name"]
        # The public list of players pages by name, A to Z whatever the case.
        indexes = [models.Index(Lower("display_name"), F("id"), name="player_name")]
        constraints = [
            models.CheckConstraint(
                condition=Q(telegram_id__isnull=True) | Q(telegram_id__gt=0),
                name="player_telegram_id_positive",
            ),
            models.CheckConstraint(
                condition=Q(language__in=Language.values), name="player_language_known"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def in_telegram(self) -> bool:
        return self.telegram_id is not None

    @property
    def banned_now(self) -> bool:
        if not self.is_banned:
            return False
        return self.banned_until is None or self.banned_until > timezone.now()


class GameStatus(models.TextChoices):
    LOBBY = "lobby", _("lobby")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    ABORTED = "aborted", _("aborted")


OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.RUNNING)
ENDED_STATUSES = (GameStatus.FINISHED, GameStatus.ABORTED)


class AbortReason(models.TextChoices):
    """Why a game ended without a result (``games.play.finish.abort``)."""

    CANCELLED = "cancelled", _("cancelled by its creator or a chat administrator")
    EVERYONE_LEFT = "everyone_left", _("everyone left the lobby")
    EXPIRED = "expired", _("the lobby expired")
    MOVED = "moved", _("the chat moved, where another game was open")
    MODERATOR = "moderator", _("aborted by a moderator")
    # A casual table is not played to its end by computers alone (issue 25).
    ABANDONED = "abandoned", _("cancelled: its only player stopped playing")


class Game(models.Model):
    """One game in one chat. The applied moves replay it; ``state`` is their cache."""

    # A callable: the catalog's games, so that a new game needs no migration.
    game_type = models.CharField(_("game"), max_length=20, choices=catalog.choices)
    # The Telegram chat the game is played in; none for a table in the browser.
    chat_id = models.BigIntegerField(_("chat id"), db_index=True, null=True, blank=True)
    # A browser table's secret: its join link carries it, the table's address alone lets
    # a visitor watch, not sit (``services.join``). Empty for a chat's game, which people
    # join in the chat.
    invite = models.CharField(_("invite token"), max_length=32, blank=True, editable=False)
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
    # The legal actions of each person the game waits for, by seat, at this version: what a
    # submission checks in the statement that records it (games/play/recording.py).
    legal = models.JSONField(_("legal actions"), null=True, blank=True, editable=False)
    turn_seconds = models.PositiveIntegerField(_("seconds per turn"), null=True, blank=True)
    deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True, db_index=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    abort_reason = models.CharField(
        _("abort reason"), max_length=20, choices=AbortReason.choices, blank=True
    )
    # A moderator's words on an abort, beside the reason's code.
    abort_note = models.TextField(_("abort note"), blank=True)
    # The server plays a human's move when it is the only one (B15), after a short pause.
    auto_play = models.BooleanField(_("automatic moves"), default=False)
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
            # The public archive pages games that started, newest first, by keyset
            # (``web.paging``): everywhere, and in one league.
            models.Index(
                fields=["-started_at", "-id"],
                condition=Q(started_at__isnull=False),
                name="game_archive",
            ),
            models.Index(
                fields=["league", "-started_at", "-id"],
                condition=Q(started_at__isnull=False),
                name="game_archive_league",
            ),
            # The league list counts each league's finished games from the index alone.
            models.Index(
                fields=["league", "id"],
                condition=Q(status=GameStatus.FINISHED),
                name="game_finished_by_league",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_type_display()} #{self.pk}"

    @property
    def kind(self) -> catalog.GameKind:
        return catalog.get(self.game_type)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def outcome(self) -> Result | None:
        """The typed result of a finished game. A result stored before results named
        their termination takes it from the game's last state, as its engine reads it."""
        if not self.result:
            return None
        result = Result.from_json(self.result)
        old = "termination" not in self.result and "state" not in self.get_deferred_fields()
        if old and isinstance(self.state, dict) and self.game_type in catalog.slugs():
            termination = self.kind.rules.stored_termination(self.state)
            result = dataclasses.replace(result, termination=termination)
        return result


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
    # The player cancelled the running game (its creator or a chat administrator at the
    # table): a forfeit, rated as last (``games.ratings.service``).
    forfeited = models.BooleanField(_("forfeited"), default=False)

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
    def forfeits(self) -> bool:
        """Whether the seat's player abandoned the game: cancelled it while it ran, or
        stayed away until the timer handed the seat to a computer (a moderator's handover
        resets the timeouts: it is no forfeit)."""
        if self.player_id is None:
            return False
        return self.forfeited or (
            self.replaced_by_computer and self.timeouts >= settings.TIMEOUTS_BEFORE_COMPUTER
        )

    @property
    def label(self) -> str:
        if self.player is None:  # no query: a null key reads as None
            # Words, not the bot's robot emoji: this reaches the staff's web pages.
            return f"{_('computer')} {self.strategy}"
        return self.player.display_name


class MoveStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    APPLIED = "applied", _("applied")
    REJECTED = "rejected", _("rejected")


class MoveSource(models.TextChoices):
    HUMAN = "human", _("player")
    COMPUTER = "computer", _("computer")
    TIMEOUT = "timeout", _("timeout")
    AUTO = "auto", _("automatic")  # a forced move the table plays (``Game.auto_play``)
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
    # A moderator's reason, for moves a moderator made (``ModeratorMove``).
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


class Review(models.Model):
    """A finished game's post-game review (issue 27): each person's decisions judged from
    what they knew then (``games.computers.review``), made once by a background task
    (``games.play.reviews``) and shown with the replay. Deterministic for a game, a budget
    and a ``version`` of the reviewer, so it is stored rather than made again."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    version = models.PositiveSmallIntegerField(_("reviewer version"))
    budget = models.JSONField(_("budget"), default=dict)
    verdicts = models.JSONField(_("verdicts"), default=list)
    summary = models.JSONField(_("summary"), default=list)
    seconds = models.FloatField(_("CPU seconds"), default=0.0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")

    def __str__(self) -> str:
        return f"review of game {self.game_id}"
