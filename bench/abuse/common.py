"""The abuse bench's settings, its tallies and the state of a run, shared by its clients."""

from __future__ import annotations

import json
import random
import re
import threading
import time
import unicodedata
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field

from games import catalog

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


def wall(*moments: float) -> tuple[float, ...]:
    """``time.perf_counter()`` moments as ``time.time()`` ones, to compare with the
    database's timestamps."""
    offset = time.time() - time.perf_counter()
    return tuple(m + offset for m in moments)
