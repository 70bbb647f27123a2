"""``python -m bench stack``: the production stack of docker-compose.yml, run without Docker,
behind the repo's own Caddyfile, driven as people and hostile visitors would (issue 46).

The runner reads docker-compose.yml and starts each application service's own command as a
process on loopback with the compose environment. PostgreSQL and Redis are this machine's
(DATABASE_URL: a fresh database named after it with ``_stack``; REDIS_URL), Telegram is a
recording Bot API on loopback, and Debian's caddy runs deploy/Caddyfile in front, with a
certificate from Caddy's own CA (a ``localhost`` site). The runner changes only addresses:
the bind addresses and ports, the site's address, the upstreams and the proxy's network in
TRUSTED_PROXIES; it runs one process of each service (compose's replicas are capacity).

Then it drives the whole through the proxy: a game played to the end in Chromium with the
push (the page's event stream from ``live``) working, Telegram updates posted to the
webhook with the secret header, and the hostile cases of the issue's findings 1-4 while a
person plays and /healthz is asked. It prints one line::

    stack click_p95_ms=<x> push_p95_ms=<x> webhook_p95_ms=<x> healthz_p95_ms=<x>
    hostile_held=<k>/<n> lost_moves=<k> doubled_moves=<k>

and then each hostile case with its result. ``--short`` (CI): fewer hostile connections and
updates, the same cases.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from bench.harness.ports import free_port

SUMMARY = "the production stack behind its proxy: click, push, webhook, healthz under attack"

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
CHROMIUM = "/usr/bin/chromium"
# The services of the image; redis and postgres are this machine's, the backup has a drill
# of its own (tests/stack/test_issue_46_restore.py), the bot's long polling is a profile.
APP_SERVICES = ("web", "live", "worker", "computer-worker", "sync-worker", "beat")
HOSTILE_ADDRESS = "127.0.0.2"  # hostile clients connect from here, the person from 127.0.0.1
SECRET = "stack-webhook-secret"
TOKEN = "424242:STACK-TOKEN"


def p95(values: list[float]) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[18]


# -- the stack ------------------------------------------------------------------------------
@dataclass
class Stack:
    database_url: str
    redis_url: str
    workdir: Path
    api_url: str = ""  # the recording Bot API
    nodes: int = 1  # web and live nodes behind the proxy
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    ports: dict[str, int] = field(default_factory=dict)
    launched: dict[str, tuple[list[str], dict]] = field(default_factory=dict)
    api: object = None

    @property
    def base(self) -> str:
        return f"https://localhost:{self.ports['https']}"

    def compose(self) -> dict:
        return yaml.safe_load(COMPOSE.read_text())

    def environment(self) -> dict[str, str]:
        """The compose environment of the app services, with this machine's addresses."""
        app = self.compose()["x-app"]["environment"]
        env = {k: str(v) for k, v in app.items()}
        env.update(
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            SITE_URL=self.base,
            DJANGO_ALLOWED_HOSTS="localhost",
            DJANGO_CSRF_TRUSTED_ORIGINS=self.base,
            TRUSTED_PROXIES="127.0.0.1/32",
            # .env's part (the operator's): a secret, the bot.
            DJANGO_SECRET_KEY="stack-" + "s3cr3t-K3y-" * 5,
            TELEGRAM_BOT_TOKEN=TOKEN,
            TELEGRAM_WEBHOOK_SECRET=SECRET,
            TELEGRAM_API_URL=self.api_url,
            TELEGRAM_RATE_FILE=str(self.workdir / "telegram-rate.json"),
            LOG_FORMAT="plain",
        )
        return env

    def instances(self, service: str) -> list[str]:
        """The processes of a service: web, web-2, ... for the nodes."""
        if service not in ("web", "live"):
            return [service]
        return [service] + [f"{service}-{n}" for n in range(2, self.nodes + 1)]

    def command(self, service: str, instance: str | None = None) -> list[str]:
        instance = instance or service
        spec = self.compose()["services"][service]
        command = spec["command"]
        args = shlex.split(command) if isinstance(command, str) else list(command)
        text = " ".join(shlex.quote(a) for a in args)
        if service in ("web", "live"):
            port = {"web": "8000", "live": "8001"}[service]
            text = text.replace(f"0.0.0.0:{port}", f"127.0.0.1:{self.ports[instance]}")
        text = text.replace("/etc/caddy/Caddyfile", str(ROOT / "deploy" / "Caddyfile"))
        text = text.replace("$$", "$")  # compose's escape of a shell's $
        return shlex.split(text)

    def start(self) -> Stack:
        self.workdir.mkdir(parents=True, exist_ok=True)
        for name in (*self.instances("web"), *self.instances("live"), "https", "http"):
            self.ports[name] = free_port()
        env = {**os.environ, **self.environment()}
        env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
        env["HOME"] = str(self.workdir)  # gunicorn's control socket, beat's files
        # What the image's build does besides installing: the static files and their manifest.
        self._spawn("build", [sys.executable, "manage.py", "collectstatic", "--noinput"], env, True)
        for service in APP_SERVICES:
            for instance in self.instances(service):
                self._spawn(instance, self.command(service, instance), env)
                if service == "web":  # its migrate first, as compose's depends_on
                    self._wait_healthy(self.ports[instance], 180)
        for instance in self.instances("live"):
            self._wait_healthy(self.ports[instance], 60)
        proxy = self.compose()["services"]["proxy"]
        caddy_env = {
            **os.environ,
            **{k: str(v) for k, v in proxy.get("environment", {}).items()},
            "DOMAIN": "localhost",
            "HTTPS_PORT": str(self.ports["https"]),
            "HTTP_PORT": str(self.ports["http"]),
            "WEB_UPSTREAMS": " ".join(f"127.0.0.1:{self.ports[i]}" for i in self.instances("web")),
            "LIVE_UPSTREAMS": " ".join(
                f"127.0.0.1:{self.ports[i]}" for i in self.instances("live")
            ),
            "XDG_DATA_HOME": str(self.workdir / "caddy-data"),
            "XDG_CONFIG_HOME": str(self.workdir / "caddy-config"),
        }
        caddy = shutil.which("caddy")
        if not caddy:
            raise RuntimeError("caddy is not installed (apt-get install caddy)")
        command = self.command("proxy")
        self._spawn("proxy", [caddy, *command[1:]], caddy_env)
        self._wait_proxy(60)
        self._spawn("telegram-setup", self.command("telegram-setup"), env, wait=True)
        return self

    def _spawn(self, name: str, args: list[str], env: dict, wait: bool = False) -> None:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 (the process's own)
        proc = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        if wait:
            if proc.wait(timeout=120) != 0:
                raise RuntimeError(f"{name} failed: {self.tail(name)}")
            return
        self.processes[name] = proc
        self.launched[name] = (args, env)

    def restart(self, name: str) -> float:
        """Stop one process as compose's restart does (SIGTERM, then its own command
        again); returns the seconds until it answers again (web and live) or was started."""
        started = time.monotonic()
        proc = self.processes.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        args, env = self.launched[name]
        self._spawn(name, args, env)
        if name in self.ports:
            self._wait_healthy(self.ports[name], 180)
        return time.monotonic() - started

    def tail(self, name: str, lines: int = 30) -> str:
        path = self.workdir / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def _wait_healthy(self, port: int, seconds: float) -> None:
        import httpx

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for name, proc in self.processes.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited: {self.tail(name)}")
            with contextlib.suppress(httpx.HTTPError):
                r = httpx.get(
                    f"http://127.0.0.1:{port}/healthz", headers={"Host": "localhost"}, timeout=3
                )
                if r.status_code == 200:
                    return
            time.sleep(0.5)
        raise RuntimeError(f"port {port} never healthy")

    def _wait_proxy(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.processes["proxy"].poll() is not None:
                raise RuntimeError(f"caddy exited: {self.tail('proxy')}")
            if self.ca().exists():
                with contextlib.suppress(Exception):
                    if self.client().get("/healthz").status_code == 200:
                        return
            time.sleep(0.3)
        raise RuntimeError(f"the proxy never answered: {self.tail('proxy')}")

    def ca(self) -> Path:
        return self.workdir / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca()))

    def client(self, **kwargs):
        import httpx

        return httpx.Client(base_url=self.base, verify=self.ssl_context(), timeout=10, **kwargs)

    def stop(self) -> None:
        for proc in self.processes.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.processes.values():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        self.processes.clear()


