"""The bot's update handlers (python-telegram-bot), registered by ``register``."""

import logging

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.handlers import buttons, commands, migration
from server import logcontext

log = logging.getLogger(__name__)


async def log_error(update, context) -> None:
    log.error("update %s failed", getattr(update, "update_id", None), exc_info=context.error)


async def note_update(update, context) -> None:
    """First for every update (group -1): the logs and the tap latency know which update
    this is and when it arrived (``server.logcontext``; each update runs in its own task)."""
    logcontext.update_started(getattr(update, "update_id", None))


def register(app: Application) -> None:
    app.add_handler(TypeHandler(Update, note_update), group=-1)
    app.add_handler(CommandHandler("start", commands.start))
    app.add_handler(CommandHandler("help", commands.help_command))
    app.add_handler(CommandHandler("rules", commands.rules))
    app.add_handler(CommandHandler("new", commands.new))
    app.add_handler(CommandHandler("cancel", commands.cancel))
    app.add_handler(CommandHandler("stats", commands.stats))
    app.add_handler(CommandHandler("standings", commands.standings))
    app.add_handler(CommandHandler("lang", commands.lang))
    app.add_handler(CommandHandler("settings", commands.settings_command))
    # Buttons, one route per kind (the first character of the data: see bot.callbacks).
    app.add_handler(buttons.route("g", buttons.move))  # a move at the table
    app.add_handler(buttons.route("m", buttons.menu))  # a step of a private menu
    app.add_handler(buttons.route("l", buttons.lobby))  # join, leave, computers, start
    app.add_handler(buttons.route("n", buttons.new_game))  # /new: the game picked
    app.add_handler(buttons.route("r", buttons.rules))  # /rules: the game picked
    app.add_handler(buttons.route("L", buttons.language))  # /lang
    app.add_handler(buttons.route("s", buttons.settings))  # /settings of a group
    app.add_handler(CallbackQueryHandler(buttons.unknown))  # anything else is refused
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migration.chat_migrated))
    app.add_error_handler(log_error)
