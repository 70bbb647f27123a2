"""Real Celery worker processes for the reliability tests."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def test_database_url() -> str:
    """The URL of the database the test run is using (pytest-django's test database)."""
    s = connection.settings_dict
    if connection.vendor != "postgresql":
        raise RuntimeError("worker processes need the PostgreSQL test database")
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class WorkerProcess:
    """``celery worker`` in a child process, against the test database and Redis.

    It consumes the test run's queues (both, unless ``queues`` picks some), with
    production's solo pool unless ``pool`` says otherwise."""

    def __init__(
        self,
        app: str = "config",
        log_dir: Path | None = None,
        *,
        queues: list[str] | None = None,
        pool: str = "solo",
        concurrency: int = 1,
        **env: str,
    ):
        self.app = app
        self.queues = queues
        self.pool = pool
        self.concurrency = concurrency
        self.name = f"w{uuid.uuid4().hex[:6]}@%h"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": test_database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "PYTHONPATH": str(ROOT),
            **env,
        }
        self.log_path = (log_dir or Path("/tmp")) / f"celery-{uuid.uuid4().hex[:6]}.log"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> WorkerProcess:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                self.app,
                "worker",
                f"--pool={self.pool}",
                f"--concurrency={self.concurrency}",
                *(["-Q", ",".join(self.queues)] if self.queues else []),
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                "-n",
                self.name,
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log_path.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() takes the children too
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited early:\n{self.log()}")
            if self.answers_ping():
                return self
        raise RuntimeError(f"worker did not start:\n{self.log()}")

    def answers_ping(self) -> bool:
        from config.celery import app

        try:
            replies = app.control.ping(timeout=0.5)
        except Exception:  # the broker itself is not there
            return False
        return any(self.name.split("@")[0] in name for reply in replies for name in reply)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL to the worker's process group: no cleanup, no acknowledgement, the
        transaction is cut off."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def worker_in_this_process(concurrency: int):
    """A real Celery worker (threads, in this process) consuming from Redis, tasks no
    longer eager while it runs."""
    from celery.contrib.testing.worker import start_worker
    from celery.result import _set_task_join_will_block

    from config.celery import app

    app.conf.task_always_eager = False
    try:
        with start_worker(app, pool="threads", concurrency=concurrency, perform_ping_check=False):
            yield app
    finally:
        app.conf.task_always_eager = True
        # A worker marks its process as one where waiting for a result would block, and a
        # pool it builds again after start_worker cleared the mark (on a loaded machine)
        # sets it anew: every later test in this process would then be refused .get().
        _set_task_join_will_block(False)
