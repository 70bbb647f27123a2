"""``python -m bench abuse [--seconds S --people N --hostile N --backend B]``: the site
opened to the public, tried as hostile visitors would while people play (issue 25).

For each backend (``embedded``: the embedded default, ``manage.py start`` on a fresh SQLite
file with tasks in-process; ``services``: production's shape, the ``web`` and ``live``
front-ends as compose runs them with DEBUG off (the bench routes the tables' streams and
polls to ``live``, as the proxy does), Celery workers (games, syncs, computers) and beat,
a Redis server of its own and a PostgreSQL database of its own on the server of
``DATABASE_URL``; ``both``, the default, runs one after the other), on loopback. The
servers believe the bench as their proxy (``TRUSTED_PROXIES``): each simulated client has
an address of its own, as a public site's visitors do. Their long polls last at most
``WAIT_SECONDS`` and their turn timers ``TURN_SECONDS``, so that an overlong poll and an
abandoned table show within a short run.

- ``--people`` simulated people play in the browser over HTTP: each opens a table against
  computers at the normal level and plays it as the page does, following it by its stream
  (``/events/``; by long polls when the server refuses the stream) and posting moves;
  some open a lobby for a friend, who joins through its invite link;
- ``--hostile`` clients, each with its own session and client address, at the same time:
  ``hard_tables`` open tables full of hard computers and abandon them; ``long_polls`` hold
  as many long polls as they may; ``malformed`` send non-finite waits, odd digits, huge
  numbers, a non-ASCII Mini App signature and names with control characters or a
  computer's name; ``takeover`` try to start, join (the bare table address, forged and
  guessed invite links), add computers to and move in other people's tables, and in lobbies
  of Telegram groups.

Hostile successes are judged by their effects, read from the database afterwards: a lobby
started before its creator asked, a seat or a computer at someone else's table, a move
nobody at that table sent, a name stored with control characters or a computer's name;
and, seen by the client, a long poll with an odd ``wait`` that outlasted the server's
maximum or a move at someone else's table answered "ok". Prints, per backend::

    abuse backend=<b> normal_p50_ms=.. normal_p95_ms=.. clicks=.. server_errors=..
        refused=.. hostile_successes=.. lock_wait_max_ms=.. lock_wait_p95_ms=..

then detail lines (5xx by path, refusals and successes by kind, what the hostile tables
cost, requests not answered at all). ``click → screen`` is from a person's move post to
their stream (or long poll) bringing the changed table. Lock waits: on SQLite the latency of a tiny
unrelated write every 100 ms on the database file; on PostgreSQL the longest wait of a
query for a lock (``pg_stat_activity``), sampled every 100 ms. Exits non-zero on any 5xx,
any hostile success, or when the people could not play at all.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import queue
import random
import re
import secrets
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import environ
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.utils import load_backend

from bench.soak_services import OwnDatabase, Process, Services, prepare_site, wait_for_port
from bench.table import VERSION, free_port, kept, offered_actions
from games import catalog
from games.play import levels
from games.play.models import Game, GameStatus, Move, MoveSource, Player, Seat
from web import miniapp

BACKENDS = ("embedded", "services")
GAME = catalog.slugs()[0]  # the hostile tables' game: any will do, the first offered
WAIT_SECONDS = 5  # the servers' TABLE_WAIT_SECONDS: the longest a long poll may last
# How often a person's page asks again when the server has no place for its poll to wait.
LOOK_TRIES = 200
# A long poll with an odd wait not answered after this held its thread too long (the
# margin: time queued behind other requests on a busy server is no overrun of the wait).
OVERRUN = WAIT_SECONDS + 10
TURN_SECONDS = 4  # every game's turn timer: an abandoned seat times out within the run
# Long polls a hostile client keeps open at once (threads of this bench): more than the
# site's default limit per client address (LIVE_CONNECTIONS_PER_ADDRESS, 16).
MAX_POLLS = 20
HOSTILE_KINDS = ("hard_tables", "long_polls", "malformed", "takeover")
TELEGRAM_LOBBIES = 3
TELEGRAM_BASE = 7_100_000_000
TOKEN = "777001:ABUSE-BENCH-TOKEN"
ALIAS = "abuse"  # the bench's own connection to the database the server runs on
BAD_NAMES = (
    "\u202eevil",  # a right-to-left override
    "bad\x00name",
    "\u200b\u200b\u200b",  # zero-width only
    "a" + "\u0301" * 200,
    "Computer 2 (hard)",
)
# A computer seat's name, in every language the site speaks ("Computer %(number)d").
# What the proxy sends to the ``live`` service (docker-compose.yml, docs/runbook.md).
LIVE_PATH = re.compile(r"/play/\d+/(events|state)/")
RESERVED = re.compile(r"^\s*(computer|computador)\s*\d", re.IGNORECASE)
ODD_NUMBERS = ("²", "¹²", "٣", "9" * 5000)


def is_bad_name(name: str) -> bool:
    """A name a person could use to hide or pose: control or format characters, nothing
    visible, a pile of combining marks, or a computer seat's name."""
    categories = [unicodedata.category(c) for c in name]
    visible = [c for c in categories if c[0] in "LNPS"]
    marks = max((len(m) for m in re.findall(r"M+", "".join(c[0] for c in categories))), default=0)
    return (
        any(c in ("Cc", "Cf") for c in categories)
        or not visible
        or marks > 8
        or bool(RESERVED.match(name))
    )


def percentile(values: list[float], p: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100)[p - 1]


def template(path: str) -> str:
    """A request's path with its numbers as placeholders, to count by page."""
    return re.sub(r"/\d+/", "/<id>/", urllib.parse.urlsplit(path).path)


