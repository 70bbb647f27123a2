"""What the bot remembers about chats and the messages it keeps up to date.

Games themselves live in ``games``; these rows only say where a game is shown (which
message ids to edit) and what was last shown there (a hash, so unchanged edits are skipped).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.languages import Language


def all_games() -> list[str]:
    return list(catalog.slugs())


class ChatSettings(models.Model):
    """A group's choices, set by its administrators with /settings."""

    chat_id = models.BigIntegerField(_("chat id"), unique=True)
    title = models.CharField(_("chat title"), max_length=255, blank=True)
    language = models.CharField(
        _("language of group messages"),
        max_length=2,
        choices=Language.choices,
        default=Language.EN,
    )
    # Empty: the league's or the game type's default.
    turn_seconds = models.PositiveIntegerField(_("seconds per turn"), null=True, blank=True)
    enabled_games = models.JSONField(_("enabled games"), default=all_games, blank=True)
    # A game may have turns with one legal move only (``GameKind.auto_play``): a table
    # may let the bot play them.
    auto_play = models.BooleanField(_("automatic forced moves"), default=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("chat settings")
        verbose_name_plural = _("chat settings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(language__in=Language.values), name="chat_language_known"
            ),
        ]

    def __str__(self) -> str:
        return self.title or str(self.chat_id)

    def game_enabled(self, slug: str) -> bool:
        return slug in (self.enabled_games or [])


class GameMessages(models.Model):
    """The group messages of one game: the lobby and the living table message."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="telegram_messages"
    )
    chat_id = models.BigIntegerField(_("chat id"))
    lobby_message_id = models.BigIntegerField(_("lobby message"), null=True, blank=True)
    lobby_hash = models.CharField(_("lobby content hash"), max_length=40, blank=True)
    table_message_id = models.BigIntegerField(_("table message"), null=True, blank=True)
    table_hash = models.CharField(_("table content hash"), max_length=40, blank=True)
    # Applied moves up to this sequence number were checked for notices (deal results).
    noticed_seq = models.PositiveIntegerField(_("moves checked for notices"), default=0)
    final_sent = models.BooleanField(_("final result sent"), default=False)

    class Meta:
        verbose_name = _("game messages")
        verbose_name_plural = _("game messages")

    def __str__(self) -> str:
        return f"messages of game {self.game_id}"


class SeatMessage(models.Model):
    """A player's private message for one game, edited in place."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    message_id = models.BigIntegerField(_("message"), null=True, blank=True)
    text_hash = models.CharField(_("content hash"), max_length=40, blank=True)
    # Whether the seat was to act when the message was last rendered: a new turn is sent
    # as a new message (a notification), later changes edit it.
    to_act = models.BooleanField(_("was to act"), default=False)

    class Meta:
        verbose_name = _("private game message")
        verbose_name_plural = _("private game messages")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_message_per_seat"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}"


class ChatPause(models.Model):
    """Telegram asked us to wait before calling a chat again (a 429's ``retry_after``).

    The shared rate windows hold the pause for every sender (``bot.ratelimit``); this row
    keeps it where a restarted Redis cannot forget it, so a sync queued again by the
    sweep still waits it out. A row is only written on a 429, and expired rows are
    removed by the next one.
    """

    chat_id = models.BigIntegerField(_("chat id"), unique=True)
    until = models.FloatField(_("paused until (Unix time)"))

    class Meta:
        verbose_name = _("Telegram pause")
        verbose_name_plural = _("Telegram pauses")

    def __str__(self) -> str:
        return f"{self.chat_id} until {self.until:.0f}"


class TournamentMessages(models.Model):
    """A tournament organised in a group (issue 26): its announcement there, edited as
    people sign up and as it moves on, and whether its end was told."""

    tournament = models.OneToOneField(
        "tourneys.Tournament", on_delete=models.CASCADE, related_name="telegram_messages"
    )
    chat_id = models.BigIntegerField(_("chat id"))
    # The organiser's message, turned into the announcement by its last step; empty when
    # it must be posted anew (the group became a supergroup).
    announcement_id = models.BigIntegerField(_("announcement"), null=True, blank=True)
    # The final standings, or the cancellation, was posted.
    end_sent = models.BooleanField(_("end told"), default=False)

    class Meta:
        verbose_name = _("tournament messages")
        verbose_name_plural = _("tournament messages")
        constraints = [
            # One tournament per organiser's message: a double tap on its last step, or
            # a button made up by hand on an announcement, announces nothing twice.
            models.UniqueConstraint(
                fields=["chat_id", "announcement_id"], name="one_tournament_per_message"
            ),
        ]

    def __str__(self) -> str:
        return f"messages of tournament {self.tournament_id}"


class RoundMessages(models.Model):
    """What was posted of a tournament's round: the tables in the group, and each seated
    player's seat in private (so a task delivered twice tells nobody twice)."""

    round = models.OneToOneField(
        "tourneys.Round", on_delete=models.CASCADE, related_name="telegram_messages"
    )
    group_sent = models.BooleanField(_("tables posted in the group"), default=False)
    told = models.JSONField(_("players told their seat"), default=list, blank=True)

    class Meta:
        verbose_name = _("round messages")
        verbose_name_plural = _("round messages")

    def __str__(self) -> str:
        return f"messages of round {self.round_id}"