def fresh_database(url: str) -> str:
    """A new, empty database beside the one ``url`` names (``<name>_stack``)."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/") + "_stack"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name]
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return parts._replace(path="/" + name).geturl()


# -- the hostile cases ----------------------------------------------------------------------
@dataclass
class Case:
    name: str
    held: bool
    detail: str


def _tls(stack: Stack, source: str = HOSTILE_ADDRESS) -> ssl.SSLSocket:
    raw = socket.create_connection(
        ("127.0.0.1", stack.ports["https"]), timeout=10, source_address=(source, 0)
    )
    return stack.ssl_context().wrap_socket(raw, server_hostname="localhost")


def _status(sock: ssl.SSLSocket, seconds: float = 15) -> int | None:
    sock.settimeout(seconds)
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (OSError, ssl.SSLError):
        pass
    try:
        return int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


class Slowloris:
    """Connections that send a request's headers a little at a time and never finish them
    (finding 1), and connections opened and left idle (finding 2)."""

    def __init__(self, stack: Stack, partial: int, idle: int):
        self.stack, self.partial, self.idle = stack, partial, idle
        self.socks: list[ssl.SSLSocket] = []
        self.slow: list[ssl.SSLSocket] = []  # the partial headers, still open
        self.stop = threading.Event()
        self.closed_by_proxy = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Slowloris:
        for i in range(self.partial + self.idle):
            with contextlib.suppress(OSError):
                s = _tls(self.stack)
                if i < self.partial:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
                    self.slow.append(s)
                self.socks.append(s)
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self.stop.wait(2):
            for s in list(self.slow):
                try:
                    s.sendall(b"X-a: b\r\n")
                except OSError:
                    self.closed_by_proxy += 1
                    self.slow.remove(s)

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()
        for s in self.socks:
            with contextlib.suppress(OSError):
                s.close()


def case_big_header(stack: Stack) -> Case:
    with _tls(stack) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ")
        sent = 0
        block = b"a" * 65536
        with contextlib.suppress(OSError):
            while sent < 8 * 1024 * 1024:
                s.sendall(block)
                sent += len(block)
            s.sendall(b"\r\n\r\n")
        status = _status(s)
    held = status != 200
    return Case("8 MiB header", held, f"answered {status} after {sent // 1024} KiB sent")


def case_huge_body(stack: Stack) -> Case:
    size = 400 * 1024 * 1024
    with _tls(stack) as s:
        s.sendall(
            f"POST /play/new/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
            f"application/x-www-form-urlencoded\r\nContent-Length: {size}\r\n\r\n".encode()
        )
        started = time.monotonic()
        sent = 0
        s.settimeout(0.5)
        status = None
        block = b"a" * 65536
        # Keep sending until the proxy answers (or 16 MiB went without an answer).
        while sent < 16 * 1024 * 1024:
            try:
                s.sendall(block)
                sent += len(block)
            except (OSError, ssl.SSLError):
                break
        status = _status(s, 5)
        seconds = time.monotonic() - started
    held = status == 413 and sent < size
    return Case(
        "400 MiB body",
        held,
        f"answered {status} in {seconds:.2f} s, {sent // (1024 * 1024)} MiB of 400 sent",
    )


def case_chunked_body(stack: Stack) -> Case:
    import httpx

    def body():
        for _ in range(64):
            yield b"a" * 65536  # 4 MiB, no Content-Length

    with stack.client() as c:
        try:
            r = c.post(
                "/telegram/webhook",
                content=body(),
                headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
            )
            status = r.status_code
        except httpx.HTTPError as exc:
            status = f"closed ({type(exc).__name__})"
    # Caddy cuts the stream at 1 MiB: a 413, the connection closed, or the site's own
    # refusal of the cut body (400 "not an update"), as the race between them goes; never
    # accepted.
    held = not (isinstance(status, int) and 200 <= status < 300)
    return Case("4 MiB chunked body", held, str(status))


def case_healthz_prefix(stack: Stack, n: int) -> Case:
    import httpx

    counts: dict[int, int] = {}
    transport = httpx.HTTPTransport(local_address=HOSTILE_ADDRESS, verify=stack.ssl_context())
    with httpx.Client(base_url=stack.base, transport=transport, timeout=10) as c:
        for i in range(n):
            status = c.get(f"/healthzANYTHING{i}").status_code
            counts[status] = counts.get(status, 0) + 1
    return Case(
        f"{n} x /healthzANYTHING", bool(counts.get(429)), f"statuses {dict(sorted(counts.items()))}"
    )


# -- what people do -------------------------------------------------------------------------
class HealthSampler(threading.Thread):
    """/healthz through the proxy, every 200 ms, as a monitor would."""

    def __init__(self, stack: Stack):
        super().__init__(daemon=True)
        self.stack = stack
        self.times: list[float] = []
        self.failures = 0
        self.halt = threading.Event()

    def run(self) -> None:
        with self.stack.client() as c:
            while not self.halt.wait(0.2):
                t = time.perf_counter()
                try:
                    ok = c.get("/healthz").status_code == 200
                except Exception:
                    ok = False
                self.times.append((time.perf_counter() - t) * 1000)
                self.failures += not ok


INSTRUMENT = """
(() => {
  window.__shows = [];
  window.__pushes = [];
  document.addEventListener("catclub:table", () => window.__shows.push(performance.now()));
  const Real = window.EventSource;
  if (!Real) return;
  function Counted(url, options) {
    const source = new Real(url, options);
    source.addEventListener("message", () => window.__pushes.push(performance.now()));
    return source;
  }
  Counted.prototype = Real.prototype;
  Counted.CONNECTING = 0; Counted.OPEN = 1; Counted.CLOSED = 2;
  window.EventSource = Counted;
})();
"""
OFFERED = ".tablebox [data-pick]:not([disabled]):visible"
CONFIRM = ".choices .do:visible:not([disabled])"


@dataclass
class Played:
    clicks: list[float] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)
    pushed: int = 0
    posted: int = 0
    game_id: int | None = None
    finished: bool = False


def play_game(stack: Stack, max_clicks: int) -> Played:
    """A person at a table against two computers, in Chromium through the proxy, tapping
    until the final screen: click = a tap until the page shows the new table; push = a tap
    until the page's event stream (from ``live``) brings the next table."""
    import random

    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    played = Played()
    rng = random.Random(7)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        context = browser.new_context(
            ignore_https_errors=True, viewport={"width": 390, "height": 844}
        )
        context.add_init_script(INSTRUMENT)
        page = context.new_page()

        def posted(response):
            if response.request.method == "POST" and "/move" in response.url:
                played.posted += response.ok

        page.on("response", posted)
        page.goto(stack.base + "/")
        page.click("a.playnow")
        page.locator("input[name=game]").first.check()  # the catalog's first game
        page.fill("#name", "Ann")
        page.select_option("#computers", "2")
        page.click("form.newtable button.primary")
        page.wait_for_selector(".tablebox")
        played.game_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])
        while len(played.clicks) < max_clicks:
            page.wait_for_selector(f".final, {OFFERED}", timeout=60_000)
            if page.locator(".final").count():
                played.finished = True
                break
            options = page.locator(OFFERED)
            n = options.count()
            if not n:
                continue
            shows, pushes = page.evaluate("[window.__shows.length, window.__pushes.length]")
            t0 = page.evaluate("performance.now()")
            try:
                options.nth(rng.randrange(n)).click(timeout=2_000)
                confirm = page.locator(CONFIRM)
                if confirm.count():
                    t0 = page.evaluate("performance.now()")
                    confirm.click(timeout=2_000)
            except PlaywrightTimeout:
                continue
            # Polled from here: the site's Content-Security-Policy forbids the page the
            # string evaluation that wait_for_function needs; the times are the page's own.
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not page.evaluate(
                f"window.__shows.length > {shows} && window.__pushes.length > {pushes}"
            ):
                page.wait_for_timeout(10)
            if time.monotonic() >= deadline:
                continue  # a step of several taps: nothing sent yet
            shown, push = page.evaluate(f"[window.__shows[{shows}], window.__pushes[{pushes}]]")
            played.clicks.append(max(0.0, shown - t0))
            played.pushes.append(max(0.0, push - t0))
        played.pushed = page.evaluate("window.__pushes.length")
        context.close()
        browser.close()
    return played


