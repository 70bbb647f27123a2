"""Reports in Telegram (issue 48), and what moderation tells people there.

A finished game's final message has a "Report" button. Tapped by one of its players, the
bot writes to them in private (nothing more appears in the group): whom, then why. In a
league's group, ``/report`` as a reply to a player's message does the same for that
player (the command message is deleted where the bot may). The buttons' data:

    R<game>                      the final message's button
    R<game>:<seat>               the player chosen
    R<game>:<seat>:<reason>      the reason chosen: the report is filed
    Rp<player>:<league>:<reason> /report's reason chosen

Who taps is always the update's user; a button for a game they did not play, or data the
bot did not make, is refused. Nobody is told who reported, the reported player nothing.

Also here: the messages of ``games.moderation.signals`` (connected in ``bot.apps``): a
case opened, told to its league's moderators; reports handled, told to their reporters;
a warning, told to the player.
"""

from __future__ import annotations

import logging
import re

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _
from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.handlers.common import (
    Reply,
    answer,
    db,
    edit_tapped,
    is_group,
    language_of,
    player_for,
    send,
)
from bot.keyboard import Button, Rows
from bot.render.common import esc
from bot.sender import Sender
from games.leagues.models import League, LeagueMember
from games.leagues.services import league_for_chat
from games.moderation import reports, signals
from games.moderation.models import Case, Report, ReportReason
from games.play.models import Game, Player, Seat
from games.play.tasks import schedule
from server.links import absolute

log = logging.getLogger(__name__)

REASON_CODES = {
    "n": ReportReason.ABUSIVE_NAME,
    "s": ReportReason.STALLING,
    "c": ReportReason.COLLUSION,
    "o": ReportReason.OTHER,
}
_CODE_OF = {reason: code for code, reason in REASON_CODES.items()}
_GAME = re.compile(r"^R(\d{1,12})(?::(\d{1,2})(?::([nsco]))?)?$")
_PLAYER = re.compile(r"^Rp(\d{1,12}):(\d{1,12}):([nsco])$")
PATTERN = re.compile(r"^R")


def _reason_rows(prefix: str) -> Rows:
    return [[Button(str(label).capitalize(), data=f"{prefix}:{code}")] for code, label in _labels()]


def _labels():
    return [(code, ReportReason(reason).label) for code, reason in REASON_CODES.items()]


def _in_league(player: Player, league: League) -> bool:
    return (
        LeagueMember.objects.filter(league=league, player=player).exists()
        or Seat.objects.filter(player=player, game__league=league).exists()
    )


# -- the final message's button ------------------------------------------------------------
@db
def _tap(user, data: str) -> tuple[Reply, tuple[int, str, Rows] | None]:
    """What a tap answers, and a private message to send (chat, text, rows) if any."""
    found = _GAME.match(data)
    with translation.override(language_of(user)):
        if not found:
            return Reply(_("This button is not valid (any more)."), alert=True), None
        game = Game.objects.filter(pk=int(found.group(1))).first()
        player = player_for(user)
        seats = reports.reportable(game, player) if game is not None else []
        if not seats:
            return Reply(str(reports.NotYourGame.message), alert=True), None
        seat_number, code = found.group(2), found.group(3)
        if seat_number is None:
            if not player.reachable:
                return Reply(
                    _("Start a private chat with the bot first, then tap Report again."),
                    alert=True,
                ), None
            rows = [[Button(s.player.display_name, data=f"R{game.pk}:{s.number}")] for s in seats]
            text = "⚑ " + _("Whom do you report from game #%(game)d?") % {"game": game.pk}
            # A reachable player has a Telegram id.
            private = (player.telegram_id, text, rows)
            return Reply(_("I have written to you in private.")), private  # type: ignore[return-value]
        seat = next((s for s in seats if s.number == int(seat_number)), None)
        if seat is None:
            return Reply(_("This button is not valid (any more)."), alert=True), None
        if code is None:
            text = "⚑ " + _("Why do you report %(player)s?") % {
                "player": esc(seat.player.display_name)
            }
            return Reply(edit=(text, _reason_rows(f"R{game.pk}:{seat.number}"))), None
        # A reportable seat is a player's.
        return _file(player, seat.player, REASON_CODES[code], game=game), None  # type: ignore[arg-type]


def _file(reporter: Player, reported: Player, reason: str, **where) -> Reply:
    try:
        reports.file(reporter, reported, reason, source="telegram", **where)
    except reports.ReportRefused as exc:
        return Reply(str(exc), edit=("⚑ " + esc(str(exc)), []), alert=True)
    thanks = _(
        "Thank you: moderators will look at your report. You will not be told what they "
        "decide, and the player is not told who reported."
    )
    return Reply(_("Report sent."), edit=("⚑ " + esc(thanks), []))


@db
def _tap_player(user, data: str) -> Reply:
    found = _PLAYER.match(data)
    with translation.override(language_of(user)):
        if not found:
            return Reply(_("This button is not valid (any more)."), alert=True)
        reported = Player.objects.filter(pk=int(found.group(1))).first()
        league = League.objects.filter(pk=int(found.group(2)), is_active=True).first()
        reporter = player_for(user)
        if reported is None or league is None or not _in_league(reported, league):
            return Reply(_("This button is not valid (any more)."), alert=True)
        return _file(reporter, reported, REASON_CODES[found.group(3)], league=league)


