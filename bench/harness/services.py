"""The services a bench runs (and the soak breaks): its own Redis server, Celery workers
and beat, a web process serving the webhook and a bot process long-polling, all as
production runs them (``docker-compose.yml``), each in its own process group so it can be
killed whole; a PostgreSQL database of a bench's own; the site prepared as production's
web prepares it."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sys
import time
import uuid
from pathlib import Path

import redis
from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection

from bench.harness.ports import free_port, wait_for_port
from bench.harness.processes import Process
from config.celery import app


def queues() -> list[str]:
    """Every queue the settings send tasks to: the default one, the declared ones and
    those the task routes name."""
    names = {app.conf.task_default_queue, *app.amqp.queues}  # a dict by queue name
    routes = app.conf.task_routes or {}
    for route in routes.values() if isinstance(routes, dict) else ():
        queue = route.get("queue") if isinstance(route, dict) else route
        if isinstance(queue, str):
            names.add(queue)
        elif queue is not None:
            names.add(queue.name)
    return sorted(names)


class OwnDatabase:
    """A PostgreSQL database of a bench's own, ``<name>_<label>_<random>``, on the server of
    ``DATABASE_URL``: created by ``create``, dropped by ``drop`` (if it was created)."""

    def __init__(self, label: str):
        s = connection.settings_dict
        self.name = f"{s['NAME']}_{label}_{uuid.uuid4().hex[:8]}"
        auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
        host = f"{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}"
        self.url = f"postgres://{auth}@{host}/{self.name}"
        self.created = False

    def create(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{self.name}"')
        self.created = True

    def drop(self) -> None:
        if self.created:
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def prepare_site(env: dict, log_dir: Path) -> None:
    """What production's web does before it serves: migrate, collect the static files."""
    for step in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        setup = Process(step[0], [sys.executable, "manage.py", *step], env, log_dir)
        if setup.start().proc.wait(600) != 0:
            raise CommandError(f"manage.py {step[0]} failed:\n{setup.tail()}")