def moves_checked(database_url: str, game_id: int, posted: int) -> tuple[int, int]:
    """(lost, doubled): taps answered ok that left no move, and moves applied twice (one
    seat, one version seen, two applied)."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        people = conn.execute(
            "SELECT count(*) FROM games_move WHERE game_id = %s AND source = 'human'", [game_id]
        ).fetchone()[0]
        doubled = conn.execute(
            "SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM games_move "
            "WHERE game_id = %s AND status = 'applied' AND seen_version IS NOT NULL "
            "GROUP BY seat, seen_version HAVING count(*) > 1) d",
            [game_id],
        ).fetchone()[0]
    return max(0, posted - people), int(doubled)


def update(update_id: int, user_id: int, text: str) -> dict:
    """A private message as the Bot API delivers it."""
    user = {"id": user_id, "is_bot": False, "first_name": f"U{user_id}", "language_code": "en"}
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "from": user,
            "chat": {"id": user_id, "type": "private", "first_name": user["first_name"]},
            "date": int(time.time()),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
        },
    }


def webhook_times(stack: Stack, n: int, api=None) -> tuple[list[float], int]:
    times, failed = [], 0
    first = int(time.time() * 1000) % 1_000_000_000  # new ids each run: Redis remembers
    with stack.client() as c:
        for i in range(n):
            if api is not None:  # each user pressed Start once: the bot may write to them
                api.recorder.started.add(5_000_000 + i)
            body = json.dumps(update(first + i, 5_000_000 + i, "/help"))
            t = time.perf_counter()
            r = c.post(
                "/telegram/webhook",
                content=body,
                headers={
                    "Content-Type": "application/json",
                    "X-Telegram-Bot-Api-Secret-Token": SECRET,
                },
            )
            times.append((time.perf_counter() - t) * 1000)
            failed += r.status_code != 200
    return times, failed


# -- the run --------------------------------------------------------------------------------
@dataclass
class Result:
    line: str
    cases: list[Case]
    played: Played
    webhook_failed: int
    healthz_failed: int
    setup_calls: list[str]
    answered: int  # the bot's answers to the webhook's updates (sendMessage)
    lost: int
    doubled: int
    rolling: str = ""
    rolling_finished: bool | None = None  # the game played during the rolling restart
    nodes_used: dict[str, int] = field(default_factory=dict)


def drive(stack: Stack, short: bool, api=None, rolling: bool = False) -> Result:
    partial, idle = (60, 60) if short else (400, 600)
    updates = 10 if short else 50
    cases: list[Case] = []
    hook_times, hook_failed = webhook_times(stack, updates, api)
    sampler = HealthSampler(stack)
    with Slowloris(stack, partial, idle) as loris:
        sampler.start()
        played = play_game(stack, max_clicks=400)
        cases.append(case_big_header(stack))
        cases.append(case_huge_body(stack))
        cases.append(case_chunked_body(stack))
        time.sleep(max(0.0, 12 - 0))  # past the proxy's header timeout (10 s)
        sampler.halt.set()
        sampler.join()
        cut = loris.closed_by_proxy
    health_p95 = p95(sampler.times)
    cases.insert(
        0,
        Case(
            f"{partial} partial-header + {idle} idle connections",
            sampler.failures == 0 and health_p95 <= 300,
            f"/healthz {len(sampler.times)} asked, {sampler.failures} failed, "
            f"p95 {health_p95:.0f} ms; {cut} of {partial} partial cut by the proxy",
        ),
    )
    # Last: it spends the hostile address's request budget.
    cases.append(case_healthz_prefix(stack, 250))
    lost, doubled = moves_checked(stack.database_url, played.game_id, played.posted)
    if not played.finished:
        lost = max(lost, 1)
    summary, rolled = "", None
    if rolling:
        summary, more_lost, more_doubled, rolled = rolling_restart(stack)
        lost, doubled = lost + more_lost, doubled + more_doubled
    used = nodes_used(stack)
    if stack.nodes > 1:
        by_node = ", ".join(f"{k} {v}" for k, v in used.items())
        summary += ("; " if summary else "") + f"moves/streams by node: {by_node}"

    held = sum(c.held for c in cases)
    line = (
        f"stack click_p95_ms={p95(played.clicks):.0f} push_p95_ms={p95(played.pushes):.0f} "
        f"webhook_p95_ms={p95(hook_times):.0f} healthz_p95_ms={health_p95:.0f} "
        f"hostile_held={held}/{len(cases)} lost_moves={lost} doubled_moves={doubled}"
    )
    setup = [c.method for c in api.calls()] if api else []
    answered = 0
    if api is not None:
        answered = sum(1 for c in api.calls("sendMessage") if c.ok and c.chat_id >= 5_000_000)
    return Result(
        line,
        cases,
        played,
        hook_failed,
        sampler.failures,
        setup,
        answered,
        lost,
        doubled,
        summary,
        rolled,
        used,
    )


def rolling_restart(stack: Stack) -> tuple[str, int, int, bool]:
    """A second game in Chromium while each process is restarted in turn (web, live, the
    workers, beat: one at a time, the next once the last answers again). Returns a summary,
    and the game's lost and doubled moves."""
    order = [i for service in APP_SERVICES for i in stack.instances(service)]
    took: list[str] = []

    def restarts():
        time.sleep(3)
        for name in order:
            took.append(f"{name} {stack.restart(name):.0f}s")
            time.sleep(2)

    thread = threading.Thread(target=restarts, daemon=True)
    thread.start()
    played = play_game(stack, max_clicks=400)
    thread.join()
    lost, doubled = moves_checked(stack.database_url, played.game_id, played.posted)
    if not played.finished:
        lost = max(lost, 1)
    summary = (
        f"rolling restart ({', '.join(took)}): game {played.game_id} "
        f"{'finished' if played.finished else 'NOT FINISHED'}, {played.posted} taps, "
        f"{played.pushed} pushes, lost {lost}, doubled {doubled}"
    )
    return summary, lost, doubled, played.finished


