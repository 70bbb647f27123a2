"""``python -m bench.table [--games N] [--game SLUG]``: the web table's latency on the
embedded default (SQLite, tasks in-process), measured as a browser lives it.

Starts the project's own server (``manage.py runserver`` on a fresh SQLite file), opens
tables against computer players, and plays like the page does: a long poll waits for the
table to change while the "person" clicks one of the offered choices. Prints::

    table game=<slug> clicks=<n> click_to_screen_ms p50=<n> p95=<n>
    table game=<slug> move_to_computer_ms p50=<n> p95=<n>

``click_to_screen`` is from sending a move to the long poll bringing the changed table
(the person's own screen updated); ``move_to_computer`` is from sending a move to the
first table that shows a computer's move after it. Targets: p95 ≤ 300 ms and ≤ 1 s.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from games import catalog

ROOT = Path(__file__).resolve().parents[1]
ACTION = re.compile(r'data-action="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """One browser: its cookies, a CSRF token, and the page's long poll."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(self.base + path, timeout=30) as r:
            return r.geturl(), r.read().decode()

    def post(self, path: str, data: dict) -> tuple[str, str]:
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        request.add_header("X-CSRFToken", self.csrf())
        request.add_header("Referer", self.base + "/")
        with self.opener.open(request, timeout=30) as r:
            return r.geturl(), r.read().decode()

    def state(self, table: str, current: dict | None = None) -> dict:
        """The table once it differs from ``current`` (long polling), as the page keeps
        it: a poll that ends with no change answers its token alone, and the page keeps
        what it shows."""
        token = urllib.parse.quote(current["token"] if current else "")
        return kept(json.loads(self.get(f"{table}state/?token={token}")[1]), current)


def kept(answer: dict, current: dict | None) -> dict:
    """What a page shows after its poll's ``answer``: ``current`` when the poll ended with
    no change (its token alone, the one the page sent), else the answer."""
    unchanged = current is not None and answer.keys() == {"token"}
    return current if unchanged and answer["token"] == current["token"] else answer


def play(base: str, slug: str, computers: int, rng: random.Random, clicks: list, computer: list):
    browser = Browser(base)
    browser.get("/play/")  # the form sets the CSRF cookie
    url, _page = browser.post(
        "/play/new/", {"game": slug, "name": "Bench", "computers": str(computers)}
    )
    table = urllib.parse.urlparse(url).path
    current = browser.state(table)
    while not over(current):
        actions = ACTION.findall(current["html"])
        if not actions:
            current = browser.state(table, current)
            continue
        mine = version(current)
        current, started = click(browser, table, current, rng.choice(actions), mine)
        clicks.append((time.perf_counter() - started) * 1000)
        # The computers' moves after the person's: the table shows more than that one move.
        while version(current) <= mine + 1 and not over(current):
            if ACTION.findall(current["html"]):
                break  # the person acts again before any computer
            current = browser.state(table, current)
        if version(current) > mine + 1:
            computer.append((time.perf_counter() - started) * 1000)


def click(browser: Browser, table: str, current: dict, action: str, seen: int):
    """Send a move while the page's long poll waits, as the page does; returns the table
    the long poll brought and when the move was sent."""
    answer: dict = {}

    def poll() -> None:
        answer.update(browser.state(table, current))

    waiting = threading.Thread(target=poll)
    waiting.start()
    time.sleep(0.05)  # the poll is in the server before the person clicks
    started = time.perf_counter()
    browser.post(f"{table}move/", {"action": action, "version": seen})
    waiting.join()
    return answer, started


def over(state: dict) -> bool:
    return 'class="final"' in state["html"]


def version(state: dict) -> int:
    return int(VERSION.search(state["html"]).group(1))


def percentile(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=100)[int(p) - 1] if len(values) > 1 else values[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--game", action="append", default=[])
    args = parser.parse_args(argv)
    slugs = args.game or list(catalog.slugs())
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
            "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
            "DJANGO_DEBUG": "1",
            "DJANGO_SECRET_KEY": "bench-table",
            "CELERY_TASK_ALWAYS_EAGER": "1",
            # One address plays table after table, as fast as it can: not what the limit
            # on tables per minute is for.
            "TABLES_PER_MINUTE_PER_ADDRESS": "0",
        }
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        server = subprocess.Popen(
            [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            for slug in slugs:
                clicks: list[float] = []
                computer: list[float] = []
                rng = random.Random(1)
                for _game in range(args.games):
                    # The usual table: one person, computers in the other seats.
                    computers = catalog.get(slug).table_players - 1
                    play(base, slug, computers, rng, clicks, computer)
                print(
                    f"table game={slug} clicks={len(clicks)} click_to_screen_ms"
                    f" p50={statistics.median(clicks):.0f} p95={percentile(clicks, 95):.0f}",
                    flush=True,
                )
                if computer:
                    p50, p95 = statistics.median(computer), percentile(computer, 95)
                    print(
                        f"table game={slug} move_to_computer_ms p50={p50:.0f} p95={p95:.0f}",
                        flush=True,
                    )
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
