"""``manage.py telegram setup``: everything about the bot that the Bot API can set, from the
settings, so that BotFather is needed only for what it alone does (the bot, its token, the
Login Widget's domain, the Direct Link Mini App).

It sets the webhook (``SITE_URL``/telegram/webhook, checked with
``TELEGRAM_WEBHOOK_SECRET``), the command lists in each language, the private chat's menu
button (a ``web_app`` button opening the Mini App, ``SITE_URL``/play/tg/), and the bot's
description and short description in each language. Each call replaces what was there, so
running it again (compose runs it on every ``up``) changes nothing.
"""

from __future__ import annotations

import asyncio

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from telegram import MenuButtonWebApp, Update, WebAppInfo
from telegram.error import InvalidToken, TelegramError

from bot import transport
from bot.application import COMMAND_LANGUAGES, publish_commands


def description() -> str:
    # At most 512 characters: shown in an empty private chat, before Start.
    return _(
        "Four cat card games for Telegram groups. Add me to a group and send /new: everyone "
        "joins with a tap, and your cards come here, in private. Press Start so that I may "
        "write to you."
    )


def short_description() -> str:
    # At most 120 characters: the bot's profile and the link previews.
    return _("Cat card games for your Telegram group: /new to play.")


def menu_button_text() -> str:
    return _("Open the tables")


class Command(BaseCommand):
    help = (
        "telegram setup: set the bot's webhook (with its secret), commands, menu button "
        "(the Mini App) and descriptions from the settings. Safe to run again."
    )

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["setup"])

    def handle(self, *args, action: str, **options):
        webhook, miniapp = self._urls()
        try:
            asyncio.run(self._setup(webhook, miniapp))
        except InvalidToken as exc:
            raise CommandError(f"Telegram refused TELEGRAM_BOT_TOKEN (or a method): {exc}") from exc
        except TelegramError as exc:
            raise CommandError(f"Telegram answered with an error: {exc}") from exc
        except OSError as exc:
            raise CommandError(f"Telegram could not be reached: {exc}") from exc

    def _urls(self) -> tuple[str, str]:
        if not transport.configured():
            raise CommandError("TELEGRAM_BOT_TOKEN is not set (BotFather's /newbot gives it).")
        if not settings.TELEGRAM_WEBHOOK_SECRET:
            raise CommandError(
                "TELEGRAM_WEBHOOK_SECRET is not set: the webhook refuses every update "
                "without it (any long random string)."
            )
        if not settings.SITE_URL.startswith("https://"):
            raise CommandError(
                f"SITE_URL is {settings.SITE_URL!r}: Telegram sends webhooks and opens Mini "
                "Apps over https only."
            )
        return (
            settings.SITE_URL + reverse("bot:webhook"),
            settings.SITE_URL + reverse("web:miniapp"),
        )

    async def _setup(self, webhook: str, miniapp: str) -> None:
        bot = transport.make_bot()
        async with bot:
            await bot.set_webhook(
                webhook,
                secret_token=settings.TELEGRAM_WEBHOOK_SECRET,
                allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY],
            )
            self.stdout.write(f"Webhook: {webhook}")
            await publish_commands(bot)
            self.stdout.write(f"Commands: {', '.join(COMMAND_LANGUAGES)} and the default")
            # One menu button for every private chat (the call has no language).
            with translation.override("en"):
                text = menu_button_text()
            await bot.set_chat_menu_button(menu_button=MenuButtonWebApp(text, WebAppInfo(miniapp)))
            self.stdout.write(f"Menu button: {miniapp}")
            for language in (None, *COMMAND_LANGUAGES):
                # No language code: the text for every language we do not speak (English).
                with translation.override(language or "en"):
                    await bot.set_my_description(description(), language_code=language)
                    await bot.set_my_short_description(short_description(), language_code=language)
            self.stdout.write("Descriptions: set")
            transport.remember_username(bot.username)
            self.stdout.write(self.style.SUCCESS(f"@{bot.username} is set up."))