def nodes_used(stack: Stack) -> dict[str, int]:
    """Which node answered what (from their access logs): moves by web node, streams by
    live node (a stream is logged when it ends)."""
    used = {}
    for service, marker in (("web", "/move/ "), ("live", "/events/")):
        for name in stack.instances(service):
            path = stack.workdir / f"{name}.log"
            text = path.read_text(errors="replace") if path.exists() else ""
            used[name] = text.count(marker)
    return used


@contextlib.contextmanager
def running(database_url: str, redis_url: str, workdir: Path | None = None, nodes: int = 1):
    """The stack, up, with its recording Bot API; stopped after."""
    sys.path.insert(0, str(ROOT))
    from tests.bot.telegram_fake import Recorder
    from tests.bot.telegram_http import BotApiServer

    class SetupRecorder(Recorder):
        # What `telegram setup` sets besides the webhook and the commands.
        def api_setChatMenuButton(self, params):
            return self._ok(True)

        def api_setMyDescription(self, params):
            return self._ok(True)

        def api_setMyShortDescription(self, params):
            return self._ok(True)

    api = BotApiServer(TOKEN, SetupRecorder()).start()
    with contextlib.ExitStack() as cleanup:
        if workdir is None:
            workdir = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="stack-")))
        stack = Stack(
            fresh_database(database_url), redis_url, workdir, api_url=api.url, nodes=nodes
        )
        try:
            stack.start()
            stack.api = api
            yield stack
        finally:
            stack.stop()
            api.stop()


