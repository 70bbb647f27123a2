"""The two backends the bench serves from (the embedded default, production's services), the
bench's own connection to their database, and the lock-wait probe."""

from __future__ import annotations

import os
import secrets
import signal
import sqlite3
import sys
import threading
import time
from pathlib import Path

import environ
from django.conf import settings
from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import load_backend

from bench.abuse.common import ALIAS, TOKEN, TURN_SECONDS, WAIT_SECONDS, Run
from bench.harness.ports import free_port, wait_for_port
from bench.harness.processes import Process
from bench.harness.services import OwnDatabase, Services, prepare_site
from games import catalog


class Probe:
    """Lock waits, every 100 ms while the clients run."""

    def __init__(self, run: Run, site: Embedded | Production):
        self.run, self.vendor, self.database_url = run, site.vendor, site.database_url
        self.sqlite_path = getattr(site, "sqlite_path", None)

    def thread(self) -> threading.Thread:
        target = self.sqlite if self.vendor == "sqlite" else self.postgres
        return threading.Thread(target=target, name="probe", daemon=True)

    def sqlite(self) -> None:
        """A tiny write of its own on the database file, with the server's busy timeout:
        how long an unrelated write waits for the write lock."""
        db = sqlite3.connect(self.sqlite_path, timeout=20, isolation_level=None)
        db.execute("CREATE TABLE IF NOT EXISTS abuse_probe (id INTEGER PRIMARY KEY, at REAL)")
        while self.run.playing():
            started = time.perf_counter()
            try:
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO abuse_probe (at) VALUES (?)", (time.time(),))
                db.execute("COMMIT")
            except sqlite3.OperationalError:  # "database is locked": the busy timeout passed
                self.run.probe_failures += 1
            self.run.lock_waits.append((time.perf_counter() - started) * 1000)
            self.run.stop.wait(0.1)
        db.close()

    def postgres(self) -> None:
        """The longest wait of any query of the bench's database for a lock."""
        sql = (
            "SELECT coalesce(max(extract(epoch FROM clock_timestamp() - query_start)), 0)"
            " FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        )
        connect(self.database_url)
        try:
            with connections[ALIAS].cursor() as cursor:
                while self.run.playing():
                    cursor.execute(sql)
                    self.run.lock_waits.append(float(cursor.fetchone()[0]) * 1000)
                    self.run.stop.wait(0.1)
        finally:
            disconnect()


# -- the servers ------------------------------------------------------------------------
def server_env() -> dict[str, str]:
    """What both backends' servers are told beyond their own settings (see the module's
    docstring), and a bot token for the Mini App's signature (its Bot API: a closed port)."""
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "TABLE_WAIT_SECONDS": str(WAIT_SECONDS),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": f"http://127.0.0.1:{free_port()}/bot",
        "TELEGRAM_BOT_USERNAME": "",
        "LOG_LEVEL": "WARNING",
        # The bench is the proxy in front of the site: each simulated client comes with an
        # address of its own in X-Forwarded-For, as a public site's visitors do.
        "TRUSTED_PROXIES": "127.0.0.1/32",
    }
    for slug in catalog.slugs():
        env[f"TURN_SECONDS_{slug.upper()}"] = str(TURN_SECONDS)
    return env


class Embedded:
    """The embedded default as ``python3 dev.py run`` starts it: ``manage.py start`` (DEBUG
    on, migrations applied at start), SQLite, tasks in-process, no Redis."""

    vendor = "sqlite"

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.sqlite_path = log_dir / "abuse.sqlite3"
        self.database_url = f"sqlite:///{self.sqlite_path}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.live = self.base  # one process serves it all
        self.server: Process | None = None

    def start(self) -> None:
        drop = ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "CELERY_QUEUE")
        env = {k: v for k, v in os.environ.items() if k not in drop}
        env.update(server_env(), DATABASE_URL=self.database_url, DJANGO_DEBUG="1")
        command = [sys.executable, "manage.py", "start", "--no-bot", f"127.0.0.1:{self.port}"]
        self.server = Process("embedded", command, env, self.log_dir).start()
        if not wait_for_port(self.port, 180):
            raise CommandError(f"manage.py start did not serve:\n{self.server.tail()}")

    def dead(self) -> list[str]:
        return [] if self.server.alive() else ["manage.py start"]

    def stop(self) -> None:
        if self.server is not None:
            self.server.signal(signal.SIGTERM, wait=10)


class Production:
    """Production's shape, as compose runs it: ``web`` (gunicorn, 3 workers of 32 threads)
    and ``live`` (gunicorn, 2 uvicorn workers) with DEBUG off and the static files
    collected, two Celery game workers, a sync worker and a computers' one, beat, its own
    Redis, and a PostgreSQL database of its own, migrated, dropped afterwards."""

    vendor = "postgresql"

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.database = OwnDatabase("abuse")
        self.database_url = self.database.url
        self.services: Services | None = None
        self.base = self.live = ""

    def start(self) -> None:
        self.database.create()
        telegram = f"http://127.0.0.1:{free_port()}/bot"
        services = Services(self.database.url, telegram, TOKEN, "", self.log_dir)
        self.services = services
        services.env.pop("DJANGO_DEBUG", None)
        services.env.update(server_env())
        services.env["DATABASE_POOL_MAX_SIZE"] = "12"  # as compose runs them
        services.env["SITE_URL"] = f"http://127.0.0.1:{services.web_port}"
        prepare_site(services.env, self.log_dir)
        services.start_redis()
        # As compose runs them: game work, the Telegram syncs (which wait for their chats'
        # send windows, seconds at a time) and the computers each on workers of their own.
        for _ in range(2):
            services.start_worker(app="config", only=[settings.GAMES_QUEUE])
        services.start_worker(app="config", only=[settings.TELEGRAM_QUEUE])
        services.start_worker(app="config", only=[settings.COMPUTERS_QUEUE], nice=10)
        services.start_beat()
        # As compose serves the site: ``web`` under gunicorn's threads, and ``live`` (the
        # tables' streams and polls, where the proxy sends them) under uvicorn workers.
        services.start_web(workers=3, threads=32)
        live = free_port()
        services.start_live(live)
        self.base = f"http://127.0.0.1:{services.web_port}"
        self.live = f"http://127.0.0.1:{live}"

    def dead(self) -> list[str]:
        return self.services.dead() if self.services else []

    def stop(self) -> None:
        if self.services is not None:
            self.services.stop()
        self.database.drop()


def connect(url: str) -> None:
    """The bench's own connection to the server's database, for this thread, as ``ALIAS``.
    Made on the fly, not added to the settings: a test that allows database access allows
    such a connection too."""
    config = environ.Env.db_url_config(url)
    if config["ENGINE"].endswith("sqlite3"):
        config["OPTIONS"] = {"timeout": 20}
    # configure_settings fills in what a configured database gets by default.
    config = connections.configure_settings({DEFAULT_DB_ALIAS: config})[DEFAULT_DB_ALIAS]
    connections[ALIAS] = load_backend(config["ENGINE"]).DatabaseWrapper(config, ALIAS)


def disconnect() -> None:
    connections[ALIAS].close()
    del connections[ALIAS]