class Services:
    def __init__(self, database_url: str, telegram_url: str, token: str, secret: str, log_dir):
        if shutil.which("redis-server") is None:
            raise RuntimeError("the soak runs its own Redis: redis-server must be on the PATH")
        self.log_dir = Path(log_dir)
        self.redis_port = free_port()
        self.web_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database_url,
            "REDIS_URL": self.redis_url,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "TELEGRAM_BOT_TOKEN": token,
            "TELEGRAM_API_URL": telegram_url,
            "TELEGRAM_WEBHOOK_SECRET": secret,
            "TELEGRAM_BOT_USERNAME": "",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(settings.BASE_DIR),
        }
        self.redis: Process | None = None
        self.workers: list[Process] = []
        self.others: dict[str, Process] = {}
        self._count = 0

    def _name(self, kind: str) -> str:
        self._count += 1
        return f"{kind}-{self._count}"

    # -- Redis -----------------------------------------------------------------------------
    def start_redis(self) -> None:
        command = ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.redis = Process(self._name("redis"), command, self.env, self.log_dir).start()
        client = redis.Redis.from_url(self.redis_url, socket_timeout=1)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                client.ping()
                return
            except redis.RedisError:
                time.sleep(0.1)
        raise RuntimeError(f"redis-server did not start:\n{self.redis.tail()}")

    def restart_redis(self, down: float = 2.0) -> None:
        """Redis dies (SIGKILL: no persistence, every queued task and cache key is lost)
        and comes back on the same port after ``down`` seconds."""
        self.redis.signal(signal.SIGKILL)
        time.sleep(down)
        self.start_redis()

    # -- Celery ----------------------------------------------------------------------------
    def start_worker(
        self,
        app: str = "bench.harness.telegram_worker",
        only: list[str] | None = None,
        nice: int = 0,
    ) -> Process:
        """A game worker; ``app``: the soak's (its Telegram calls say what they render) or
        production's own (``config``); ``only``: these queues (else every one), ``nice``:
        its CPU priority, as the compose file runs the computers' workers."""
        name = self._name("worker")
        command = [
            *(("nice", "-n", str(nice)) if nice else ()),
            *(sys.executable, "-m", "celery", "-A", app, "worker"),
            *("--pool=solo", "--concurrency=1", "-Q", ",".join(only or queues())),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
            *("--loglevel=WARNING", "-n", f"{name}-{os.getpid()}@%h"),
        ]
        worker = Process(name, command, self.env, self.log_dir).start()
        self.workers.append(worker)
        return worker

    def kill_worker(self, rng) -> None:
        """SIGKILL one worker mid-whatever-it-does, and start a replacement."""
        victim = rng.choice([w for w in self.workers if w.alive()])
        victim.signal(signal.SIGKILL)
        self.workers.remove(victim)
        self.start_worker()

    def start_beat(self) -> None:
        schedule = self.log_dir / "beat-schedule"
        command = [sys.executable, "-m", "celery", "-A", "config", "beat"]
        command += ["--loglevel=WARNING", "--schedule", str(schedule)]
        self.others["beat"] = Process(self._name("beat"), command, self.env, self.log_dir).start()

    # -- the front-ends --------------------------------------------------------------------
    def start_live(self, port: int, workers: int = 2) -> None:
        """The ``live`` service of compose: gunicorn with uvicorn workers (ASGI) for the
        tables' streams and long polls, which the proxy sends there."""
        command = [sys.executable, "-m", "gunicorn", "config.asgi:application"]
        command += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
        command += ["--worker-class", "server.asgi_worker.Worker", "--timeout", "75"]
        command += ["--no-control-socket"]
        live = Process(self._name("live"), command, self.env, self.log_dir).start()
        self.others["live"] = live
        if not wait_for_port(port, 60):
            raise RuntimeError(f"the live process did not start:\n{live.tail()}")

    def start_web(self, workers: int = 1, asgi: bool = False, threads: int = 16) -> None:
        """The site on a loopback port, as production serves it (``asgi``: gunicorn with
        uvicorn workers, as the Dockerfile runs 3) or as it did before issue 24 (gunicorn's
        threads, WSGI). The soak keeps WSGI: under uvicorn workers its webhook calls timed
        out in bursts (every PROCESS_TIMEOUT) that are still to be understood."""
        command = [sys.executable, "-m", "gunicorn"]
        command += ["--bind", f"127.0.0.1:{self.web_port}", "--workers", str(workers)]
        if asgi:
            command += ["config.asgi:application", "--worker-class", "server.asgi_worker.Worker"]
        else:
            command += ["config.wsgi:application", "--worker-class", "server.wsgi_worker.Worker"]
            command += ["--threads", str(threads)]
        command += ["--timeout", "75", "--no-control-socket"]  # its default path is shared
        web = Process(self._name("web"), command, self.env, self.log_dir).start()
        self.others["web"] = web
        if not wait_for_port(self.web_port, 60):
            raise RuntimeError(f"the web process did not start:\n{web.tail()}")

    def restart_web(self) -> None:
        """A deploy: the web process is stopped (SIGTERM, gunicorn finishes its requests)
        and started again; meanwhile webhook calls fail and are retried."""
        self.others["web"].signal(signal.SIGTERM)
        self.start_web()

    def start_bot(self) -> None:
        command = [sys.executable, "manage.py", "runbot", "--poll-timeout", "5"]
        self.others["bot"] = Process(self._name("bot"), command, self.env, self.log_dir).start()

    def restart_bot(self) -> None:
        """A deploy: the bot process is stopped (SIGTERM: it stops polling and finishes the
        updates in hand) and started again; what it fetched and did not confirm is served
        again to its successor, as Telegram does. (A SIGKILL would lose the updates being
        handled: a poll confirms the previous batch before its handlers are done.)"""
        self.others["bot"].signal(signal.SIGTERM)
        self.start_bot()

    @property
    def webhook_url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}/telegram/webhook"

    def processes(self) -> list[Process]:
        return [p for p in (self.redis, *self.workers, *self.others.values()) if p is not None]

    def dead(self) -> list[str]:
        """The processes that died without being told to."""
        return [p.name for p in self.processes() if not p.alive()]

    def stop(self) -> None:
        for proc in [*self.others.values(), *self.workers]:
            proc.signal(signal.SIGTERM, wait=20)
        if self.redis is not None:
            self.redis.signal(signal.SIGTERM)