async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    data = query.data or ""
    private = None
    try:
        if data.startswith("Rp"):
            reply = await _tap_player(update.effective_user, data)
        else:
            reply, private = await _tap(update.effective_user, data)
    except Exception:
        log.exception("report button %r failed", data)
        reply = Reply("⚠️", alert=True)
    await answer(update, reply)
    if reply.edit:
        await edit_tapped(update, *reply.edit)
    if private is not None:
        await send(context.bot, *private)


# -- /report as a reply ------------------------------------------------------------------
@db
def _command(user, chat, target) -> tuple[str | None, tuple[int, str, Rows] | None]:
    """A text for the group (a refusal) or a private message to the reporter."""
    with translation.override(language_of(user)):
        league = league_for_chat(chat.id) if is_group(chat) else None
        if league is None:
            return _("/report works in a league's group, as a reply to a player's message."), None
        if target is None or target.is_bot or target.id == user.id:
            return _("Reply to a player's message with /report."), None
        reported = Player.objects.filter(telegram_id=target.id).first()
        if reported is None or not _in_league(reported, league):
            return _("Only the league's players can be reported."), None
        reporter = player_for(user)
        if not reporter.reachable:
            return _("Start a private chat with the bot first, then send /report again."), None
        text = "⚑ " + _("Why do you report %(player)s?") % {"player": esc(reported.display_name)}
        rows = _reason_rows(f"Rp{reported.pk}:{league.pk}")
        return None, (reporter.telegram_id, text, rows)  # type: ignore[return-value]  # reachable


async def report_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    if message is None:
        return
    reply_to = message.reply_to_message
    target = reply_to.from_user if reply_to is not None else None
    refusal, private = await _command(update.effective_user, update.effective_chat, target)
    if refusal is not None:
        await send(context.bot, update.effective_chat.id, esc(refusal))
        return
    try:  # the group need not see who reports (the bot may delete only as an admin)
        await message.delete()
    except TelegramError as exc:
        log.info("could not delete a /report: %s", exc)
    await send(context.bot, *private)


def register(app: Application) -> None:
    app.add_handler(CommandHandler("report", report_command))
    handler = CallbackQueryHandler(on_tap, pattern=PATTERN)
    app.add_handler(handler)
    # Ahead of the catch-all that refuses the buttons it does not know.
    handlers = app.handlers[0]
    handlers.remove(handler)
    handlers.insert(0, handler)


# -- what moderation tells in Telegram ------------------------------------------------------
def _send_private(player: Player, text: str) -> None:
    if player.telegram_id is None or not settings.TELEGRAM_BOT_TOKEN:
        return
    with Sender(keepalive=lambda: None, defer_after=None) as sender:
        sender.send(player.telegram_id, text)


@shared_task(name="bot.tasks.tell_moderation", acks_late=True)
def tell(what: str, ids: list[int]) -> None:
    """``what``: "handled" (report ids: their reporters), "opened" (a case id: its
    league's moderators), "warned" (a player id)."""
    if what == "handled":
        reporters = Player.objects.filter(
            pk__in=Report.objects.filter(pk__in=ids).values("reporter")
        )
        for player in reporters:
            with translation.override(player.language):
                _send_private(
                    player,
                    "⚑ " + _("A moderator has handled your report. Thank you for helping."),
                )
    elif what == "warned":
        for player in Player.objects.filter(pk__in=ids):
            with translation.override(player.language):
                _send_private(
                    player,
                    "⚠️ "
                    + _(
                        "A moderator warns you about how you play or behave in games. "
                        "Please play fair and be kind; a further report may lead to a ban."
                    ),
                )
    elif what == "opened":
        case = Case.objects.select_related("player", "league").filter(pk=ids[0]).first()
        if case is None or case.league is None:
            return
        moderators = Player.objects.filter(
            Q(memberships__league=case.league, memberships__is_moderator=True),
            telegram_id__isnull=False,
        ).exclude(pk=case.player_id)
        link = absolute("admin:games_case_change", case.pk)
        for player in moderators:
            with translation.override(player.language):
                _send_private(
                    player,
                    "⚑ "
                    + _("A new case in %(league)s: %(kind)s about %(player)s.")
                    % {
                        "league": esc(case.league.name),
                        "kind": esc(case.get_kind_display()),
                        "player": esc(case.player.display_name),
                    }
                    + "\n"
                    + link,
                )


def on_reports_handled(sender, report_ids, **_kwargs) -> None:
    schedule(tell, "handled", list(report_ids))


def on_case_opened(sender, case_id, **_kwargs) -> None:
    schedule(tell, "opened", [case_id])


def on_player_warned(sender, player_id, **_kwargs) -> None:
    schedule(tell, "warned", [player_id])


def connect() -> None:
    """Called by ``bot.apps``."""
    signals.reports_handled.connect(on_reports_handled, dispatch_uid="bot-reports-handled")
    signals.case_opened.connect(on_case_opened, dispatch_uid="bot-case-opened")
    signals.player_warned.connect(on_player_warned, dispatch_uid="bot-player-warned")
