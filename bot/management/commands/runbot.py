"""``manage.py runbot``: run the bot with long polling (getUpdates).

Without a broker (``manage.py start`` runs it so) the tasks its handlers queue run in this
process on background threads (``TASKS_IN_PROCESS``), never on the handlers' thread."""

from django.core.management.base import BaseCommand, CommandError
from telegram import Update

from bot import transport
from bot.application import build_application


class Command(BaseCommand):
    help = "Run the Telegram bot with long polling (set TELEGRAM_BOT_TOKEN)."

    def add_arguments(self, parser):
        parser.add_argument("--poll-timeout", type=int, default=30, help="getUpdates timeout (s)")

    def handle(self, *args, **options):
        if not transport.configured():
            raise CommandError("TELEGRAM_BOT_TOKEN is not set.")
        app = build_application()
        self.stdout.write("catclub bot: polling for updates (Ctrl+C stops)")
        self.stdout.flush()
        # Commands are published and the username remembered by the post_init hook.
        app.run_polling(
            allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY],
            timeout=options["poll_timeout"],
            drop_pending_updates=False,
        )
        self.stdout.write("catclub bot: stopped")
