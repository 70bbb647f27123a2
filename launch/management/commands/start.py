"""``manage.py start``: everything the embedded single-machine setup needs, in one command.

Applies migrations, creates the first admin account when there is none, runs Celery beat's
schedule in-process when no broker is configured (every entry of ``CELERY_BEAT_SCHEDULE``,
``server.background.Beat``), starts the bot (long polling) when a token
is set, and serves the site with uvicorn (ASGI): a page following its table by server-sent
events costs a socket, not a thread (``web/live/stream.py``). Static files are
WhiteNoise's, a middleware, as under any server.

With ``--demo`` the demo league is filled on a thread of its own while the site already
serves, its progress printed as it goes: made first, its games and their reviews held the
first page back for minutes on a small machine (issue 45). Once the first page answers,
the command says so and how long it took since it started (``CATCLUB_STARTED_AT``, which
``dev.py run`` sets after its installs).

Without a broker the site and the bot run their tasks in their own processes, on background
threads (``TASKS_IN_PROCESS``, ``server/background.py``): a request or a tap never waits for
a game step or a Telegram sync. What a lost task leaves, this process's schedule finds.
"""

import logging
import os
import secrets
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import uvicorn
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from server import background, edge

# Connections waiting for the server to accept them (Django's server had 10): a crowd of
# pages asking at once overflowed it, and each connection refused that way came back a
# second or more later (TCP's retry), however idle the server was. The system caps it at
# net.core.somaxconn.
LISTEN_BACKLOG = 1024
# Python's thread switch interval in the embedded server (see handle).
SWITCH_SECONDS = 0.0005


class Command(BaseCommand):
    help = "Migrate, create an admin, and run the site (and the bot when a token is set)."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--no-bot", action="store_true", help="do not start the bot")
        parser.add_argument(
            "--demo", action="store_true", help="fill a demo league and keep a game going live"
        )
        parser.add_argument(
            "--access-log", action="store_true", help="log every request (uvicorn's access log)"
        )

    def handle(self, addrport, no_bot, demo, access_log, **options):
        started = float(os.environ.get("CATCLUB_STARTED_AT") or time.time())
        call_command("migrate", interactive=False, verbosity=1)
        self.ensure_admin()
        if demo:
            threading.Thread(target=self.demo, daemon=True, name="demo").start()
        if settings.CELERY_TASK_ALWAYS_EAGER:
            threading.Thread(target=background.run_schedule, daemon=True, name="beat").start()
        bot = None
        if settings.TELEGRAM_BOT_TOKEN and not no_bot:
            bot = subprocess.Popen([sys.executable, "manage.py", "runbot"], cwd=settings.BASE_DIR)
            self.stdout.write("Bot started (long polling).")
        else:
            self.stdout.write("No TELEGRAM_BOT_TOKEN: the bot is not started (see README).")
        host = addrport if ":" in addrport else f"127.0.0.1:{addrport}"
        self.stdout.write(
            self.style.SUCCESS(f"Play in your browser: http://{host}/play/")
            + f"  (the admin: http://{host}/admin/)"
        )
        # One process serves every request and runs the computers' searches: a thread
        # that searches holds Python's interpreter lock for up to this long each time,
        # and a request needs it back dozens of times (5 ms by default, a quarter second
        # added to a click while a hard computer thinks).
        sys.setswitchinterval(SWITCH_SECONDS)
        threading.Thread(
            target=self.announce, args=(host, started), daemon=True, name="announce"
        ).start()
        try:
            serve(host, access_log)
        finally:
            if bot:
                bot.terminate()

    def ensure_admin(self):
        User = get_user_model()
        if User.objects.filter(is_superuser=True).exists():
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser("admin", "", password)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created the admin account: user 'admin', password '{password}'"
                " (change it with `manage.py changepassword admin`)."
            )
        )

    def announce(self, host: str, started: float) -> None:
        """Once the site answers its first page: where, and how soon after the start."""
        address, _, port = host.rpartition(":")
        if address.strip("[]") in ("0.0.0.0", "::", ""):  # noqa: S104 - asked, not bound
            address = "127.0.0.1"
        url = f"http://{address}:{port}/"
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5):
                    break
            except urllib.error.HTTPError:
                break  # an answer all the same
            except OSError:
                time.sleep(0.1)
        self.stdout.write(
            self.style.SUCCESS(f"Serving at {url} after {time.time() - started:.0f} s")
        )

    def demo(self):
        """The demo league's season, then a demo game at a person's pace to watch."""
        try:
            call_command("demo", live=True, stdout=self.stdout)
        except Exception:
            logging.getLogger(__name__).exception("the demo stopped")


def serve(host: str, access_log: bool = False) -> None:
    """The site on ``host`` ("address:port"), in this process: its threads (the schedule, the
    in-process tasks) keep running beside it. uvicorn rewrites no client address from
    X-Forwarded-For: ``web/clients.py`` alone decides which proxy to believe. Django
    speaks no ASGI lifespan. No line per request unless asked (``access_log``): Django
    logs every answer that is an error (4xx and 5xx, ``django.request``), and under the
    abuse bench (issue 25) the access log's line for every refused script was a twentieth
    of the process's work. It faces the internet itself: the edge's limits (header size
    and time, idle connections, their number; server/edge.py) are uvicorn's settings, and
    the body's limit wraps the application (config/asgi.py)."""
    address, _, port = host.rpartition(":")
    uvicorn.run(
        "config.asgi:application",
        host=address.strip("[]"),
        port=int(port),
        backlog=LISTEN_BACKLOG,
        proxy_headers=False,
        lifespan="off",
        access_log=access_log,
        **edge.uvicorn_options(),
    )
