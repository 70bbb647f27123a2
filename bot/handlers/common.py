"""Helpers for the handlers: database work off the event loop, the player behind an
update, answers and replies within the limits, the administrator check."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections
from telegram import Chat, Update, User
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import TelegramError

from bot import cachekeys, ratelimit
from bot.keyboard import Rows, to_markup
from bot.sender import NO_PREVIEW
from games.languages import from_telegram
from games.play import services
from games.play.models import Player
from server import metrics

log = logging.getLogger(__name__)

TOAST_LIMIT = 200
ADMIN_TTL = 60


def db(fn):
    """Run a synchronous (database) function from a handler, on Django's thread. One thread
    serves every handler, so nothing slow may run there: the tasks a handler queues (a game
    step, a Telegram sync) run elsewhere, on a worker or, on the embedded default, on the
    background threads of ``server/background.py``, and the tap is answered meanwhile."""

    @functools.wraps(fn)
    def fresh(*args, **kwargs):
        close_old_connections()  # a long-running bot must not reuse a dropped connection
        return fn(*args, **kwargs)

    return sync_to_async(fresh, thread_sensitive=True)


def player_for(user: User) -> Player:
    return services.player_from_telegram(
        user.id,
        user.full_name or user.username or str(user.id),
        user.username or "",
        user.language_code,
    )


def language_of(user: User | None) -> str:
    """The user's language without creating anything (for refusals)."""
    if user is None:
        return settings.LANGUAGE_CODE
    stored = Player.objects.filter(telegram_id=user.id).values_list("language", flat=True).first()
    return stored or from_telegram(user.language_code)


@dataclass
class Reply:
    """What a button handler wants done: a toast, and maybe a new text for the message."""

    toast: str = ""
    edit: tuple[str, Rows] | None = None
    alert: bool = False


async def answer(update: Update, reply: Reply) -> None:
    query = update.callback_query
    try:
        await query.answer(reply.toast[:TOAST_LIMIT] or None, show_alert=reply.alert)
    except TelegramError as exc:
        log.info("could not answer callback query %s: %s", query.id, exc)
    metrics.tap_answered()


async def edit_tapped(update: Update, text: str, rows: Rows) -> None:
    """Replace the text and buttons of the message whose button was tapped."""
    message = update.callback_query.message
    if message is None:
        return
    await ratelimit.async_wait_turn(message.chat.id)
    try:
        await update.callback_query.edit_message_text(
            text,
            parse_mode=ParseMode.HTML,
            reply_markup=to_markup(rows),
            link_preview_options=NO_PREVIEW,
        )
    except TelegramError as exc:
        if "not modified" not in str(exc).lower():
            log.info("could not edit message: %s", exc)


async def send(bot, chat_id: int, text: str, rows: Rows | None = None) -> None:
    await ratelimit.async_wait_turn(chat_id)
    try:
        await bot.send_message(
            chat_id,
            text,
            parse_mode=ParseMode.HTML,
            reply_markup=to_markup(rows),
            link_preview_options=NO_PREVIEW,
        )
    except TelegramError as exc:
        log.info("could not send to %s: %s", chat_id, exc)


def is_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP)


async def is_chat_admin(bot, chat_id: int, user_id: int) -> bool:
    key = cachekeys.key("admin", chat_id, user_id)
    cached = cache.get(key)
    if cached is not None:
        return cached
    try:
        member = await bot.get_chat_member(chat_id, user_id)
        admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
    except TelegramError as exc:
        log.info("getChatMember %s/%s failed: %s", chat_id, user_id, exc)
        admin = False
    cache.set(key, admin, ADMIN_TTL)
    return admin