def report(result: Result) -> str:
    lines = [result.line]
    for case in result.cases:
        lines.append(f"  {'held' if case.held else 'NOT HELD'}: {case.name}: {case.detail}")
    p = result.played
    lines.append(
        f"  game {p.game_id}: {'finished' if p.finished else 'NOT FINISHED'}, "
        f"{len(p.clicks)} taps timed, {p.pushed} pushes; webhook: {result.webhook_failed} "
        f"failed, {result.answered} answered; /healthz failures: {result.healthz_failed}"
    )
    lines.append(f"  Bot API calls: {sorted(set(result.setup_calls))}")
    if result.rolling:
        lines.append(f"  {result.rolling}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench stack", description=__doc__)
    parser.add_argument("--short", action="store_true", help="the CI form: fewer clients")
    parser.add_argument("--keep", help="keep the services' logs in this folder")
    parser.add_argument("--nodes", type=int, default=1, help="web and live nodes (default 1)")
    parser.add_argument(
        "--rolling", action="store_true", help="then a game during a rolling restart"
    )
    args = parser.parse_args(argv)
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith("postgres") or not redis_url:
        sys.exit("bench stack needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    started = time.monotonic()
    keep = Path(args.keep) if args.keep else None
    with running(database_url, redis_url, keep, nodes=args.nodes) as stack:
        up = time.monotonic() - started
        result = drive(stack, args.short, stack.api, rolling=args.rolling)
    print(report(result))
    print(f"  stack up in {up:.0f} s, whole run {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
