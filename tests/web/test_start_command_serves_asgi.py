"""``manage.py start`` serves the site over ASGI (uvicorn), with its own threads beside it:
a page can follow its table by server-sent events (issue 24), and does: run as the README
runs it, the command pushes a change to the stream a page holds open."""

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from launch.management.commands import start
from tests.web.asgi import free_port
from tests.web.sse import EventReader

pytestmark = pytest.mark.django_db


def test_start_serves_the_asgi_application_with_the_schedule_beside_it(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.TELEGRAM_BOT_TOKEN = ""
    served, swept = {}, threading.Event()
    # Celery beat's whole schedule (issue 45), not a stand-in for one of its entries.
    monkeypatch.setattr(start.background, "run_schedule", swept.set)
    monkeypatch.setattr(start, "call_command", lambda *a, **k: None)
    monkeypatch.setattr(start.uvicorn, "run", lambda app, **kw: served.update(kw, app=app))
    start.Command().handle("[::1]:8123", no_bot=True, demo=False, access_log=False)
    assert served["app"] == "config.asgi:application"
    assert (served["host"], served["port"]) == ("::1", 8123)
    assert served["proxy_headers"] is False  # web/clients.py decides whom to believe
    assert served["backlog"] == start.LISTEN_BACKLOG
    assert served["access_log"] is False, "no line per request unless asked (issue 25)"
    assert swept.wait(5), "the schedule's thread starts beside the server"
    start.Command().handle("[::1]:8123", no_bot=True, demo=False, access_log=True)
    assert served["access_log"] is True


def test_start_pushes_a_change_to_an_open_stream_on_the_embedded_default(tmp_path):
    """The README's run command (``python3 dev.py run`` runs ``manage.py start``) in a
    process of its own, on the embedded default (SQLite, no Redis: the change reaches the
    stream through the process's own hub): a table's ``/events/`` is a stream, and a move
    made while it is open arrives on it."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path}/catclub.sqlite3",
        "REDIS_URL": "",  # set, so that no .env brings one
        "DJANGO_DEBUG": "1",  # as the .env that `dev.py run` writes
        "DJANGO_SECRET_KEY": "start-command-test-" + "x" * 40,
        "TELEGRAM_BOT_TOKEN": "",
        "LIVE_HEARTBEAT_SECONDS": "0.5",  # the reader, told to stop, hears so soon
    }
    log = tmp_path / "start.log"
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "start", f"127.0.0.1:{port}", "--no-bot"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        with httpx.Client(base_url=base, timeout=10) as browser:
            up(browser, server, log)
            browser.get("/play/")
            created = browser.post(
                "/play/new/",
                data={"game": "felix", "name": "Ann", "computers": "2"},
                headers={"X-CSRFToken": browser.cookies["csrftoken"]},
            )
            assert created.status_code == 302, created.text
            table = created.headers["location"]
            with EventReader(f"{base}{table}events/", dict(browser.cookies)) as stream:
                # Ann's own table, once the computers (on threads of the server's process)
                # have played up to her turn.
                first = stream.wait_for(lambda event: "data-action=" in event["html"])
                action = re.search(r'data-action="([^"]+)"', first["html"]).group(1)
                moved = browser.post(
                    f"{table}move/",
                    data={"action": action, "version": first["version"], "key": "k1"},
                    headers={"X-CSRFToken": browser.cookies["csrftoken"]},
                )
                assert moved.json()["ok"], moved.text
                after = stream.wait_for(lambda event: event["version"] > first["version"])
                assert after["token"] != first["token"]
                assert stream.connections == 1, "the change came on the stream that was open"
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)


def up(browser: httpx.Client, server: subprocess.Popen, log: Path) -> None:
    """Until the server answers (it migrates a new database first)."""
    deadline = time.monotonic() + 120
    while True:
        assert server.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        try:
            if browser.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
