"""A tournament in its group (issue 26): the bot's side of ``games.tournaments``' signals.

``round_started`` queues ``post_round``: the round's tables in the group (each with a
button to its live table; the players the bot cannot write to are named, with the link to
its private chat) and each seated player's seat in private (with the web table button).
The seat's cards come from the sync: a tournament's tables are browser tables (a group
holds one open game), whose private messages the bot keeps as it does a group game's
(``bot.sync``), so a player may play by taps as well as at the web table.

``round_started``, ``tournament_finished`` and ``tournament_cancelled`` queue
``tell_tournament``: the announcement is edited to say how far it is, and its end is told
once (the final standings, or why it was called off).

Both run on the Telegram queue, never inside a transaction: what was told is recorded
after each message (``RoundMessages``, ``TournamentMessages``), so a task delivered twice
tells nobody twice, and ``recover`` queues again the posts a lost task left undone.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.cache import caches
from django.utils import timezone, translation
from django.utils.connection import ConnectionProxy

from bot import cachekeys, chats, transport
from bot.models import ChatSettings, RoundMessages, TournamentMessages
from bot.sender import DEFER_AFTER, Deferred, Result, Sender
from bot.tournaments import render
from games.play import services
from games.play.models import Player
from games.play.tasks import schedule
from games.tournaments import rounds
from games.tournaments.models import Entry, Round, RoundTable, Status, Tournament
from games.tournaments.standings import standings
from server.links import absolute

log = logging.getLogger(__name__)

# The locks must hold for every process that may post (the workers, the bot): the
# "shared" cache, as the syncs' (``bot.sync``).
cache = ConnectionProxy(caches, "shared")
LOCK_TTL = 120
# ``recover`` looks back this far for rounds not posted and ends not told.
RECOVER_WITHIN = timedelta(minutes=10)


# -- receivers (connected in ``bot.apps``) -------------------------------------------------
def on_round_started(sender, tournament_id: int, round_id: int, **kwargs) -> None:
    if transport.configured():
        schedule(post_round, round_id)
        schedule(tell_tournament, tournament_id)


def on_tournament_finished(sender, tournament_id: int, **kwargs) -> None:
    if transport.configured():
        schedule(tell_tournament, tournament_id)


def on_tournament_cancelled(sender, tournament_id: int, too_few: bool = False, **kwargs) -> None:
    if transport.configured():
        schedule(tell_tournament, tournament_id, too_few)


def group_language(chat_id: int) -> str:
    found = ChatSettings.objects.filter(chat_id=chat_id).values_list("language", flat=True)
    return found.first() or settings.LANGUAGE_CODE


# -- the announcement ------------------------------------------------------------------------
def facts(t: Tournament) -> render.Facts:
    return render.Facts(
        entrants=Entry.objects.filter(tournament=t, withdrawn_at__isnull=True).count(),
        rounds_played=t.rounds.count(),
        fewest=rounds.fewest(t),
    )


def announcement(t: Tournament):
    """The announcement as it reads now, in its group's language."""
    with translation.override(group_language(t.chat_id)):
        return render.announcement(t, facts(t))


# -- the tasks ---------------------------------------------------------------------------
@contextmanager
def _one_at_a_time(*parts):
    """Hold a lock in the shared cache, or yield False when another task holds it (that
    one does the work: what is told is recorded as it goes)."""
    key = cachekeys.key("tournament", *parts)
    if not cache.add(key, 1, timeout=LOCK_TTL):
        yield False
        return
    try:
        yield True
    finally:
        cache.delete(key)


def _sender() -> Sender:
    # Run in-process (the embedded default, the tests) a task sleeps through every wait.
    eager = post_round.app.conf.task_always_eager
    return Sender(keepalive=lambda: None, defer_after=None if eager else DEFER_AFTER)


def _to_group(sender: Sender, t: Tournament, text: str, rows=None) -> Result:
    """Send to the tournament's group, following it if it became a supergroup."""
    result = sender.send(t.chat_id, text, rows)
    if result.migrated_to is not None:
        chats.migrate(t.chat_id, result.migrated_to)
        t.chat_id = result.migrated_to
        result = sender.send(t.chat_id, text, rows)
    return result


@shared_task(name="bot.tasks.post_round", acks_late=True)
def post_round(round_id: int) -> None:
    rnd = Round.objects.select_related("tournament__league").filter(pk=round_id).first()
    if rnd is None or rnd.tournament.chat_id is None:
        return  # gone, or organised without a group (in the admin)
    with _one_at_a_time("round", round_id) as mine:
        if not mine:
            return
        try:
            with _sender() as sender:
                Poster(rnd, sender).run()
        except Deferred as wait:
            log.info("round %s posts deferred: %s", round_id, wait)
            post_round.apply_async((round_id,), countdown=wait.seconds)


