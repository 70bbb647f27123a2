"""The one factory of the bot's python-telegram-bot ``Application``, used by
``manage.py runbot`` (long polling), the webhook view and the tests.

Building it contacts nobody; Telegram is first called by ``initialize`` (getMe).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import translation
from telegram import BotCommand
from telegram.ext import Application, ApplicationBuilder
from telegram.request import BaseRequest

from bot import transport
from bot.handlers import register, reports
from bot.texts import commands
from bot.tournaments import handlers as tournaments

log = logging.getLogger(__name__)

COMMAND_LANGUAGES = ("en", "it", "pt")


def build_application(
    token: str | None = None, request: BaseRequest | None = None, *, updater: bool = True
) -> Application:
    builder = (
        ApplicationBuilder()
        .token(token or transport.token())
        .base_url(settings.TELEGRAM_API_URL)
        .request(transport.CountedRequest(request or transport.default_request()))
        .post_init(on_startup)
        # One busy group's send window must not hold every other chat's taps.
        .concurrent_updates(True)
    )
    if request is not None:
        builder = builder.get_updates_request(request)
    if not updater:
        builder = builder.updater(None)
    app = builder.build()
    register(app)
    reports.register(app)  # issue 48: /report and the Report buttons
    tournaments.register(app)  # issue 26: /tournament and the announcements' buttons
    return app


async def on_startup(app: Application) -> None:
    """After getMe: remember the bot's username (for deep links) and publish the command
    list in every language."""
    transport.remember_username(app.bot.username)
    await publish_commands(app.bot)


async def publish_commands(bot) -> None:
    for language in (None, *COMMAND_LANGUAGES):
        # No language code: the list for every language we do not speak (in English).
        with translation.override(language or "en"):
            listed = [BotCommand(name, text) for name, text in commands()]
        await bot.set_my_commands(listed, language_code=language)
