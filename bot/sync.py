"""Bringing a game's Telegram messages up to date: the ``sync_game`` task and its work.

Triggers collapse: ``request_sync`` counts a change and queues one task unless one is
already queued; the task holds a per-game lock and renders the latest state until no
change came in meanwhile, so ten quick moves become one edit. The lock is kept alive
while the sync talks to Telegram and lapses soon after its worker dies; ``recover`` (a
periodic task) then queues the sync of every game with a change no sync finished. A sync
that Telegram asks to wait long (a 429) is not slept in the worker: it releases the lock
and queues itself for then; triggers meanwhile find it queued and collapse into it.

Edits whose text and buttons are unchanged are skipped (a hash per message); new messages
are sent only for what deserves a notification: the game's start (the table message),
notices such as a deal's result, a new turn in private (the old message is
deleted), the final result. A group that Telegram turned into a supergroup is followed
to its new id (``bot.chats``) the first time a call to the old one is refused.

A tournament's table (issue 26) is a table in the browser, with no group message: the
bot keeps its players' private messages all the same (their cards, the buttons to play by
taps, the web table button), as it does a group game's.

Task names are fixed so that tasks already queued under them still run after a deploy.
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from collections.abc import Callable
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.core.cache import caches
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.connection import ConnectionProxy
from django.utils.translation import gettext as _

from bot import cachekeys, chats, reporting, transport
from bot.keyboard import Rows
from bot.models import ChatSettings, GameMessages, SeatMessage
from bot.render.common import esc
from bot.screens import GameScreens, Screen
from bot.sender import DEFER_AFTER, Deferred, Result, Sender
from games.play import services
from games.play.models import OPEN_STATUSES, Game, GameStatus, Player, Seat
from games.tournaments.models import RoundTable
from server import metrics

log = logging.getLogger(__name__)

# The counters, flags and locks of the syncs must be the same for every process that may
# sync a game (the web, the bot, the workers): the "shared" cache (config/settings.py).
cache = ConnectionProxy(caches, "shared")

WANT_TTL = 24 * 3600
QUEUED_TTL = 60
# Refreshed before every Telegram call and during long waits: longer than one call.
LOCK_TTL = 60
MAX_ROUNDS = 50
# Finished games still get their final messages from ``recover`` for this long.
RECOVER_FINISHED = timedelta(hours=1)
# Tests set this so that a rendering bug fails the test instead of being logged.
RAISE_ERRORS = False


def _keys(game_id: int) -> tuple[str, str, str, str]:
    """The change counter, the queued flag, the lock, and the counter last synced."""
    return (
        cachekeys.key("sync", game_id, "want"),
        cachekeys.key("sync", game_id, "queued"),
        cachekeys.key("sync", game_id, "lock"),
        cachekeys.key("sync", game_id, "done"),
    )


def on_game_updated(sender, game_id: int, chat_id: int | None = None, **kwargs) -> None:
    # A table in the browser has no Telegram messages, unless it is a tournament's.
    if chat_id is not None or (transport.configured() and is_tournament_table(game_id)):
        request_sync(game_id)


def is_tournament_table(game_id: int) -> bool:
    return RoundTable.objects.filter(game_id=game_id).exists()


def request_sync(game_id: int) -> None:
    """Note that a game changed and queue a sync unless one is queued already."""
    if not transport.configured():
        return
    want, _queued, _lock, _done = _keys(game_id)
    try:
        _bump(want)
        _queue(game_id)
    except Exception:
        log.exception("could not queue the sync of game %s", game_id)
        if RAISE_ERRORS:
            raise


def request_sync_for_player(player: Player) -> None:
    """Bring every open game of a player up to date (their language or reachability
    changed, so their private messages must be redrawn or can now be sent)."""
    open_games = (
        Seat.objects.filter(player=player, game__status__in=OPEN_STATUSES)
        .filter(Q(game__chat_id__isnull=False) | Q(game__tournament_table__isnull=False))
        .values_list("game_id", flat=True)
    )
    for game_id in open_games:
        request_sync(game_id)


def _bump(key: str) -> None:
    """Count a change. A counter that vanished (evicted, flushed) simply starts again: any
    new value tells a running sync that it must render once more."""
    if cache.add(key, 1, timeout=WANT_TTL):
        return
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=WANT_TTL)


def _queue(game_id: int, countdown: float = 0) -> None:
    _want, queued, _lock, _done = _keys(game_id)
    if not cache.add(queued, 1, timeout=QUEUED_TTL + countdown):
        metrics.inc("syncs_coalesced_total")
        return
    try:
        sync_game.apply_async((game_id,), countdown=countdown or None)
    except Exception:
        cache.delete(queued)
        raise


@shared_task(name="bot.tasks.sync_game", acks_late=True)
def sync_game(game_id: int) -> None:
    """Bring the game's group and private messages up to date, until the game stops
    changing under us (coalesced: see the module's docstring)."""
    want_key, queued, lock, done = _keys(game_id)
    cache.delete(queued)
    # A sync queued before another one was told to wait must wait too: asking Telegram
    # again during its retry_after only earns another 429.
    not_before = cache.get(_not_before_key(game_id))
    if not_before is not None and (wait := not_before - time.time()) > 0:
        _queue(game_id, countdown=wait)
        return
    token = uuid.uuid4().hex
    if not cache.add(lock, token, timeout=LOCK_TTL):
        metrics.inc("syncs_coalesced_total")
        return  # the running sync will see our change: it re-reads ``want`` when done

    def keepalive() -> None:
        cache.touch(lock, LOCK_TTL)

    # A task run in-process (the embedded default) has no queue to come back through
    # later: it sleeps through every wait, as it always did.
    defer_after = None if sync_game.app.conf.task_always_eager else DEFER_AFTER
    seen = None
    try:
        with Sender(keepalive=keepalive, defer_after=defer_after) as sender:
            for _round in range(MAX_ROUNDS):
                seen = cache.get(want_key)
                sync_once(game_id, sender)
                if cache.get(want_key) == seen:
                    break
        if seen is not None:
            cache.set(done, seen, timeout=WANT_TTL)
    except Deferred as wait:
        log.info("sync of game %s deferred: %s", game_id, wait)
        # Released before it is queued for later, not dropped: until then new triggers
        # find it queued and collapse into it.
        not_before = time.time() + wait.seconds
        cache.set(_not_before_key(game_id), not_before, timeout=math.ceil(wait.seconds))
        _release(lock, token)
        _queue(game_id, countdown=wait.seconds)
        return
    except SoftTimeLimitExceeded:
        log.warning("sync of game %s stopped by its time limit; queued again", game_id)
        _release(lock, token)
        _queue(game_id)
        raise
    finally:
        _release(lock, token)
    if cache.get(want_key) != seen:
        _queue(game_id)  # a change slipped in between the last check and the release


def _not_before_key(game_id: int) -> str:
    return cachekeys.key("sync", game_id, "not-before")


def _release(lock: str, token: str) -> None:
    if cache.get(lock) == token:
        cache.delete(lock)


# What else ``recover_syncs`` runs, each returning how many posts it queued again: the
# tournaments' (``bot.tournaments.posts.recover``), added by ``bot.apps``; bot.tournaments
# sits above this module (its handlers use the bot's), so it adds itself here.
ALSO_RECOVER: list[Callable[[], int]] = []


@shared_task(name="bot.tasks.recover_syncs")
def recover_syncs() -> int:
    """Periodic: queue the sync of every game with a change that no sync finished rendering
    and that nobody is syncing now (its worker died, or its task was lost with Redis), and
    of every game the cache knows nothing of. Returns how many were queued."""
    if not transport.configured():
        return 0
    recent = timezone.now() - RECOVER_FINISHED
    # Only games with Telegram messages: a group's, or a tournament's table (its players'
    # private messages). A browser table has none, and its sync would only have built a
    # Bot API client to find that out, for every new table of every visitor.
    game_ids = list(
        Game.objects.filter(Q(status__in=OPEN_STATUSES) | Q(finished_at__gte=recent))
        .filter(Q(chat_id__isnull=False) | Q(tournament_table__isnull=False))
        .values_list("pk", flat=True)
    )
    keys = {game_id: _keys(game_id) for game_id in game_ids}
    values = cache.get_many([k for four in keys.values() for k in four])
    queued = 0
    for game_id, (want, queued_key, lock, done) in keys.items():
        if want not in values and done not in values:
            # The cache forgot the game (Redis restarted empty, with the queued syncs): its
            # messages may be behind, and no later change may come to bring them up to
            # date. One sync finds out; it changes nothing if they were current.
            request_sync(game_id)
            queued += 1
            continue
        if values.get(want) in (None, values.get(done)):
            continue  # nothing changed, or every change was rendered
        if queued_key in values or lock in values:
            continue  # a sync is on its way or running
        _queue(game_id)
        queued += 1
    if queued:
        log.info("queued %s lost syncs", queued)
    # And the other posts a lost task left undone (the tournaments' rounds and ends).
    return queued + sum(recover() for recover in ALSO_RECOVER)


def sync_once(game_id: int, sender: Sender) -> None:
    game = Game.objects.select_related("league").filter(pk=game_id).first()
    if game is None:
        return
    if game.chat_id is None:
        # A browser table: a tournament's has its players' private messages, no other
        # has any Telegram message.
        if is_tournament_table(game.pk):
            Syncer(game, None, sender).run()
        return
    messages, _created = GameMessages.objects.get_or_create(
        game=game, defaults={"chat_id": game.chat_id}
    )
    Syncer(game, messages, sender).run()


def chat_settings(chat_id: int) -> ChatSettings:
    return ChatSettings.objects.filter(chat_id=chat_id).first() or ChatSettings(chat_id=chat_id)


class Syncer:
    """``messages``: the game's group messages; None for a tournament's table, which has
    only its players' private messages."""

    def __init__(self, game: Game, messages: GameMessages | None, sender: Sender):
        self.game = game
        self.messages = messages
        self.sender = sender
        self.chat = chat_settings(game.chat_id) if messages is not None else ChatSettings()
        self.screens = GameScreens(game)

    def run(self) -> None:
        game = self.game
        if self.messages is None:
            if self.screens.started:
                for seat in self.screens.human_seats():
                    self.sync_private(seat)
            return
        with translation.override(self.chat.language):
            self.sync_lobby()
            if self.screens.started:
                self.sync_table()
                self.send_notices()
                if game.status == GameStatus.FINISHED and not self.messages.final_sent:
                    self.group_message(
                        self.screens.final(),
                        self.screens.final_keyboard() + reporting.final_rows(game),
                    )
                    self._save(final_sent=True)
        if self.screens.started:
            for seat in self.screens.human_seats():
                self.sync_private(seat)

    # -- group ------------------------------------------------------------------------
    def _save(self, **fields) -> None:
        for name, value in fields.items():
            setattr(self.messages, name, value)
        GameMessages.objects.filter(pk=self.messages.pk).update(**fields)

    def group_message(self, text: str, rows: Rows | None = None) -> Result:
        result = self.sender.send(self.game.chat_id, text, rows)
        if result.migrated_to is not None:
            self.follow_migration(result.migrated_to)
            result = self.sender.send(self.game.chat_id, text, rows)
        return result

    def follow_migration(self, new_chat_id: int) -> None:
        """The group became a supergroup: move its games there (this one's message ids are
        reset, so they are posted anew) and sync the other games that moved with it."""
        for game_id in chats.migrate(self.game.chat_id, new_chat_id):
            if game_id != self.game.pk:
                request_sync(game_id)
        self.game.chat_id = new_chat_id
        self.messages.refresh_from_db()

    def sync_lobby(self) -> None:
        if self.messages.lobby_message_id is None and self.game.status != GameStatus.LOBBY:
            return  # a game that never had a lobby here (made elsewhere): nothing to edit
        self._place("lobby_message_id", "lobby_hash", self.screens.lobby())

    def sync_table(self) -> None:
        if self.messages.table_message_id is None and self.game.status == GameStatus.ABORTED:
            return  # cancelled before it started: the lobby message says so
        # The first time, the table arrives as a new message: the start is worth a ping.
        self._place("table_message_id", "table_hash", self.screens.table())

    def _place(self, id_field: str, hash_field: str, screen: Screen) -> None:
        """Edit a group message in place (if its content changed), or send it anew."""
        chat = self.game.chat_id
        message_id = getattr(self.messages, id_field)
        if message_id is not None and getattr(self.messages, hash_field) == screen.hash:
            return
        text = self.screens.fill(screen)
        if message_id is not None:
            result = self.sender.edit(chat, message_id, text, screen.rows)
            if result.ok:
                self._save(**{hash_field: screen.hash})
                return
            if not result.gone:
                return
        result = self.sender.send(chat, text, screen.rows)
        if result.migrated_to is not None:
            self.follow_migration(result.migrated_to)
            result = self.sender.send(self.game.chat_id, text, screen.rows)
        if result.ok:
            self._save(**{id_field: result.message_id, hash_field: screen.hash})

    def send_notices(self) -> None:
        for seq, text in self.screens.notices(self.messages.noticed_seq):
            self.group_message(text)
            self._save(noticed_seq=seq)
        if self.game.version > self.messages.noticed_seq:
            self._save(noticed_seq=self.game.version)

    # -- private ----------------------------------------------------------------------
    def sync_private(self, seat) -> None:
        player = seat.player
        if not player.reachable:
            return
        with translation.override(player.language):
            screen = self.screens.private(seat.number)
        if screen is None:
            return
        row, _created = SeatMessage.objects.get_or_create(
            game=self.game, seat=seat.number, defaults={"player": player}
        )
        to_act = seat.number in self.screens.to_act() and not seat.is_computer
        chat = player.telegram_id
        new_turn = to_act and not row.to_act
        if row.message_id is not None and not new_turn and row.text_hash == screen.hash:
            return
        text = self.screens.fill(screen)
        result = None
        if row.message_id is not None and not new_turn:
            result = self.sender.edit(chat, row.message_id, text, screen.rows)
        if result is None or result.gone:
            old = row.message_id
            result = self.sender.send(chat, text, screen.rows)
            if result.ok and old is not None:
                self.sender.delete(chat, old)  # one message per game: the new turn replaces it
        if result.blocked:
            self.player_unreachable(player)
            return
        if result.ok:
            SeatMessage.objects.filter(pk=row.pk).update(
                message_id=result.message_id, text_hash=screen.hash, to_act=to_act
            )

    def player_unreachable(self, player: Player) -> None:
        """The player blocked the bot: remember it and tell the group, once."""
        changed = services.set_reachable(player, False)
        if not changed or self.game.status != GameStatus.RUNNING or self.messages is None:
            return
        with translation.override(self.chat.language):
            text = _(
                "⚠️ I cannot write to %(name)s in private (the bot was blocked?), so their cards"
                " stay hidden. Open a private chat with the bot and press Start to get them back;"
                " when the time runs out, a computer plays the turn."
            ) % {"name": esc(player.display_name)}
            self.group_message(text)


def forget_private(game_id: int, seat: int) -> None:
    """A handler changed a private message (a menu step): the next sync re-renders it."""
    SeatMessage.objects.filter(game_id=game_id, seat=seat).update(text_hash="")
