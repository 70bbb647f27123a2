"""Telegram's announcement that a group became a supergroup (a service message)."""

from telegram import Update
from telegram.ext import ContextTypes

from bot import chats, sync
from bot.handlers.common import db


def _migrate(old: int, new: int) -> None:
    for game_id in chats.migrate(old, new):
        sync.request_sync(game_id)  # posts the moved game anew in the supergroup


async def chat_migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    if message.migrate_to_chat_id:  # in the old group
        old, new = message.chat.id, message.migrate_to_chat_id
    else:  # in the new supergroup
        old, new = message.migrate_from_chat_id, message.chat.id
    await db(_migrate)(old, new)
