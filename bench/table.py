"""``python -m bench table [--games N] [--game SLUG]``: the web table's latency on the
embedded default (SQLite, tasks in-process), measured as a browser lives it, and the taps
a person makes.

Starts the project's own server (``manage.py runserver`` on a fresh SQLite file), opens
tables against computer players, and plays like the page does: a long poll waits for the
table to change while the "person" taps one of the offered choices, as the page's picks
(``web.tables.pick_tree``, read by table.js) offer them. Prints::

    table game=<slug> clicks=<n> click_to_screen_ms p50=<n> p95=<n>
    table game=<slug> move_to_computer_ms p50=<n> p95=<n>
    taps <slug> per_decision_p50=<x> per_decision_p95=<x> per_game=<x>

A tap is each click a person makes; a decision is a choice among what the page offers:
each tap that narrows an action of several steps, or that ends one (with its Confirm, when
the page asks for one). A step with a single way on, and a move the rules force (the page
sends it by itself), take no tap. Target: per_decision p95 ≤ 2 in every game (issue 45).

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
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from bench.harness.ports import free_port
from bench.harness.stats import interpolated as percentile
from games import catalog

SUMMARY = "the web table on the embedded server: click → screen, move → computer's move, taps"

ROOT = Path(__file__).resolve().parents[1]
PICKS = re.compile(r'<script id="picks" type="application/json">(.*?)</script>', re.S)
VERSION = re.compile(r'data-version="(\d+)"')


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


def picks(state: dict) -> dict:
    """The seat's picks on the table's page ({} when it has nothing to do)."""
    found = PICKS.search(state["html"])
    return json.loads(found.group(1)) if found else {}


def offered_actions(page: str) -> list[str]:
    """Every whole action the seat's picks on a table's page lead to (the forced one
    first): what a script that posts moves without tapping may send."""
    found = PICKS.search(page)
    if not found:
        return []
    offered = json.loads(found.group(1))
    actions = [offered["auto"]] if offered.get("auto") else []
    nodes = [offered.get("tree", {})]
    while nodes:
        for entry in nodes.pop().values():
            if "a" in entry:
                actions.append(entry["a"])
            if "n" in entry:
                nodes.append(entry["n"])
    return actions


def tap_through(offered: dict, rng: random.Random, decisions: list) -> str:
    """Tap one of the offered ways through ``offered`` as table.js takes them, adding the
    taps of each decision to ``decisions``; returns the action sent. A move the rules
    force is sent with no tap."""
    if offered["auto"]:
        return offered["auto"]
    node = offered["tree"]
    depth = 0
    while True:
        keys = list(node)
        entry = node[rng.choice(keys)]
        if depth == 0 or len(keys) > 1:  # a step with one way on is taken by itself
            decisions.append(1)
        if "a" in entry:
            if entry.get("c"):
                decisions[-1] += 1  # Confirm
            return entry["a"]
        node = entry["n"]
        depth += 1


def play(
    base: str,
    slug: str,
    computers: int,
    rng: random.Random,
    clicks: list,
    computer: list,
    decisions: list,
):
    browser = Browser(base)
    browser.get("/play/")  # the form sets the CSRF cookie
    url, _page = browser.post(
        "/play/new/", {"game": slug, "name": "Bench", "computers": str(computers)}
    )
    table = urllib.parse.urlparse(url).path
    current = browser.state(table)
    while not over(current):
        offered = picks(current)
        if not offered:
            current = browser.state(table, current)
            continue
        mine = version(current)
        action = tap_through(offered, rng, decisions)
        current, started = click(browser, table, current, action, mine)
        clicks.append((time.perf_counter() - started) * 1000)
        # The computers' moves after the person's: the table shows more than that one move.
        while version(current) <= mine + 1 and not over(current):
            if picks(current):
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench table", description=__doc__.splitlines()[0]
    )
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
                decisions: list[int] = []
                rng = random.Random(1)
                for _game in range(args.games):
                    # The usual table: one person, computers in the other seats.
                    computers = catalog.get(slug).table_players - 1
                    play(base, slug, computers, rng, clicks, computer, decisions)
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
                p50, p95 = statistics.median(decisions), percentile(decisions, 95)
                print(
                    f"taps {slug} per_decision_p50={p50:g} per_decision_p95={p95:g}"
                    f" per_game={sum(decisions) / args.games:g}",
                    flush=True,
                )
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
