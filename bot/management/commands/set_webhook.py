"""``manage.py set_webhook <url>``: register the webhook with its secret token (and the
command list); ``--delete`` goes back to long polling."""

import asyncio

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from telegram import Update

from bot import transport
from bot.application import publish_commands


class Command(BaseCommand):
    help = "Register the Telegram webhook URL (e.g. https://example.org/telegram/webhook)."

    def add_arguments(self, parser):
        parser.add_argument("url", nargs="?", help="the public URL of /telegram/webhook")
        parser.add_argument("--delete", action="store_true", help="remove the webhook instead")

    def handle(self, *args, url=None, delete=False, **options):
        if not transport.configured():
            raise CommandError("TELEGRAM_BOT_TOKEN is not set.")
        if not delete and not url:
            raise CommandError("Give the webhook URL, or --delete.")
        if not delete and not settings.TELEGRAM_WEBHOOK_SECRET:
            raise CommandError("Set TELEGRAM_WEBHOOK_SECRET first: the webhook checks it.")
        asyncio.run(self._run(url, delete))

    async def _run(self, url, delete):
        bot = transport.make_bot()
        async with bot:
            if delete:
                await bot.delete_webhook()
                self.stdout.write("Webhook removed.")
                return
            await bot.set_webhook(
                url,
                secret_token=settings.TELEGRAM_WEBHOOK_SECRET,
                allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY],
            )
            await publish_commands(bot)
            transport.remember_username(bot.username)
            self.stdout.write(f"Webhook set: {url}")
