"""Every inline button lands here, one route per kind of button (``bot.handlers.register``
reads as the map: the first character of the data, documented in ``bot.callbacks``, names the
route). Each tap is answered exactly once, at once, with a short toast in the tapper's
language; the player is the update's user, never the data."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _
from telegram import Update
from telegram.ext import CallbackQueryHandler, ContextTypes

from bot import cachekeys, callbacks, sync
from bot.handlers import commands
from bot.handlers.common import (
    Reply,
    answer,
    db,
    edit_tapped,
    is_chat_admin,
    is_group,
    language_of,
    player_for,
)
from bot.handlers.settings_menu import apply as apply_setting
from bot.render import lobby as lobby_render
from bot.render import renderer
from bot.screens import GameScreens
from bot.texts import rules_text
from games import catalog
from games.languages import Language, native_name
from games.play import levels, services
from games.play.errors import GameError
from games.play.models import Game, GameStatus
from games.ratings import at_my_level

log = logging.getLogger(__name__)

# One move per seat and seen version: a flood of taps on one button records one move.
TAP_TTL = 30
MANAGING_OPS = ("s", "q", "c", "r", "k", "v")


Route = Callable[[Update, ContextTypes.DEFAULT_TYPE, callbacks.Data], Awaitable[Reply]]


def route(kind: str, handler: Route) -> CallbackQueryHandler:
    """The handler of the buttons whose data starts with ``kind``: the data is decoded
    (forged or stale data is refused), ``handler`` decides, and the tap is answered."""

    async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        try:
            data = callbacks.decode(query.data)
        except callbacks.BadData:
            await unknown(update, context)
            return
        try:
            reply = await handler(update, context, data)
        except Exception:
            log.exception("button %r failed", query.data)
            reply = await _refusal(update.effective_user, "error")
        # The tap is answered first: editing the message may wait for the chat's send window.
        await answer(update, reply)
        if reply.edit:
            await edit_tapped(update, *reply.edit)

    return CallbackQueryHandler(on_tap, pattern=re.compile("^" + re.escape(kind)))


async def unknown(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A button the bot did not make (or made by an older version)."""
    await answer(update, await _refusal(update.effective_user, "bad"))


@db
def _refusal(user, why: str) -> Reply:
    with translation.override(language_of(user)):
        texts = {
            "bad": _("This button is not valid (any more)."),
            "error": _("Something went wrong; please try again."),
            "private": _("This button works in your private chat with the bot."),
            "chat": _("This button belongs to another chat."),
        }
        return Reply(texts[why])


def _private_chat(update: Update) -> bool:
    message = update.callback_query.message
    return message is not None and message.chat.id == update.effective_user.id


# -- moves ------------------------------------------------------------------------------------


@db
def _move(user, data: callbacks.Data, query_id: str) -> Reply:
    player = player_for(user)
    with translation.override(player.language):
        tap = cachekeys.key("tap", data.game_id, player.pk, data.version)
        if not cache.add(tap, query_id, timeout=TAP_TTL):
            return Reply(_("Got it already — one moment."))
        try:
            move = services.submit_move(data.game_id, player, data.arg, query_id, data.version)
        except GameError as exc:
            cache.delete(tap)
            return Reply(str(exc))
        return Reply(renderer(move.game.game_type).toast(data.arg, None))


async def move(update: Update, context, data: callbacks.Data) -> Reply:
    return await _move(update.effective_user, data, update.callback_query.id)


@db
def _private_screen(user, data: callbacks.Data) -> Reply:
    """A menu step in the player's private message."""
    player = player_for(user)
    with translation.override(player.language):
        game = Game.objects.filter(pk=data.game_id).first() if data.game_id else None
        seat = game.seats.filter(player=player).first() if game is not None else None
        if game is None or seat is None:
            return Reply(_("You are not playing in this game."))
        if game.status != GameStatus.RUNNING:
            return Reply(_("The game is over."))
        if data.version != game.version:
            return Reply(_("This button is out of date."))
        screens = GameScreens(game)
        screen = screens.private(seat.number, prefix=data.arg)
        if screen is None:
            return Reply(_("That is not possible now."))
        sync.forget_private(game.pk, seat.number)
        return Reply("", edit=(screens.fill(screen), screen.rows))


