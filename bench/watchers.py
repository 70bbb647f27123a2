"""``python -m bench watchers [--n 100,1000,5000] [--tables 20] [--moves 5] [--together]``:
many pages following live tables (issue 24), on the site's front-ends as compose runs them
(``web`` under gunicorn's threads, ``live`` under gunicorn's two uvicorn workers for the
streams, each process counting the queries and renders it makes:
``bench.watchers_server``), PostgreSQL (a database of its own on ``DATABASE_URL``'s
server, dropped afterwards), its own Redis, and Celery game workers (the moves are applied
there, and announced on Redis pub/sub).

Each level opens ``--tables`` tables (a person and two computers each, the person's own
page streaming its seat) and ``N`` spectators, half of them on one hot table and the rest
spread over all the tables; then the persons make
``--moves`` moves each, a second apart, as people at separate tables play: each table at its
own moment of the second (spread evenly over it). ``--together``: all tables at once, each
round once the last round's moves were all sent (the worst case: twenty moves' work in the
same instant). The spectators' pages are read by a process of their own
(``bench.watchers_readers``). Prints, first a baseline of
the long poll (spectators polling ``/state/``), then one line per level::

    longpoll N=100 p50_ms=<x> p95_ms=<x> max_ms=<x> missed=<k> queries_per_move=<x> ...
    watchers N=<n> p50_ms=<x> p95_ms=<x> max_ms=<x> missed=<k> queries_per_move=<x>
        renders_per_move=<x> kb_per_conn=<x> webhook_p95_ms=<x>

``*_ms``: from a person's move being applied (its ``processed_at``, stamped by the game
worker's step) to each spectator of that table receiving a table newer than the one the
person moved on; ``sent_p95_ms``: the same from the person's click, so with the wait for a
game worker (two workers for the twenty tables); ``missed``: spectator-moves with no such
table within ``MISS_SECONDS``. ``queries_per_move`` and ``renders_per_move``: the site's
queries and table renders (both front-ends) during the moves, per move (every page of the
table counted: the spectators, the persons' own streams and their move requests; not the
probes', below). ``kb_per_conn``: the live workers' resident memory per open page (its
growth from before the level's pages opened to when they all were open); ``rss_mb``: their
whole resident memory then; ``cpu_s``: the site's CPU time during the moves;
``received_kb``: what one spectator received during the moves. ``webhook_p95_ms`` (and
``healthz_p95_ms``, ``admin_p95_ms``): a webhook request answered by the web meanwhile
(every 0.2 s; one whose body is not an update, which the view refuses itself after checking
the secret: how long a Telegram call waits behind the crowd), the health check and the
admin's login page, each asked every 0.2 s.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import httpx
import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from bench import watchers_readers
from bench.harness.ports import free_port, wait_for_port
from bench.harness.processes import Process
from bench.harness.services import OwnDatabase, Services, prepare_site
from bench.harness.stats import at_fraction
from bench.table import offered_actions
from bench.watchers_readers import event_of
from games import catalog
from games.play.models import Move

SUMMARY = "pages following live tables by server-sent events and long polls: latency, memory"

# The watched tables' game: the first the catalog offers for three (one person, two
# computers).
GAME = next(k.slug for k in catalog.all_games() if k.min_players <= 3 <= k.max_players)

HOST = "127.0.0.1"
# The site's processes, as compose runs them: web's gunicorn workers (32 threads each) and
# live's (uvicorn).
WEB_WORKERS = 3
LIVE_WORKERS = 2
GAME_WORKERS = 2
SECRET = "bench-watchers-secret"
TOKEN = "123456:bench-watchers"
# A spectator that saw nothing newer this long after a move missed it.
MISS_SECONDS = 15.0
# How long a person waits for their turn before leaving that table out of a round.
TURN_WAIT_SECONDS = 30.0


@dataclass
class Page:
    """One page following a table: what it received, and when."""

    path: str
    cookie: str = ""
    seen: list[tuple[float, int]] = field(default_factory=list)  # (time.time(), version)
    received: int = 0  # bytes
    refused: int = 0
    latest: dict | None = None  # the last table, kept for a person's page only
    keep: bool = False


class Site:
    """The site's two front-ends as compose runs them (``bench.watchers_server``), and what
    they need, started once for every level: ``web`` (gunicorn's threads) for the moves,
    the pages and the probes; ``live`` (uvicorn) for the streams, where the proxy sends
    them. The long poll's baseline polls ``web``, as pages did before the push."""

    def __init__(self):
        if connection.vendor != "postgresql":
            raise CommandError("needs PostgreSQL: set DATABASE_URL (and have redis-server)")
        self.database = OwnDatabase("watchers")
        self.log_dir = Path(tempfile.mkdtemp(prefix="bench-watchers-"))
        self.counters = self.log_dir / "counters.json"
        self.services: Services | None = None

    def start(self) -> tuple[str, int]:
        """The web's address and the live process's port."""
        self.database.create()
        services = Services(
            self.database.url, f"http://{HOST}:{free_port()}/bot", TOKEN, SECRET, self.log_dir
        )
        self.services = services
        services.env.pop("DJANGO_DEBUG", None)
        port, live = services.web_port, free_port()
        services.env.update(
            {
                "DJANGO_ALLOWED_HOSTS": HOST,
                "SITE_URL": f"http://{HOST}:{port}",
                "DATABASE_POOL_MAX_SIZE": "12",  # as compose runs it
                "LIVE_CONNECTIONS_PER_ADDRESS": "0",  # every spectator comes from here
                "REQUESTS_PER_SECOND_PER_ADDRESS": "0",
                "LIVE_STREAMS_PER_PROCESS": "0",
                "LONG_POLLS_PER_PROCESS": "1000",
                "TABLES_PER_HOUR_PER_SESSION": "0",
                "TABLES_PER_HOUR_PER_ADDRESS": "0",
                "TABLES_PER_MINUTE_PER_ADDRESS": "0",
                "WATCHERS_COUNTERS": str(self.counters),
            }
        )
        prepare_site(services.env, self.log_dir)
        services.start_redis()
        queues = [settings.GAMES_QUEUE, settings.TELEGRAM_QUEUE, settings.COMPUTERS_QUEUE]
        for _ in range(GAME_WORKERS):
            services.start_worker(app="bench.watchers_worker", only=queues)
        command = [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
        command += ["--bind", f"{HOST}:{port}", "--workers", str(WEB_WORKERS)]
        command += ["--worker-class", "server.wsgi_worker.Worker"]
        command += ["--threads", "32", "--timeout", "75", "--no-control-socket"]
        command += ["-c", "python:bench.watchers_server"]
        services.others["web"] = Process("web", command, services.env, self.log_dir).start()
        command = [sys.executable, "-m", "gunicorn", "config.asgi:application"]
        command += ["--bind", f"{HOST}:{live}", "--workers", str(LIVE_WORKERS)]
        command += ["--worker-class", "server.asgi_worker.Worker", "--timeout", "75"]
        command += ["--no-control-socket", "-c", "python:bench.watchers_server"]
        env = {**services.env, "WATCHERS_ROLE": "live"}
        services.others["live"] = Process("live", command, env, self.log_dir).start()
        for name, bound in (("web", port), ("live", live)):
            if not wait_for_port(bound, 60):
                raise CommandError(f"{name} did not start:\n{services.others[name].tail()}")
        return f"http://{HOST}:{port}", live

    def count(self) -> dict:
        """The processes' counts added up (the game workers': their renders and
        queries for the pages only); ``rss``: the live workers'; ``cpu``: the site's."""
        total = {"queries": 0, "renders": 0, "cpu": 0.0, "rss": 0}
        for _ in range(50):
            files = sorted(self.log_dir.glob(f"{self.counters.name}.*"))
            try:
                figures = [(f.name, json.loads(f.read_text())) for f in files if f.suffix != ".tmp"]
            except (OSError, ValueError):
                time.sleep(0.1)
                continue
            if len(figures) >= WEB_WORKERS + LIVE_WORKERS + GAME_WORKERS:
                for name, counted in figures:
                    for key in ("queries", "renders", "cpu"):
                        if key != "cpu" or ".worker-" not in name:
                            total[key] += counted[key]
                    if ".live-" in name:
                        total["rss"] += counted["rss"]
                return total
            time.sleep(0.1)
        raise CommandError("the site's processes report no counters")

    def stop(self) -> None:
        if self.services is not None:
            self.services.stop()
        self.database.drop()


# -- the pages ------------------------------------------------------------------------------
async def stream(port: int, page: Page, connected: asyncio.Event) -> None:
    """A page's EventSource: reconnects with its last table's token, as the browser's."""
    token = ""
    while True:
        try:
            reader, writer = await asyncio.open_connection(HOST, port, limit=2**22)
        except OSError:
            await asyncio.sleep(0.5)
            continue
        try:
            writer.write(
                f"GET {page.path}events/?token={quote(token)} HTTP/1.0\r\nHost: {HOST}\r\n"
                f"Accept: text/event-stream\r\n{page.cookie}\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                page.refused += 1
                await asyncio.sleep(1)
                continue
            pieces: list[bytes] = []  # of the frame not yet whole
            while chunk := await reader.read(65536):
                page.received += len(chunk)
                ended = b"\n\n" in chunk or (
                    pieces and pieces[-1].endswith(b"\n") and chunk.startswith(b"\n")
                )
                pieces.append(chunk)
                if not ended:
                    continue  # a table arrives in several reads: joined once, when whole
                *frames, rest = b"".join(pieces).split(b"\n\n")
                pieces = [rest] if rest else []
                for frame in frames:
                    found = event_of(frame)
                    if found is None:
                        continue
                    token, version, data = found
                    page.seen.append((time.time(), version))
                    if page.keep:
                        page.latest = json.loads(data)
                    connected.set()
        except (OSError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.2)
        finally:
            writer.close()


class Readers:
    """The spectators' streams, read in a process of their own
    (``bench.watchers_readers``, which says why)."""

    def __init__(self):
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no Django
        self.pipe, child = context.Pipe()
        self.process = context.Process(target=watchers_readers.main, args=(child,), daemon=True)
        self.process.start()
        child.close()

    async def ask(self, *message):
        self.pipe.send(message)
        return await asyncio.wait_for(asyncio.to_thread(self.pipe.recv), 600)

    async def open(self, port: int, paths: list[str]) -> None:
        """Once every page has its first table."""
        await self.ask("open", port, paths)

    async def mark(self) -> int:
        """The bytes received so far, all pages together."""
        return (await self.ask("mark"))[1]

    async def stop(self, pages: list[Page]) -> None:
        """Closes the streams and copies what each received into ``pages`` (in order)."""
        _kind, figures = await self.ask("stop")
        for page, (seen, received, refused) in zip(pages, figures, strict=True):
            page.seen, page.received, page.refused = seen, received, refused
        await asyncio.to_thread(self.process.join, 10)


async def poll(client: httpx.AsyncClient, page: Page, connected: asyncio.Event) -> None:
    """A page's long poll, as table.js's."""
    token = ""
    while True:
        try:
            response = await client.get(f"{page.path}state/?token={quote(token)}")
        except httpx.HTTPError:
            await asyncio.sleep(0.5)
            continue
        page.received += len(response.content)
        if response.status_code == 429:
            page.refused += 1
            await asyncio.sleep(response.json().get("retry_ms", 1000) / 1000)
            continue
        if response.status_code != 200:
            await asyncio.sleep(1)
            continue
        data = response.json()
        if data["token"] != token:
            token = data["token"]
            page.seen.append((time.time(), data["version"]))
            connected.set()


@dataclass
class Person:
    client: httpx.AsyncClient
    page: Page
    moves: list[tuple[float, int, str]] = field(default_factory=list)  # (sent, version, key)

    async def move(self, n: int) -> None:
        """Waits for their turn on the table their page shows, then moves."""
        deadline = time.monotonic() + TURN_WAIT_SECONDS
        while time.monotonic() < deadline:
            table = self.page.latest
            actions = offered_actions(table["html"]) if table else []
            if actions:
                break
            await asyncio.sleep(0.02)
        else:
            return
        data = {"action": actions[0], "version": str(table["version"]), "key": f"m{n}"}
        sent = time.time()
        for _attempt in range(3):
            try:
                response = await self.client.post(
                    f"{self.page.path}move/", data=data, headers=self.csrf()
                )
                break
            except httpx.TransportError:
                # A kept-alive connection the server closed meanwhile: sent again, with
                # its key, as the page would (a move is recorded once per key).
                continue
        else:
            return
        if response.status_code == 200 and response.json().get("ok"):
            self.moves.append((sent, table["version"], data["key"]))

    def csrf(self) -> dict:
        base = str(self.client.base_url).rstrip("/")
        return {"X-CSRFToken": self.client.cookies.get("csrftoken", ""), "Referer": base + "/"}


async def new_person(base: str, port: int, n: int) -> tuple[Person, asyncio.Task]:
    client = httpx.AsyncClient(base_url=base, timeout=60)
    await client.get("/play/")
    person = Person(client, Page(""))
    data = {"game": GAME, "name": f"P{n}", "computers": "2"}
    response = await client.post("/play/new/", data=data, headers=person.csrf())
    if response.status_code != 302:
        raise CommandError(f"no table: {response.status_code} {dict(client.cookies)}")
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    person.page = Page(response.headers["location"], f"Cookie: {cookie}\r\n", keep=True)
    ready = asyncio.Event()
    task = asyncio.create_task(stream(port, person.page, ready))
    await asyncio.wait_for(ready.wait(), 60)
    return person, task


async def probe(client: httpx.AsyncClient, kind: str, times: list[float]) -> None:
    """Asks the web every 0.2 s what a machine or a moderator would: Telegram's
    webhook, the health check, the admin's login page."""
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
    while True:
        started = time.monotonic()
        try:
            if kind == "webhook":
                body = b'{"update_id": "x"}'
                await client.post("/telegram/webhook", content=body, headers=headers)
            else:
                response = await client.get("/healthz" if kind == "healthz" else "/admin/login/")
                response.raise_for_status()
            times.append((time.monotonic() - started) * 1000)
        except httpx.HTTPError:
            times.append(float("inf"))
        await asyncio.sleep(0.2)


def applied_at(url: str, people: list[Person]) -> dict[tuple[str, str], float]:
    """When the game worker applied each person's move (``Move.processed_at``), by (page,
    key): the web's move key is ``web:<player>:<the page's key>``."""
    games = {int(p.page.path.strip("/").rsplit("/", 1)[1]): p.page.path for p in people}
    query = (
        f"SELECT game_id, key, processed_at FROM {Move._meta.db_table}"  # noqa: S608 (no input)
        " WHERE game_id = ANY(%s) AND key LIKE 'web:%%' AND processed_at IS NOT NULL"
    )
    with psycopg.connect(url) as db:
        rows = db.execute(query, (list(games),)).fetchall()
    return {(games[g], key.rsplit(":", 1)[1]): at.timestamp() for g, key, at in rows}


def percentile(values: list[float], q: float) -> float:
    return at_fraction(values, q, empty=float("nan"))


async def play(people: list[Person], moves: int, together: bool) -> None:
    """Each person moves ``moves`` times, a second apart: each table at its own moment of
    the second, as people who do not click in step; ``together``: every table at once."""
    if together:
        for m in range(moves):
            await asyncio.gather(*(person.move(m) for person in people))
            await asyncio.sleep(1.0)
        return
    start = time.monotonic()

    async def plays(person: Person, phase: float) -> None:
        for m in range(moves):
            await asyncio.sleep(max(0.0, start + phase + m - time.monotonic()))
            await person.move(m)  # waits for the person's turn, if it has not come yet

    await asyncio.gather(*(plays(p, i / len(people)) for i, p in enumerate(people)))
    await asyncio.sleep(1.0)


async def level(
    site: Site, base: str, port: int, kind: str, n: int, tables: int, moves: int, together: bool
) -> str:
    """One level: ``base`` is the web's address, ``port`` the live process's."""
    made = await asyncio.gather(*(new_person(base, port, i) for i in range(tables)))
    people = [p for p, _t in made]
    tasks = [t for _p, t in made]
    # One hot table holds half of the spectators; the rest are spread over all the tables.
    hot = n // 2
    paths = [people[0].page.path] * hot + [people[i % tables].page.path for i in range(n - hot)]
    idle = site.count()
    watchers = [Page(path) for path in paths]
    polls = None
    readers = Readers() if kind == "watchers" else None
    print(f"{kind} N={n}: opening the pages", file=sys.stderr, flush=True)
    if readers is not None:
        await readers.open(port, paths)
    else:
        limits = httpx.Limits(max_connections=n + 10, max_keepalive_connections=n + 10)
        polls = httpx.AsyncClient(base_url=base, timeout=60, limits=limits)
        ready = [asyncio.Event() for _ in watchers]
        for page, connected in zip(watchers, ready, strict=True):
            tasks.append(asyncio.create_task(poll(polls, page, connected)))
            await asyncio.sleep(0)  # the connections open a few at a time, as pages load
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 300)
    await asyncio.sleep(1)
    opened = before = site.count()
    received = await readers.mark() if readers else sum(p.received for p in watchers)
    probed: dict[str, list[float]] = {"webhook": [], "healthz": [], "admin": []}
    prober = httpx.AsyncClient(base_url=base, timeout=60)
    print(f"{kind} N={n}: {len(watchers)} pages open, moving", file=sys.stderr, flush=True)
    for what, times in probed.items():
        tasks.append(asyncio.create_task(probe(prober, what, times)))
    await play(people, moves, together)
    await asyncio.sleep(3.0)
    after = site.count()
    applied = await asyncio.to_thread(applied_at, site.database.url, people)
    if readers is not None:
        await readers.stop(watchers)
    received = sum(p.received for p in watchers) - received
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for client in (prober, *(p.client for p in people), *([polls] if polls else [])):
        await client.aclose()

    latencies, clicks, missed = [], [], 0
    by_path: dict[str, list[Page]] = {}
    for page in watchers:
        by_path.setdefault(page.path, []).append(page)
    moved = 0
    for person in people:
        for sent, version, key in person.moves:
            moved += 1
            at = applied.get((person.page.path, key), sent)
            for page in by_path.get(person.page.path, []):
                first = next((t for t, v in page.seen if t >= sent and v > version), None)
                if first is None or first - sent > MISS_SECONDS:
                    missed += 1
                else:
                    latencies.append((first - at) * 1000)
                    clicks.append((first - sent) * 1000)
    moved = max(moved, 1)
    per_conn = (opened["rss"] - idle["rss"]) / max(n, 1) / 1024
    return (
        f"{kind} N={n} p50_ms={percentile(latencies, 0.5):.0f}"
        f" p95_ms={percentile(latencies, 0.95):.0f} max_ms={max(latencies, default=0):.0f}"
        f" missed={missed} queries_per_move={(after['queries'] - before['queries']) / moved:.1f}"
        f" renders_per_move={(after['renders'] - before['renders']) / moved:.1f}"
        f" kb_per_conn={per_conn:.1f} webhook_p95_ms={percentile(probed['webhook'], 0.95):.0f}"
        f" healthz_p95_ms={percentile(probed['healthz'], 0.95):.0f}"
        f" admin_p95_ms={percentile(probed['admin'], 0.95):.0f}"
        f" sent_p95_ms={percentile(clicks, 0.95):.0f} cpu_s={after['cpu'] - before['cpu']:.1f}"
        f" rss_mb={opened['rss'] / 2**20:.0f} received_kb={received / max(n, 1) / 1024:.1f}"
    )


class Command(BaseCommand):
    help = "Latency and cost of many pages following live tables (issue 24)."

    def add_arguments(self, parser):
        parser.add_argument("--n", default="100,1000,5000", help="spectators per level")
        parser.add_argument("--tables", type=int, default=20)
        parser.add_argument("--moves", type=int, default=5, help="moves per person per level")
        parser.add_argument(
            "--together", action="store_true", help="every table moves at the same instant"
        )
        parser.add_argument("--no-baseline", action="store_true", help="skip the long poll's")

    def handle(self, n, tables, moves, together, no_baseline, **options):
        levels = [int(x) for x in n.split(",") if x]
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
        site = Site()
        try:
            base, port = site.start()
            plan = ([] if no_baseline else [("longpoll", 100)]) + [("watchers", k) for k in levels]
            for kind, count in plan:
                line = asyncio.run(level(site, base, port, kind, count, tables, moves, together))
                self.stdout.write(line)
                self.stdout.flush()
                if kind == "longpoll":
                    # The polls its pages left still hold the web's threads until their
                    # wait ends: the next level starts once they are let go.
                    time.sleep(settings.TABLE_WAIT_SECONDS + 1)
        finally:
            site.stop()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
