"""Issue 45, ``dev.py run``: the site serves at once (the demo fills in the background and
says how far it got), says how soon it served its first page, runs without DEBUG unless
asked, and a mistyped address shows the site's own 404 page."""

from __future__ import annotations

import importlib.util
import io
import threading
import time

import pytest
from django.conf import settings as django_settings

from launch.management.commands import start
from tests.web.browser import fits_the_phone
from tests.web.test_accessibility import serious_violations

pytestmark = pytest.mark.django_db


def dev_module():
    spec = importlib.util.spec_from_file_location("dev", django_settings.BASE_DIR / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_issue_45_dev_run_is_without_debug_unless_asked(monkeypatch, tmp_path):
    dev = dev_module()
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)
    dev.ensure_env_file()
    assert "DJANGO_DEBUG" not in (tmp_path / ".env").read_text()
    # A .env that an older dev.py wrote, with DEBUG on, is overridden too.
    (tmp_path / ".env").write_text("DJANGO_DEBUG=1\nDJANGO_SECRET_KEY=x\n")
    env = dev.run_env(debug=False)
    assert env["DJANGO_DEBUG"] == "0"
    assert "localhost" in env["DJANGO_ALLOWED_HOSTS"]  # without DEBUG, none by default
    assert float(env["CATCLUB_STARTED_AT"]) > 0
    assert dev.run_env(debug=True)["DJANGO_DEBUG"] == "1"


def test_issue_45_a_mistyped_address_shows_the_sites_own_404_page(client, settings):
    settings.DEBUG = False
    response = client.get("/plya/")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'class="brand"' in page and "Page not found" in page  # the site's look
    assert "URLconf" not in page and "web:home" not in page
    # An unknown game says so in the same page.
    response = client.get("/games/999999/")
    assert response.status_code == 404 and "Page not found" in response.content.decode()


def test_issue_45_start_serves_before_the_demo_is_made(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.TELEGRAM_BOT_TOKEN = ""
    demo_may_end, demo_began, served, announced = (threading.Event() for _ in range(4))

    def call_command(name, *args, **kwargs):
        if name == "demo":
            demo_began.set()
            assert demo_may_end.wait(10)

    monkeypatch.setattr(start, "call_command", call_command)
    monkeypatch.setattr(start.uvicorn, "run", lambda app, **kw: served.set())
    monkeypatch.setattr(start.Command, "announce", lambda self, host, at: announced.set())
    try:
        start.Command(stdout=io.StringIO()).handle(
            "127.0.0.1:8123", no_bot=True, demo=True, access_log=False
        )
        assert served.is_set() and not demo_may_end.is_set()
        assert demo_began.wait(5) and announced.wait(5)
    finally:
        demo_may_end.set()


def test_issue_45_start_says_how_soon_it_served_its_first_page(live_server):
    out = io.StringIO()
    host = live_server.url.removeprefix("http://")
    start.Command(stdout=out).announce(host, time.time() - 3)
    said = out.getvalue()
    assert f"Serving at {live_server.url}/ after 3 s" in said


def test_issue_45_the_404_page_fits_the_phone_with_no_serious_violation(page, live_server):
    missing = []
    page.on("response", lambda r: r.status == 404 and missing.append(r.url))
    response = page.goto(live_server.url + "/plya/")
    assert response.status == 404
    assert page.locator("header.top .brand").is_visible()
    assert serious_violations(page) == []
    assert fits_the_phone(page)
    # The page itself is the only thing not found (its styles and pictures are there);
    # the browser logs that one answer as an error.
    assert missing == [live_server.url + "/plya/"]
    assert all("404" in problem for problem in page.problems), page.problems