class Poster:
    """A round's messages: the group's, then each seat's."""

    def __init__(self, rnd: Round, sender: Sender):
        self.round = rnd
        self.t = rnd.tournament
        self.sender = sender
        self.record, _created = RoundMessages.objects.get_or_create(round=rnd)
        self.tables = list(rnd.tables.select_related("game").order_by("number"))
        ids = [p for table in self.tables for p in table.players]
        self.people = Player.objects.in_bulk(ids)

    def name(self, player_id: int) -> str:
        player = self.people.get(player_id)
        return player.display_name if player else "?"

    def turn_seconds(self) -> int:
        game = next((t.game for t in self.tables if t.game is not None), None)
        if game is not None and game.turn_seconds:
            return game.turn_seconds
        return settings.TURN_SECONDS.get(self.t.game_type) or self.t.kind.turn_seconds

    def run(self) -> None:
        if not self.record.group_sent:
            self.post_tables()
        for table in self.tables:
            if table.is_bye or table.game is None:
                continue
            for player_id in table.players:
                if player_id not in self.record.told:
                    self.tell_seat(table, player_id)

    def post_tables(self) -> None:
        lines = [
            render.TableLine(
                table.number,
                [self.name(p) for p in table.players],
                url=table_url(table.game_id) if table.game_id else "",
                bye=table.is_bye,
            )
            for table in self.tables
        ]
        seated = [p for table in self.tables if not table.is_bye for p in table.players]
        # Telegram players the bot may not write to (a player of the site has no chat).
        unreachable = [
            self.name(p)
            for p in seated
            if p in self.people and self.people[p].telegram_id and not self.people[p].reachable
        ]
        post = render.RoundPost(
            self.t,
            self.round.number,
            lines,
            self.turn_seconds(),
            settings.TIMEOUTS_BEFORE_COMPUTER,
            unreachable=unreachable,
            start_link=transport.deep_link(f"t{self.t.pk}"),
        )
        with translation.override(group_language(self.t.chat_id)):
            messages = render.round_posts(post)
        for text, rows in messages:
            _to_group(self.sender, self.t, text, rows)
        RoundMessages.objects.filter(pk=self.record.pk).update(group_sent=True)

    def tell_seat(self, table: RoundTable, player_id: int) -> None:
        player = self.people.get(player_id)
        if player is None or not player.reachable or not player.telegram_id:
            return  # the group message named them; their cards come once they press Start
        miniapp = bool(transport.miniapp_link(table.game_id))
        seat = render.SeatAt(
            self.t,
            self.round.number,
            table.number,
            [self.name(p) for p in table.players if p != player_id],
            self.turn_seconds(),
            settings.TIMEOUTS_BEFORE_COMPUTER,
            # The web table: the Mini App in place where one is configured (a private
            # chat allows it), else its page.
            table_url=absolute("web:table", table.game_id),
            web_app=miniapp,
            private_hands=self.t.kind.private_hands,
        )
        with translation.override(player.language):
            text, rows = render.seat_message(seat)
        result = self.sender.send(player.telegram_id, text, rows)
        if result.blocked:
            services.set_reachable(player, False)
        self.record.told = [*self.record.told, player_id]
        RoundMessages.objects.filter(pk=self.record.pk).update(told=self.record.told)


def table_url(game_id: int) -> str:
    """A live table from the group: the Mini App's Direct Link where one is configured
    (a group allows no ``web_app`` button), else the table's page."""
    return transport.miniapp_link(game_id) or absolute("web:table", game_id)


@shared_task(name="bot.tasks.tell_tournament", acks_late=True)
def tell_tournament(tournament_id: int, too_few: bool = False) -> None:
    t = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if t is None or t.chat_id is None:
        return
    with _one_at_a_time("tell", tournament_id) as mine:
        if not mine:
            return
        try:
            with _sender() as sender:
                Teller(t, sender).run(too_few)
        except Deferred as wait:
            log.info("tournament %s news deferred: %s", tournament_id, wait)
            tell_tournament.apply_async((tournament_id, too_few), countdown=wait.seconds)


class Teller:
    def __init__(self, t: Tournament, sender: Sender):
        self.t = t
        self.sender = sender
        self.record, _created = TournamentMessages.objects.get_or_create(
            tournament=t,
            defaults={"chat_id": t.chat_id},  # type: ignore[misc]  # a group's tournament
        )

    def run(self, too_few: bool) -> None:
        self.edit_announcement()
        if self.record.end_sent:
            return
        language = group_language(self.t.chat_id)
        if self.t.status == Status.FINISHED:
            with translation.override(language):
                text = render.final_standings(self.t, self.standings())
        elif self.t.status == Status.CANCELLED:
            with translation.override(language):
                text = render.cancelled(self.t, too_few)
        else:
            return
        _to_group(self.sender, self.t, text)
        TournamentMessages.objects.filter(pk=self.record.pk).update(end_sent=True)

    def edit_announcement(self) -> None:
        text, rows = announcement(self.t)
        message_id = self.record.announcement_id
        if message_id is not None:
            result = self.sender.edit(self.t.chat_id, message_id, text, rows)
            if not result.gone:
                return
        if self.t.status not in (Status.SIGNUP, Status.RUNNING):
            return  # nothing to sign up for: the end is told in a message of its own
        result = _to_group(self.sender, self.t, text, rows)
        if result.ok:
            TournamentMessages.objects.filter(pk=self.record.pk).update(
                announcement_id=result.message_id, chat_id=self.t.chat_id
            )

    def standings(self) -> list[render.Standing]:
        rows = standings(self.t)
        names = dict(
            Player.objects.filter(pk__in=[r.player_id for r in rows]).values_list(
                "pk", "display_name"
            )
        )
        return [render.Standing(r.rank, names.get(r.player_id, "?"), r.points) for r in rows]


def recover() -> int:
    """Queue again the round posts and the ends that a lost task left untold (called by
    ``bot.sync.recover_syncs``). Returns how many were queued."""
    since = timezone.now() - RECOVER_WITHIN
    lost_rounds = (
        Round.objects.filter(started_at__gte=since, tournament__chat_id__isnull=False)
        .exclude(telegram_messages__group_sent=True)
        .values_list("pk", flat=True)
    )
    queued = 0
    for round_id in lost_rounds:
        schedule(post_round, round_id)
        queued += 1
    untold = TournamentMessages.objects.filter(
        end_sent=False,
        tournament__status__in=(Status.FINISHED, Status.CANCELLED),
        tournament__finished_at__gte=since,
    ).values_list("tournament_id", flat=True)
    for tournament_id in untold:
        schedule(tell_tournament, tournament_id)
        queued += 1
    return queued