async def menu(update: Update, context, data: callbacks.Data) -> Reply:
    if not _private_chat(update):  # a private view must never land in a group message
        return await _refusal(update.effective_user, "private")
    return await _private_screen(update.effective_user, data)


# -- the lobby ----------------------------------------------------------------------------------


@db
def _lobby_facts(game_id: int):
    game = Game.objects.filter(pk=game_id).select_related("created_by").first()
    if game is None:
        return None, None
    return game.chat_id, game.created_by.telegram_id if game.created_by else None


@db
def _lobby(user, data: callbacks.Data, is_admin: bool) -> Reply:
    player = player_for(user)
    op = data.arg
    with translation.override(player.language):
        game = Game.objects.filter(pk=data.game_id).first() if data.game_id else None
        if game is None:
            return Reply(_("This game no longer exists."))
        manager = is_admin or player.pk == game.created_by_id
        try:
            if op == "j":
                services.join(game, player)
                if not player.reachable:
                    return Reply(
                        _(
                            "You joined! Now open a private chat with the bot and press Start,"
                            " so that it can send you your cards."
                        ),
                        alert=True,
                    )
                return Reply(_("You joined the game."))
            if op == "x":
                services.leave(game, player)
                return Reply(_("You left the game."))
            if op == "s":
                services.start(game, by=player, is_chat_admin=is_admin)
                return Reply(_("The game starts!"))
            if op == "q":
                services.abort(game, by=player, is_chat_admin=is_admin)
                return Reply(_("The game was cancelled."))
            if not manager:
                return Reply(_("Only the game's creator or a chat administrator may do that."))
            if op[0] == "c":
                level = callbacks.added_level(op)
                seat = services.add_computer(
                    game,
                    levels.strategy_for(game.kind, level),
                    by=player,
                    is_chat_admin=is_admin,
                )
                if level is None:
                    return Reply(_("A computer joins the table."))
                return Reply(
                    _("%(name)s joins the table at level %(level)s.")
                    % {
                        "name": lobby_render.computer_name(seat),
                        "level": levels.with_rating(game.kind, level),
                    }
                )
            if op[0] == "v":
                return _next_level(game, op, player, is_admin)
            if op == "m":
                return _at_my_level(game, player, is_admin)
            number = int(op[1:])
            if op[0] == "k":
                services.remove_seat(game, number, by=player, is_chat_admin=is_admin)
                return Reply(_("The computer left the table."))
            taken = game.seats.select_related("player").filter(number=number).first()
            if taken is None or taken.player is None or taken.player.reachable:
                return Reply(_("That is not possible now."))
            services.replace_with_computer(
                game,
                number,
                by=player,
                is_chat_admin=is_admin,
            )
            return Reply(_("A computer takes that seat."))
        except GameError as exc:
            return Reply(str(exc))


def _next_level(game: Game, op: str, player, is_admin: bool) -> Reply:
    """A lobby computer's level button: the seat moves on from the level the button showed
    (a button older than the seat's level is refused, so a double tap changes it once)."""
    number, shown = callbacks.level_tapped(op)
    level = levels.next_level(shown)
    seat = services.set_computer_level(
        game, number, level, by=player, is_chat_admin=is_admin, current=shown
    )
    return Reply(
        _("%(name)s now plays at level %(level)s.")
        % {"name": lobby_render.computer_name(seat), "level": levels.with_rating(game.kind, level)}
    )


def _at_my_level(game: Game, player, is_admin: bool) -> Reply:
    """ "Play at my level" (issue 47): the table's computers move to the level whose rating
    is nearest the tapper's in this game (one sits down when none has yet)."""
    seats = list(game.seats.all())
    computers = [s.number for s in seats if s.player_id is None]
    level = at_my_level.level_for(player, game.kind, max(len(seats), game.kind.min_players))
    if not computers:
        services.add_computer(
            game, levels.strategy_for(game.kind, level), by=player, is_chat_admin=is_admin
        )
    for number in computers:
        services.set_computer_level(game, number, level, by=player, is_chat_admin=is_admin)
    return Reply(
        _("The computers play at level %(level)s, nearest your rating.")
        % {"level": levels.with_rating(game.kind, level)}
    )