# -- the clients ------------------------------------------------------------------------
@dataclass
class Response:
    status: int  # 0: no answer (refused connection or timed out)
    url: str
    body: str
    seconds: float

    @property
    def refused(self) -> bool:
        """A clear no: a 4xx, or a page that says what went wrong."""
        return 400 <= self.status < 500 or 'role="alert"' in self.body

    def json(self) -> dict:
        try:
            answer = json.loads(self.body)
        except ValueError:
            return {}
        return answer if isinstance(answer, dict) else {}


class Tally:
    """Every request's outcome, from every thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.requests: Counter = Counter()  # (side, kind)
        self.server_errors: Counter = Counter()  # path
        self.no_answer: Counter = Counter()  # (side, path)
        self.refused: Counter = Counter()  # kind
        self.successes: Counter = Counter()  # kind, seen by a client
        self.examples: list[str] = []
        self.clicks: list[float] = []
        # Each counted click's move key, when it was sent and when its screen came
        # (time.time()), to split the click into its parts (``click_parts``).
        self.timed_clicks: list[tuple[str, float, float]] = []
        self.normal_refused: Counter = Counter()  # path
        self.normal_seconds: dict[str, list[float]] = {}  # path -> a person's answer times

    def add(self, side: str, kind: str, path: str, response: Response) -> None:
        with self.lock:
            self.requests[side, kind] += 1
            if response.status >= 500:
                self.server_errors[template(path)] += 1
            elif response.status == 0:
                self.no_answer[side, template(path)] += 1
            elif side == "hostile" and response.refused:
                self.refused[kind] += 1
            elif side == "normal" and response.refused:
                self.normal_refused[template(path)] += 1
            if side == "normal":
                self.normal_seconds.setdefault(template(path), []).append(response.seconds)

    def success(self, kind: str, what: str) -> None:
        with self.lock:
            self.successes[kind] += 1
            if self.successes[kind] <= 3:  # a few of each kind say what happened
                self.examples.append(f"{kind}: {what}")


class Client:
    """One browser: its cookies, its client address (as the trusted proxy would pass it:
    ``X-Forwarded-For``) and its CSRF token."""

    def __init__(self, run: Run, side: str, address: str):
        self.base, self.live, self.tally = run.base, run.live or run.base, run.tally
        self.side, self.address = side, address
        self.fresh()

    def url(self, path: str) -> str:
        """As the proxy routes it: a table's stream and poll to ``live``, the rest to the
        web."""
        return (self.live if LIVE_PATH.match(path) else self.base) + path

    def fresh(self) -> None:
        """A new session: no cookies."""
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def request(
        self,
        kind: str,
        path: str,
        data: dict | list | None = None,
        headers: dict | None = None,
        timeout: float = 30,
    ) -> Response:
        body = None if data is None else urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(self.url(path), data=body)
        request.add_header("X-Forwarded-For", self.address)
        if body is not None:
            request.add_header("X-CSRFToken", self.csrf())
            request.add_header("Referer", self.base + "/")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=timeout) as r:
                response = Response(r.status, r.geturl(), r.read().decode(errors="replace"), 0)
        except urllib.error.HTTPError as exc:
            text = exc.read().decode(errors="replace")
            response = Response(exc.code, exc.geturl() or path, text, 0)
        except OSError:  # refused, reset, or timed out
            response = Response(0, path, "", 0)
        response.seconds = time.monotonic() - started
        self.tally.add(self.side, kind, path, response)
        return response

    def get(self, kind: str, path: str, **kw) -> Response:
        return self.request(kind, path, **kw)

    def post(self, kind: str, path: str, data, **kw) -> Response:
        if not self.csrf():
            self.get(kind, "/play/")  # the form sets the CSRF cookie
        return self.request(kind, path, data, **kw)


class Stream:
    """A table page's EventSource (``/play/<id>/events/``), as table.js opens it: a thread
    of its own reads the frames into a queue, each with the moment it arrived, and
    reconnects from the last one when the server ends the stream."""

    def __init__(self, client: Client, table: int, token: str, run: Run):
        self.client, self.table, self.token, self.run = client, table, token, run
        self.frames: queue.Queue = queue.Queue()
        self.closed = False
        self.opened = threading.Event()
        self.ok = False
        self._response = None
        threading.Thread(target=self._read, daemon=True, name=f"stream-{table}").start()

    def _read(self) -> None:
        while not self.closed and self.run.playing():
            query = urllib.parse.urlencode({"token": self.token})
            path = f"/play/{self.table}/events/?{query}"
            request = urllib.request.Request(self.client.url(path))
            request.add_header("X-Forwarded-For", self.client.address)
            request.add_header("Accept", "text/event-stream")
            try:
                self._response = self.client.opener.open(request, timeout=WAIT_SECONDS + 30)
            except urllib.error.HTTPError as exc:
                self.client.tally.add("normal", "stream", path, Response(exc.code, path, "", 0))
                break
            except OSError:
                self.client.tally.add("normal", "stream", path, Response(0, path, "", 0))
                break
            self.client.tally.add("normal", "stream", path, Response(200, path, "", 0))
            self.ok = True
            self.opened.set()
            try:
                for raw in self._response:
                    if raw.startswith(b"data: "):
                        data = json.loads(raw[6:])
                        self.token = data["token"]
                        self.frames.put((time.perf_counter(), data))
            except (OSError, ValueError, AttributeError):
                # The server ended it (reconnect, as EventSource does), or we closed it
                # from another thread (http.client then finds its socket gone).
                pass
        self.opened.set()
        self.frames.put((time.perf_counter(), None))

    def latest(self, data: dict) -> dict:
        """The newest table already received (the person looks at the screen)."""
        while True:
            try:
                _at, found = self.frames.get_nowait()
            except queue.Empty:
                return data
            if found is None:
                raise EOFError
            data = found

    def changed(self, token: str, timeout: float) -> tuple[float, dict]:
        """The next table that differs from ``token`` and when it arrived."""
        end = time.monotonic() + timeout
        while True:
            at, data = self.frames.get(timeout=max(0.01, end - time.monotonic()))
            if data is None:
                raise EOFError
            if data["token"] != token:
                return at, data

    def close(self) -> None:
        self.closed = True
        if self._response is not None:
            with contextlib.suppress(Exception):
                self._response.close()


class Page(HTMLParser):
    """The forms of a page (action and fields) and its invite link: the element
    ``id="invite-link"`` (a link or a field), else the page's share field."""

    def __init__(self, text: str):
        super().__init__()
        self.forms: list[dict] = []
        self.invite: str | None = None
        self.share: str | None = None
        self._form: dict | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if a.get("id") == "invite-link":
            self.invite = a.get("href") or a.get("value")
        if tag == "input" and "share" in a.get("class", "").split():
            self.share = a.get("value")
        if tag == "form":
            self._form = {"action": a.get("action", ""), "fields": {}}
            self.forms.append(self._form)
        elif (
            self._form is not None
            and tag in ("input", "select", "textarea")
            and a.get("name")
            and (a.get("type") not in ("checkbox", "radio") or "checked" in a)
        ):
            self._form["fields"].setdefault(a["name"], a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None

    def form(self, word: str) -> dict | None:
        return next((f for f in self.forms if f"/{word}/" in f["action"]), None)


def local(url: str) -> str:
    """A link's path and query (the invite link is absolute)."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def table_id(url: str) -> int | None:
    match = re.search(r"/play/(\d+)/", url)
    return int(match.group(1)) if match else None


# -- the run ----------------------------------------------------------------------------
@dataclass
class NormalTable:
    creator: str
    friend: str | None  # the name of the friend invited, for a table with a friend
    computers: int
    start_asked: float | None = None  # when its creator sent "start" (time.time())


@dataclass
class Run:
    backend: str
    base: str
    deadline: float
    live: str = ""  # where the proxy sends the tables' streams and polls (else ``base``)
    tally: Tally = field(default_factory=Tally)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    normal_tables: dict[int, NormalTable] = field(default_factory=dict)
    open_lobbies: set[int] = field(default_factory=set)  # friends' lobbies not started yet
    hostile_tables: list[int] = field(default_factory=list)
    telegram_lobbies: list[int] = field(default_factory=list)
    normal_keys: set[str] = field(default_factory=set)
    lock_waits: list[float] = field(default_factory=list)
    probe_failures: int = 0
    bench_cpu: float = 0.0  # seconds of CPU the clients used while they ran

    def playing(self) -> bool:
        return not self.stop.is_set() and time.monotonic() < self.deadline

    def live_tables(self, rng: random.Random) -> int | None:
        with self.lock:
            tables = list(self.normal_tables) + self.hostile_tables[-50:]
        return rng.choice(tables) if tables else None


class People:
    """The simulated people: they open tables and play them, as the table page does."""

    def __init__(self, run: Run, count: int):
        self.run = run
        self.count = count
        self.invites: dict[int, queue.Queue] = {}  # a host's index -> its friend's inbox
        for i in range(count):
            if i % 5 == 0 and i + 1 < count:
                self.invites[i] = queue.Queue()

    def threads(self) -> list[threading.Thread]:
        return [
            threading.Thread(target=self.live, args=(i,), name=f"person-{i}", daemon=True)
            for i in range(self.count)
        ]

    def live(self, i: int) -> None:
        run = self.run
        rng = random.Random(i)
        client = Client(run, "normal", f"10.1.{i // 250}.{i % 250 + 1}")
        name = f"Person {i}"
        slugs = catalog.slugs()
        for round_ in range(1000):
            if not run.playing():
                return
            slug = slugs[(i + round_) % len(slugs)]
            if i in self.invites:
                table = self.host(client, name, slug, self.invites[i], f"Person {i + 1}")
            elif i - 1 in self.invites:
                table = self.guest(client, name, self.invites[i - 1])
            else:
                table = self.solo(client, name, slug)
            if table is None:
                time.sleep(1)  # refused (or the friend's table was gone): try again later
                continue
            self.play(client, table, rng)

    def create(self, client: Client, fields: dict) -> int | None:
        r = client.post("create", "/play/new/", fields)
        return table_id(r.url) if r.status == 200 and not r.refused else None

    def solo(self, client: Client, name: str, slug: str) -> int | None:
        kind = catalog.get(slug)
        computers = min(kind.table_players, kind.max_players) - 1
        fields = {"game": slug, "name": name, "computers": computers}
        if levels.offered(kind):
            fields["level"] = [levels.NORMAL] * computers
        table = self.create(client, fields)
        if table is not None:
            with self.run.lock:
                self.run.normal_tables[table] = NormalTable(name, None, computers)
        return table

    def host(self, client, name: str, slug: str, inbox: queue.Queue, friend: str) -> int | None:
        """A lobby for a friend: send them its invite link, wait for them to sit down (a
        while: the lobby is what the hostile clients look for), then start."""
        run = self.run
        kind = catalog.get(slug)
        computers = max(0, min(kind.table_players, kind.max_players) - 2)
        fields = {"game": slug, "name": name, "computers": computers, "friends": "1"}
        table = self.create(client, fields)
        if table is None:
            return None
        entry = NormalTable(name, friend, computers)
        with run.lock:
            run.normal_tables[table] = entry
            run.open_lobbies.add(table)
        page = client.get("table", f"/play/{table}/")
        found = Page(page.body)
        inbox.put((table, local(found.invite or found.share or page.url)))
        waited = time.monotonic() + 10
        while run.playing() and time.monotonic() < waited:
            time.sleep(0.5)
            page = client.get("table", f"/play/{table}/")
            if friend in page.body or Page(page.body).form("start") is None:
                break  # the friend sat down (or the table started without its creator)
        start = Page(page.body).form("start")
        if start is not None:
            entry.start_asked = time.time()
            client.post("start", start["action"], start["fields"])
        with run.lock:
            run.open_lobbies.discard(table)
        return table

    def guest(self, client: Client, name: str, inbox: queue.Queue) -> int | None:
        try:
            table, invite = inbox.get(timeout=max(0.1, self.run.deadline - time.monotonic()))
        except queue.Empty:
            return None
        time.sleep(1.5)  # a person reads the message, opens the link
        join = Page(client.get("table", invite).body).form("join")
        if join is None:
            return None
        client.post("join", join["action"], {**join["fields"], "name": name})
        return table

    def look(self, client: Client, table: int, current: dict | None = None) -> dict | None:
        """The table as the page's long poll brings it (with ``current``: once it differs;
        a poll that ends with no change answers its token alone, and the page keeps
        ``current``); None when the answer is no table (an error, a refusal)."""
        token = None if current is None else current["token"]
        query = "" if token is None else "?" + urllib.parse.urlencode({"token": token})
        path = f"/play/{table}/state/{query}"
        for _ in range(LOOK_TRIES):
            answer = client.get("state", path, timeout=WAIT_SECONDS + 25).json()
            if "retry_ms" not in answer:
                break
            # As the page does: the server had no place for the poll to wait and says when
            # to ask again (a change shows then at once).
            self.run.stop.wait(answer["retry_ms"] / 1000 * random.uniform(0.5, 1.5))
        answer = kept(answer, current)
        return answer if "html" in answer and "token" in answer else None

    def play(self, client: Client, table: int, rng: random.Random) -> None:
        """Follow the table by its stream, as the page does where it can; by long polls
        where it cannot (the server refused the stream)."""
        current = self.look(client, table)
        if current is not None:
            stream = Stream(client, table, current["token"], self.run)
            stream.opened.wait(WAIT_SECONDS + 30)
            try:
                if stream.ok and self.play_streamed(client, table, rng, stream, current):
                    return
            finally:
                stream.close()
        self.play_polled(client, table, rng)

    def play_streamed(self, client, table: int, rng: random.Random, stream, current) -> bool:
        """Whether the game was played to its end (or the run's) over the stream."""
        run = self.run
        try:
            while run.playing():
                current = stream.latest(current)
                if 'class="final"' in current["html"]:
                    return True
                fields = self.choose(current, rng)
                if fields is None:
                    _at, current = stream.changed(current["token"], WAIT_SECONDS + 30)
                    continue
                started = time.perf_counter()
                moved = client.post("move", f"/play/{table}/move/", fields)
                if moved.json().get("ok"):
                    at, current = stream.changed(current["token"], WAIT_SECONDS + 30)
                    with run.tally.lock:
                        run.tally.clicks.append((at - started) * 1000)
                        run.tally.timed_clicks.append((fields["key"], *wall(started, at)))
                time.sleep(rng.uniform(0.2, 0.6))  # a person looks before the next click
        except (EOFError, queue.Empty):
            return False  # the stream ended for good, or went silent: poll instead
        return True

    def play_polled(self, client: Client, table: int, rng: random.Random) -> None:
        run = self.run
        current = self.look(client, table)
        failures = 0
        while run.playing() and failures < 5:
            if current is None:  # as the page does: wait a little, then look again
                failures += 1
                run.stop.wait(2)
                current = self.look(client, table)
                continue
            failures = 0
            if 'class="final"' in current["html"]:
                return
            fields = self.choose(current, rng)
            if fields is None:
                current = self.look(client, table, current)
                continue
            current = self.click(client, table, current, fields)
            time.sleep(rng.uniform(0.2, 0.6))  # a person looks before the next click

    def choose(self, current: dict, rng: random.Random) -> dict | None:
        """The move a person makes on the table shown (its key noted as a person's), as
        the page posts it; None when the table offers them nothing to do."""
        actions = offered_actions(current["html"])
        seen = VERSION.search(current["html"])
        if not actions or seen is None:
            return None
        key = uuid.uuid4().hex
        with self.run.lock:
            self.run.normal_keys.add(key)
        return {"action": rng.choice(actions), "version": seen.group(1), "key": key}

    def click(self, client, table: int, shown: dict, fields: dict):
        """A move while the page's long poll waits, as the page sends it; the click counts
        once the poll brings the changed table."""
        answer: dict = {}

        def poll() -> None:
            answer["table"] = self.look(client, table, shown)
            answer["at"] = time.perf_counter()

        waiting = threading.Thread(target=poll, daemon=True)
        waiting.start()
        time.sleep(0.05)  # the poll is in the server before the person clicks
        started = time.perf_counter()
        moved = client.post("move", f"/play/{table}/move/", fields)
        waiting.join()
        current = answer["table"]
        if moved.json().get("ok") and current is not None and current["token"] != shown["token"]:
            with self.run.tally.lock:
                self.run.tally.clicks.append((answer["at"] - started) * 1000)
                self.run.tally.timed_clicks.append((fields["key"], *wall(started, answer["at"])))
        return current


class Hostile:
    """The hostile clients: ``kind`` by index, each with its own session and address."""

    def __init__(self, run: Run, count: int, kinds: list[str]):
        self.run = run
        self.count = count
        self.kinds = kinds
        # The odd long polls each malformed client left running, by client.
        self.tails: dict[int, list[threading.Thread]] = {}
        self.tails_lock = threading.Lock()

    def threads(self) -> list[threading.Thread]:
        return [
            threading.Thread(target=self.live, args=(h,), name=f"hostile-{h}", daemon=True)
            for h in range(self.count)
        ]

    def live(self, h: int) -> None:
        kind = self.kinds[h % len(self.kinds)]
        client = Client(self.run, "hostile", f"10.66.{h // 250}.{h % 250 + 1}")
        rng = random.Random(1000 + h)
        getattr(self, kind)(h, client, rng)

    def pause(self, seconds: float) -> None:
        self.run.stop.wait(seconds)

    # a) tables full of hard computers, abandoned at once
    def hard_tables(self, h: int, client: Client, rng: random.Random) -> None:
        """Five hard computers a table; refused, as many as the site allows and the rest
        normal ones: every table it may have, abandoned to its computers."""
        slugs = [k.slug for k in catalog.all_games() if "hard" in levels.offered(k)]
        for n in range(10_000):
            if not self.run.playing():
                return
            if n % 3 == 2:
                client.fresh()  # a new session: the limits per address must hold too
            slug = rng.choice(slugs)
            for hard in (5, 1):
                levels_asked = ["hard"] * hard + [levels.NORMAL] * (5 - hard)
                fields = {"game": slug, "name": f"Hostile {h}", "computers": 5}
                r = client.post("hard_tables", "/play/new/", {**fields, "level": levels_asked})
                table = table_id(r.url) if r.status == 200 else None
                if table is not None:
                    with self.run.lock:
                        self.run.hostile_tables.append(table)
                    break
            self.pause(1.0)

    # b) as many long polls as they may hold
    def long_polls(self, h: int, client: Client, rng: random.Random) -> None:
        """More long polls than the site allows a client, on a lobby of its own (nothing
        changes there: each poll lasts the longest it may) and on live tables."""
        fields = {"game": GAME, "name": f"Hostile {h}", "computers": 0, "friends": "1"}
        own = table_id(client.post("long_polls", "/play/new/", fields).url)
        polls = [
            threading.Thread(
                target=self.hold, args=(client, own, random.Random(h * 100 + i)), daemon=True
            )
            for i in range(MAX_POLLS)
        ]
        for poll in polls:
            poll.start()
            self.pause(0.05)
        for poll in polls:
            poll.join()

    def hold(self, client: Client, own: int | None, rng: random.Random) -> None:
        while self.run.playing():
            table = own if own is not None and rng.random() < 0.7 else self.run.live_tables(rng)
            if table is None:
                self.pause(0.5)
                continue
            token = client.get("long_polls", f"/play/{table}/state/").json().get("token")
            query = urllib.parse.urlencode({"token": token or ""})
            if token is None or client.get("long_polls", f"/play/{table}/state/?{query}").refused:
                self.pause(0.5)  # refused: try again a little later

    def timed_poll(self, client: Client, kind: str, path: str) -> None:
        r = client.get(kind, path, timeout=OVERRUN + 5)
        if r.status == 0 or r.seconds > OVERRUN:
            answer = f"status {r.status}" if r.status else "no answer"
            self.run.tally.success("long_poll_overrun", f"{path}: {answer} in {r.seconds:.1f} s")

    # c) malformed parameters and names
    def malformed(self, h: int, client: Client, rng: random.Random) -> None:
        cases = self.malformed_cases()
        rng.shuffle(cases)  # each client its own order: a slow server still sees every kind
        for n in range(100_000):
            if not self.run.playing():
                return
            cases[n % len(cases)](client, rng)
            self.pause(0.1)

    def malformed_cases(self) -> list:
        cases = []
        for wait in ("nan", "NaN", "inf", "-inf", "-1", "1e309"):
            cases.append(lambda c, rng, wait=wait: self.odd_wait(c, rng, wait))
        for number in ODD_NUMBERS:
            for page, name in (("/games/", "after"), ("/players/", "before")):
                cases.append(lambda c, rng, p=page, q={name: number}: self.odd_page(c, p, q))
            cases.append(
                lambda c, rng, p="/leaderboard/", q={"after": number}: self.odd_page(c, p, q)
            )
            cases.append(lambda c, rng, n=number: self.odd_since(c, rng, n))
        cases += [self.odd_signin, self.odd_header]
        for name in BAD_NAMES:
            cases.append(lambda c, rng, name=name: self.odd_name(c, rng, name))
        return cases

    def odd_wait(self, client: Client, rng: random.Random, wait: str) -> None:
        """A long poll with a wait that is no number of seconds: it must end in time (it
        runs on a thread of its own, two at most per client, so the others go on)."""
        table = self.run.live_tables(rng)
        if table is None:
            return
        token = client.get("malformed", f"/play/{table}/state/").json().get("token", "")
        query = urllib.parse.urlencode({"token": token, "wait": wait})
        with self.tails_lock:
            mine = self.tails.setdefault(id(client), [])
            if sum(t.is_alive() for t in mine) >= 2:
                return
            path = f"/play/{table}/state/?{query}"
            tail = threading.Thread(
                target=self.timed_poll, args=(client, "malformed", path), daemon=True
            )
            mine.append(tail)
        tail.start()

    def all_tails(self) -> list[threading.Thread]:
        with self.tails_lock:
            return [t for mine in self.tails.values() for t in mine]

    def odd_page(self, client: Client, page: str, query: dict) -> None:
        client.get("malformed", f"{page}?{urllib.parse.urlencode(query)}")

    def odd_since(self, client: Client, rng: random.Random, number: str) -> None:
        table = self.run.live_tables(rng)
        if table is not None:
            query = urllib.parse.urlencode({"format": "json", "since": number})
            client.get("malformed", f"/games/{table}/?{query}")

    @staticmethod
    def init_data_with_odd_hash() -> str:
        user = json.dumps({"id": TELEGRAM_BASE + 999, "first_name": "Mallory"})
        fields = {"user": user, "auth_date": str(int(time.time()))}
        return urllib.parse.urlencode({**fields, "hash": "é" * 64})

    def odd_signin(self, client: Client, rng: random.Random) -> None:
        client.post("malformed", "/play/tg/signin/", {"init_data": self.init_data_with_odd_hash()})

    def odd_header(self, client: Client, rng: random.Random) -> None:
        table = self.run.live_tables(rng)
        if table is not None:
            headers = {"X-Telegram-Init-Data": self.init_data_with_odd_hash()}
            client.get("malformed", f"/play/{table}/state/?wait=0", headers=headers)

    def odd_name(self, client: Client, rng: random.Random, name: str) -> None:
        client.fresh()  # a new player each time (a session's player is renamed instead)
        fields = {"game": GAME, "name": name, "computers": 0, "friends": "1"}
        client.post("malformed", "/play/new/", fields)

    # d) start, join, add computers and move at other people's tables
    def takeover(self, h: int, client: Client, rng: random.Random) -> None:
        own = self.own_invite(client, h)
        seated: set[int] = set()  # tables this client got a seat at (a success already)
        attempts = [self.start, self.join, self.join, self.computer, self.move, self.move_as]
        while self.run.playing():
            target = self.target(rng)
            if target is not None:
                attempt = rng.choice(attempts)
                if attempt is self.start or rng.random() < 0.5:
                    client.fresh()  # a stranger: no seat, no player
                    seated.clear()
                attempt(client, target, rng, h=h, own=own, seated=seated)
                for table in seated:
                    self.move(client, table, rng, seated=seated)
            self.pause(0.2)

    def target(self, rng: random.Random) -> int | None:
        run = self.run
        with run.lock:
            lobbies, tables = list(run.open_lobbies), list(run.normal_tables)
        roll = rng.random()
        if lobbies and roll < 0.5:
            return rng.choice(lobbies)
        if run.telegram_lobbies and roll < 0.7:
            return rng.choice(run.telegram_lobbies)
        return rng.choice(tables) if tables else None

    def own_invite(self, client: Client, h: int) -> tuple[int, str] | None:
        """A lobby of its own, for its invite link: forged onto other tables later."""
        fields = {"game": GAME, "name": f"Hostile {h}", "computers": 0, "friends": "1"}
        r = client.post("takeover", "/play/new/", fields)
        table = table_id(r.url) if r.status == 200 else None
        if table is None:
            return None
        found = Page(r.body)
        return table, local(found.invite or found.share or r.url)

    def start(self, client: Client, target: int, rng, **_kw) -> None:
        client.post("takeover", f"/play/{target}/start/", {})

    def join(self, client: Client, target: int, rng, *, h: int, own, seated: set, **_kw):
        """Through the bare table address, or an invite link of its own table forged onto
        this one, or one with a guessed token."""
        bare = f"/play/{target}/"
        how = rng.choice(("bare", "forged", "guessed"))
        link = bare
        if own is not None and how != "bare":
            mine, invite = own
            link = invite.replace(f"/play/{mine}/", bare)
            if how == "guessed":
                link = re.sub(
                    r"(?<![/\d])[A-Za-z0-9_-]{12,}",
                    lambda m: secrets.token_urlsafe(len(m[0])),
                    link,
                )
                if link == bare:
                    link = f"{bare}?invite={secrets.token_urlsafe(16)}"
        page = client.get("takeover", link)
        join = Page(page.body).form("join") or {"action": f"{bare}join/", "fields": {}}
        r = client.post("takeover", join["action"], {**join["fields"], "name": f"Hostile {h}"})
        if r.status == 200 and not r.refused:
            seated.add(target)

    def computer(self, client: Client, target: int, rng, **_kw) -> None:
        client.post("takeover", f"/play/{target}/computer/", {"level": "hard"})

    def move(self, client: Client, target: int, rng, seated=frozenset(), **_kw) -> None:
        """A move: the table's own choices when the client sees any, with a key a person
        at that table sent (forged) or a fresh one."""
        state = client.get("takeover", f"/play/{target}/state/?wait=0").json()
        actions = offered_actions(state.get("html", "")) or ["0"]
        with self.run.lock:
            keys = list(self.run.normal_keys)[-50:]
        key = rng.choice(keys) if keys and rng.random() < 0.5 else uuid.uuid4().hex
        fields = {"action": rng.choice(actions), "version": state.get("version", ""), "key": key}
        self.judge_move(client.post("takeover", f"/play/{target}/move/", fields), target, seated)

    def move_as(self, client: Client, target: int, rng, seated=frozenset(), **_kw) -> None:
        """A move as a Telegram user, with ``initData`` signed by a token not the bot's."""
        user = json.dumps({"id": TELEGRAM_BASE, "first_name": "Telegram 0"})
        fields = {"user": user, "auth_date": str(int(time.time()))}
        raw = urllib.parse.urlencode({**fields, "hash": miniapp.sign(fields, "1:NOT-THE-TOKEN")})
        move = {"action": "0", "version": "", "key": uuid.uuid4().hex}
        r = client.post(
            "takeover", f"/play/{target}/move/", move, headers={"X-Telegram-Init-Data": raw}
        )
        self.judge_move(r, target, seated)

    def judge_move(self, r: Response, target: int, seated) -> None:
        if r.json().get("ok") and target not in seated:
            self.run.tally.success("move_answered_ok", f"a stranger's move at table {target}")


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


# -- judging ----------------------------------------------------------------------------
def seed_telegram_lobbies(run: Run) -> None:
    """Lobbies of Telegram groups, waiting for the group's players: no browser visitor may
    sit down at them or start them."""
    for i in range(TELEGRAM_LOBBIES):
        player = Player.objects.using(ALIAS).create(
            telegram_id=TELEGRAM_BASE + i, display_name=f"Telegram {i}"
        )
        game = Game.objects.using(ALIAS).create(
            game_type=GAME, chat_id=-TELEGRAM_BASE - i, created_by=player
        )
        Seat.objects.using(ALIAS).create(game=game, number=0, player=player)
        run.telegram_lobbies.append(game.pk)


def judge(run: Run) -> None:  # noqa: C901 - one check per kind of attack, in a row
    """The hostile clients' successes, by their effects in the database."""
    success = run.tally.success
    tables = run.normal_tables
    games = Game.objects.using(ALIAS).in_bulk(list(tables) + run.telegram_lobbies)
    for pk, entry in tables.items():
        game = games[pk]
        if entry.friend is None or game.started_at is None:
            continue
        if entry.start_asked is None or game.started_at.timestamp() < entry.start_asked:
            success("start", f"table {pk} started before its creator asked")
    for pk in run.telegram_lobbies:
        if games[pk].status != GameStatus.LOBBY:
            success("start", f"Telegram lobby {pk} started from the browser")
    seats = (
        Seat.objects.using(ALIAS)
        .filter(game__in=games)
        .values_list("game_id", "player_id", "player__display_name", "player__telegram_id")
    )
    computers: Counter = Counter()
    for pk, player, name, telegram_id in seats:
        if player is None:
            computers[pk] += 1
        elif pk in tables:
            if name not in (tables[pk].creator, tables[pk].friend):
                success("seat", f"{name!r} sat down at table {pk}")
        elif telegram_id is None:
            success("seat", f"browser player {name!r} sat down in Telegram lobby {pk}")
    for pk, entry in tables.items():
        if computers[pk] > entry.computers:
            success("computer", f"{computers[pk] - entry.computers} computer(s) added to {pk}")
    moves = Move.objects.using(ALIAS).filter(game__in=list(tables), source=MoveSource.HUMAN)
    for pk, key, seat in moves.values_list("game_id", "key", "seat"):
        # The page's key (a uuid's 32 hex digits) is somewhere in the stored one.
        if not run.normal_keys.intersection(re.findall(r"[0-9a-f]{32}", key)):
            success("move", f"a move nobody at table {pk} sent, for seat {seat}")
    for name in Player.objects.using(ALIAS).values_list("display_name", flat=True):
        if is_bad_name(name):
            success("name", f"stored {name[:40]!r}")


def hostile_costs(run: Run) -> str:
    """What the abandoned hard tables cost: how many, their hard seats, computer moves."""
    tables = Game.objects.using(ALIAS).filter(pk__in=run.hostile_tables)
    hard = Seat.objects.using(ALIAS).filter(game__in=tables, player=None, strategy="hard")
    moves = Move.objects.using(ALIAS).filter(game__in=tables, source=MoveSource.COMPUTER)
    by_status = Counter(tables.values_list("status", flat=True))
    figures = [f"hostile_tables={len(run.hostile_tables)}", f"hard_seats={hard.count()}"]
    figures.append(f"computer_moves={moves.count()}")
    figures += [f"tables_{status}={n}" for status, n in sorted(by_status.items())]
    return " ".join(figures)


def people_moves(run: Run):
    """The people's moves that were applied, from the bench's connection."""
    return Move.objects.using(ALIAS).filter(
        game__in=list(run.normal_tables), source=MoveSource.HUMAN, processed_at__isnull=False
    )


def applied_after(run: Run) -> list[float]:
    """How long each person's move waited to be applied (``processed_at`` less its
    ``created_at``, in ms): the game workers' queue and step, apart from the web."""
    moves = people_moves(run)
    return [
        (done - made).total_seconds() * 1000
        for made, done in moves.values_list("created_at", "processed_at")
    ]


def wall(*moments: float) -> tuple[float, ...]:
    """``time.perf_counter()`` moments as ``time.time()`` ones, to compare with the
    database's timestamps."""
    offset = time.time() - time.perf_counter()
    return tuple(m + offset for m in moments)


def click_parts(run: Run) -> dict[str, list[float]]:
    """Each counted click in its parts (ms): from the post to the move recorded (the web),
    to the move applied (the game workers' queue and step), to the screen showing it (the
    notification, the render, the stream or poll)."""
    sent = {key: (at, shown) for key, at, shown in run.tally.timed_clicks}
    moves = people_moves(run)
    parts: dict[str, list[float]] = {"recorded": [], "applied": [], "shown": []}
    for key, made, done in moves.values_list("key", "created_at", "processed_at"):
        if (times := sent.get(key.rsplit(":", 1)[-1])) is None:
            continue
        at, shown = times
        parts["recorded"].append((made.timestamp() - at) * 1000)
        parts["applied"].append((done - made).total_seconds() * 1000)
        parts["shown"].append((shown - done.timestamp()) * 1000)
    return parts


def counts(counter: Counter) -> str:
    return " ".join(f"{k}={v}" for k, v in counter.most_common()) or "-"


class Command(BaseCommand):
    help = "People play while hostile clients abuse the site; report what got through."

    def add_arguments(self, parser):
        parser.add_argument("--seconds", type=float, default=60, help="time the clients run")
        parser.add_argument("--people", type=int, default=20, help="people playing normally")
        parser.add_argument("--hostile", type=int, default=20, help="hostile clients")
        parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
        parser.add_argument(
            "--kinds",
            default=",".join(HOSTILE_KINDS),
            help="the hostile clients' kinds, comma-separated (to see which one hurts)",
        )

    def handle(self, *args, **opts):
        backends = BACKENDS if opts["backend"] == "both" else (opts["backend"],)
        opts["kinds"] = [k for k in opts["kinds"].split(",") if k]
        unknown = set(opts["kinds"]) - set(HOSTILE_KINDS)
        if unknown or not opts["kinds"]:
            raise CommandError(f"--kinds: choose among {', '.join(HOSTILE_KINDS)}")
        if "services" in backends and (
            connection.vendor != "postgresql" or shutil.which("redis-server") is None
        ):
            raise CommandError(
                "the services backend needs PostgreSQL (DATABASE_URL, e.g. postgres://"
                "postgres@127.0.0.1:5432/catclub) and redis-server on the PATH;"
                " --backend embedded runs without them."
            )
        failed = []
        for backend in backends:
            if not self.run_backend(backend, opts):
                failed.append(backend)
        if failed:
            raise CommandError(f"abuse: FAILED on {', '.join(failed)}")
        self.stdout.write("abuse: OK")

    def run_backend(self, backend: str, opts) -> bool:
        log_dir = Path(tempfile.mkdtemp(prefix=f"catclub-abuse-{backend}-"))
        site = Embedded(log_dir) if backend == "embedded" else Production(log_dir)
        try:
            site.start()
            connect(site.database_url)
            try:
                run = Run(backend, site.base, time.monotonic() + opts["seconds"], site.live)
                seed_telegram_lobbies(run)
                ok = self.play(run, site, opts)
            finally:
                disconnect()
        finally:
            site.stop()
        if ok:
            shutil.rmtree(log_dir, ignore_errors=True)
        else:
            self.stdout.write(f"abuse backend={backend} logs in {log_dir}")
        return ok

    def play(self, run: Run, site, opts) -> bool:
        hostile = Hostile(run, opts["hostile"], opts["kinds"])
        threads = People(run, opts["people"]).threads() + hostile.threads()
        probe = Probe(run, site).thread()
        cpu = time.process_time()  # the bench's own, to keep it modest beside the server's
        for thread in [probe, *threads]:
            thread.start()
        while run.playing():
            time.sleep(0.5)
        run.stop.set()
        run.bench_cpu = time.process_time() - cpu
        # In-flight requests end within their timeouts; none is longer than this.
        finish = time.monotonic() + OVERRUN + 10
        for thread in [probe, *threads, *hostile.all_tails()]:
            thread.join(max(0.1, finish - time.monotonic()))
        dead = site.dead()
        judge(run)
        return self.report(run, dead)

    def report(self, run: Run, dead: list[str]) -> bool:
        tally = run.tally
        clicks, waits = tally.clicks, run.lock_waits
        errors = sum(tally.server_errors.values())
        successes = sum(tally.successes.values())
        out = self.stdout.write
        prefix = f"abuse backend={run.backend}"
        out(
            f"{prefix} normal_p50_ms={percentile(clicks, 50):.0f}"
            f" normal_p95_ms={percentile(clicks, 95):.0f} clicks={len(clicks)}"
            f" server_errors={errors} refused={sum(tally.refused.values())}"
            f" hostile_successes={successes}"
            f" lock_wait_max_ms={max(waits, default=0):.0f}"
            f" lock_wait_p95_ms={percentile(waits, 95):.0f}"
        )
        normal = sum(n for (side, _k), n in tally.requests.items() if side == "normal")
        hostile = Counter({k: n for (side, k), n in tally.requests.items() if side == "hostile"})
        out(f"{prefix} requests normal={normal} hostile {counts(hostile)}")
        out(f"{prefix} server_errors_by_path {counts(tally.server_errors)}")
        out(f"{prefix} refused_by_kind {counts(tally.refused)}")
        out(f"{prefix} hostile_successes_by_kind {counts(tally.successes)}")
        for example in tally.examples:
            out(f"{prefix} hostile_success {example}")
        no_answer = Counter({f"{side}:{path}": n for (side, path), n in tally.no_answer.items()})
        out(f"{prefix} no_answer {counts(no_answer)}")
        out(f"{prefix} normal_refused_by_path {counts(tally.normal_refused)}")
        # Where a person's time goes: the server's answers, by path (a stream: until its
        # headers; a long poll: its whole wait).
        answers = " ".join(
            f"{path}={percentile([t * 1000 for t in times], 95):.0f}"
            for path, times in sorted(tally.normal_seconds.items())
        )
        out(f"{prefix} normal_answer_p95_ms_by_path {answers or '-'}")
        waited = applied_after(run)
        out(
            f"{prefix} normal_move_applied_after_ms p50={percentile(waited, 50):.0f}"
            f" p95={percentile(waited, 95):.0f} moves={len(waited)}"
        )
        parts = " ".join(
            f"{part}={percentile(ms, 50):.0f}/{percentile(ms, 95):.0f}"
            for part, ms in click_parts(run).items()
        )
        out(f"{prefix} normal_click_parts_ms_p50/p95 {parts}")
        out(
            f"{prefix} {hostile_costs(run)} normal_tables={len(run.normal_tables)}"
            f" lock_probe_samples={len(waits)} lock_probe_failures={run.probe_failures}"
            f" bench_cpu_s={run.bench_cpu:.1f}"
        )
        if dead:
            out(f"{prefix} died: {', '.join(dead)}")
        return not errors and not successes and bool(clicks) and not dead
