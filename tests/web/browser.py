"""A real browser for the web tests: Debian's Chromium, headless, driven by Playwright
(never a downloaded browser), with fixtures that catch page errors and any request that
leaves the site. Imported by the conftest, so every web test can ask for ``page``."""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests import services

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(settings.BASE_DIR) / "test-artifacts"
PHONE = {"width": 390, "height": 844}


def ensure_chromium() -> str:
    if not os.path.exists(CHROMIUM) and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, timeout=600)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "chromium"], check=False, env=env, timeout=900
        )
    if not os.path.exists(CHROMIUM):
        services.unavailable(
            "needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium)"
        )
    return CHROMIUM


@pytest.fixture(scope="module")
def chromium():
    path = ensure_chromium()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread while it runs; the test's
    # own database work (seeding, the database flush after it) is ordinary synchronous
    # code, which Django would otherwise refuse next to a running loop.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=ARGS, headless=True)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@contextlib.contextmanager
def phone_page(chromium, base: str):
    """A phone-sized page of the site at ``base``, with ``problems`` (page errors, console
    errors, any request that leaves the site) and ``asked`` (the address of every request
    it made); closed before the database is emptied, so no request of its own outlives
    the test."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=2, locale="en-GB")
    page = context.new_page()
    page.problems = []
    page.asked = []
    page.on("pageerror", lambda exc: page.problems.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda msg: msg.type == "error" and page.problems.append(f"console: {msg.text}"),
    )

    def outside(request):
        page.asked.append(request.url)
        if not request.url.startswith(base) and not request.url.startswith("data:"):
            page.problems.append(f"external request: {request.url}")

    page.on("request", outside)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(chromium, live_server, transactional_db):
    """A phone-sized page of the live server (WSGI: the table is long polled)."""
    with phone_page(chromium, live_server.url) as page:
        yield page
    requests_done(live_server)


def requests_done(live_server, seconds: float = 15) -> None:
    """Wait until the live server has answered every request it holds: closing a page
    does not end a long poll parked in the server, and one that woke while the database
    was being emptied deadlocked with the TRUNCATE (PostgreSQL)."""
    threads = getattr(getattr(live_server.thread, "httpd", None), "_threads", None) or []
    deadline = time.monotonic() + seconds
    while any(t.is_alive() for t in list(threads)) and time.monotonic() < deadline:
        time.sleep(0.05)


def beside_the_browser(call, *args, **kwargs):
    """``call`` in a thread of its own, for a test that asks the site with Django's test
    client while its browser is open: Playwright's sync API keeps an event loop running
    in the test's thread, beside which Django refuses to call an async view (the long
    poll). The thread's database connection is closed after it (none left to block the
    database's emptying)."""

    def run():
        try:
            return call(*args, **kwargs)
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def fits_the_phone(page) -> bool:
    """Nothing makes the page itself scroll sideways (wide tables scroll in their box)."""
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