async def lobby(update: Update, context, data: callbacks.Data) -> Reply:
    chat_id, creator = await _lobby_facts(data.game_id)
    message = update.callback_query.message
    if chat_id is not None and message is not None and message.chat.id != chat_id:
        return await _refusal(update.effective_user, "chat")
    user = update.effective_user
    is_admin = False
    if chat_id is not None and data.arg[0] in MANAGING_OPS and user.id != creator:
        is_admin = await is_chat_admin(context.bot, chat_id, user.id)
    return await _lobby(user, data, is_admin)


# -- /new picker, /rules picker, /lang, /settings ----------------------------------------------


async def new_game(update: Update, context, data: callbacks.Data) -> Reply:
    # "<slug>" from /new's picker; "<slug>.<game>" from a final result's "Play again"
    # (issue 45): the new lobby seats that game's computers at their levels too.
    slug, _dot, previous = data.arg.partition(".")
    if slug not in catalog.slugs() or (previous and not previous.isdigit()):
        return await _refusal(update.effective_user, "bad")
    chat = update.callback_query.message.chat if update.callback_query.message else None
    if chat is None:
        return await _refusal(update.effective_user, "bad")
    again_of = int(previous) if previous else None
    reply = await commands.create_lobby(update.effective_user, chat, slug, again_of=again_of)
    if reply:
        return Reply(reply[0])
    return Reply("🎲 " + await _game_label(update.effective_user, slug))


@db
def _game_label(user, slug: str) -> str:
    with translation.override(language_of(user)):
        return str(catalog.get(slug).name)


@db
def _rules(user, chat, slug: str) -> Reply:
    language = language_of(user)
    if is_group(chat):
        language = commands.chat_settings_for(chat).language
    with translation.override(language):
        return Reply("", edit=(rules_text(slug), []))


async def rules(update: Update, context, data: callbacks.Data) -> Reply:
    if data.arg not in catalog.slugs() or update.callback_query.message is None:
        return await _refusal(update.effective_user, "bad")
    return await _rules(update.effective_user, update.callback_query.message.chat, data.arg)


@db
def _set_language(user, code: str) -> Reply:
    player = player_for(user)
    if code not in Language.values:
        return Reply(_("This button is not valid (any more)."))
    services.set_language(player, code)
    sync.request_sync_for_player(player)  # private messages follow the new language
    with translation.override(code):
        text = _("Your language for private messages:")
        return Reply(
            _("Language: %(name)s") % {"name": native_name(code)},
            edit=(text, commands.language_keyboard(code)),
        )


async def language(update: Update, context, data: callbacks.Data) -> Reply:
    return await _set_language(update.effective_user, data.arg)


@db
def _change_setting(user, chat, arg: str) -> Reply:
    player = player_for(user)
    op, _sep, value = arg.partition(":")
    chat_settings = commands.chat_settings_for(chat, player)
    screen = apply_setting(chat_settings, op, value, title=chat.title or "")
    with translation.override(player.language):
        if screen is None:
            return Reply(_("This button is not valid (any more)."))
        return Reply(_("Saved.") if op not in ("leagues", "main") else "", edit=screen)


async def settings(update: Update, context, data: callbacks.Data) -> Reply:
    message = update.callback_query.message
    if message is None or not is_group(message.chat):
        return await _refusal(update.effective_user, "bad")
    if not await is_chat_admin(context.bot, message.chat.id, update.effective_user.id):
        return await _admins_only(update.effective_user)
    return await _change_setting(update.effective_user, message.chat, data.arg)


@db
def _admins_only(user) -> Reply:
    with translation.override(language_of(user)):
        return Reply(_("Only the group's administrators may change its settings."))
