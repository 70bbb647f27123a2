"""``python -m bench soak [--games N --minutes M --seed S]``: a fault soak.

Keeps N games going in Telegram groups, played by simulated users who tap the buttons the
bot sent them (in the group and in private), at human speed with some very fast and some
double taps, while faults strike on a schedule:

- ``kill_worker``: a Celery worker gets SIGKILL mid-task; a replacement starts;
- ``restart_redis``: the soak's own Redis dies (no persistence: queued tasks, locks and
  caches are lost) and comes back 2 s later;
- ``restart_web``: the webhook's web process is restarted (SIGTERM, as a deploy);
- ``restart_bot``: the long-polling bot process is restarted (SIGTERM, as a deploy);
- ``replay``: updates already delivered are delivered again (Telegram's duplicates);
- ``storm_429``: the Bot API answers every message call with 429 and ``retry_after``;
- ``burst_5xx``: the Bot API answers every message call with 500 or 502.

Half the groups reach the bot through the webhook (a gunicorn web process), half through
long polling (``manage.py runbot``), as Telegram would deliver: a webhook call that fails
is retried, an update the bot fetched but did not confirm is served again.

Everything runs on its own: a Redis server on a free port, Celery workers consuming every
queue the settings route to, Celery beat (the sweep and the sync recovery), the web and
bot processes, and the Bot API (``bench.harness.telegram``) on loopback. The database is
PostgreSQL (``DATABASE_URL``, migrated). After the play time the faults stop, the soak
waits for the pipeline to drain, taps once more in every running game to prove it still
takes a move, and checks:

- every game finished or still playable;
- zero lost moves: every tap the bot accepted (recorded as a move, or answered with the
  move's own toast) was applied or lost a race the processor settled (rejected), none is
  left pending;
- zero double-applied moves: every applied move comes from one tap of the log, by the
  user who tapped it, with the action tapped, and no tap is applied twice;
- every tap answered (``answerCallbackQuery``), replays included;
- no hidden information in any game message the sync sent, to the group or in private
  (``tests.bot.leaks``, against the state each was rendered from);
- every 429 honoured: no call to a chat before its ``retry_after`` passed.

Prints the figures (games, moves applied, taps, tap → answer and tap → group table edit
p50/p95/p99, 429s sent and honoured, faults injected), one ``key=value`` line each, and
ends with ``soak: OK`` or exits non-zero with ``soak: FAILED`` and every violation.
"""

from __future__ import annotations

import itertools
import json
import random
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import translation

from bench.harness.processes import wait_until
from bench.harness.services import Services
from bench.harness.stats import percentiles_ms as percentiles
from bench.harness.telegram import SoakTelegram
from bot.callbacks import BadData, decode
from bot.render import renderer
from games import catalog
from games.play.models import Game, GameStatus, Move, MoveSource, MoveStatus, Player, Seat
from games.play.table import Table
from tests.bot.leaks import check_calls
from tests.bot.telegram_fake import FakeTelegram, FakeUser, Shown
from tests.workers import test_database_url as database_url

SUMMARY = (
    "a fault soak through real bot, web and worker processes: every tap answered, nothing lost"
)

# The soak's own corner of the database: its groups and users, removed before each run.
CHAT_BASE = -7_000_000_000
USER_BASE = 7_000_000_000
SPAN = 1_000_000
TOKEN = "777000:SOAK-TEST-TOKEN"
FAULTS = (
    "kill_worker",
    "restart_redis",
    "restart_web",
    "restart_bot",
    "replay",
    "storm_429",
    "burst_5xx",
)
HUMANS = 2  # people per table; computers fill the usual table size
LANGUAGES = ("en", "it", "pt")
IMPATIENCE = 10.0  # a person taps again when nothing changed for this long
TICK = 0.1
PROBE_SECONDS = 90  # for every running game to show a move and take it
SETTLE_SECONDS = 180  # for the last updates to be delivered, answered and applied
# Everything after the play time (settling, the last lobbies, the probe) shares this: a soak
# that does not settle reports what is stuck, within the test's own timeout (600 s), instead
# of being cut off by it with nothing said (CI, once).
AFTER_PLAY_SECONDS = 360


@dataclass
class Tap:
    query_id: str
    user_id: int
    game_id: int
    data: str
    update: dict
    path: str
    sent_at: float


@dataclass
class Person:
    user: FakeUser
    seen: tuple = ()  # the buttons when they last tapped
    tapped_at: float = 0.0
    plan: tuple | None = None  # (when, message, data, double)


@dataclass
class Group:
    index: int
    chat: dict
    people: list[Person]
    path: str  # "webhook" or "polling"
    games: list[int] = field(default_factory=list)
    stage: str = "new"  # new, lobby, play
    slug: str = ""
    asked_at: float = 0.0
    looked_at: float = 0.0
    lobby_taps: dict = field(default_factory=dict)  # op -> when last tapped

    @property
    def game_id(self) -> int | None:
        return self.games[-1] if self.games else None


class Command(BaseCommand):
    help = "Play games through the bot while workers, Redis, web and bot fail; check; report."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=20, help="games going at once")
        parser.add_argument("--minutes", type=float, default=2.0, help="play time")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--workers", type=int, default=3, help="Celery worker processes")
        parser.add_argument("--faults", type=int, default=0, help="faults (default: 1 per 15 s)")
        parser.add_argument(
            "--kinds", default=",".join(FAULTS), help="the faults to inject, comma-separated"
        )

    def handle(self, *args, **opts):
        if connection.vendor != "postgresql":
            raise CommandError(
                "the soak needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@"
                "127.0.0.1:5432/catclub) and migrate; SQLite cannot take several processes."
            )
        self.rng = random.Random(opts["seed"])
        self.cleanup()
        log_dir = tempfile.mkdtemp(prefix="catclub-soak-")
        self.secret = uuid.uuid4().hex
        self.telegram = SoakTelegram(TOKEN, opts["seed"]).start()
        self.services = Services(database_url(), self.telegram.url, TOKEN, self.secret, log_dir)
        self.fake = FakeTelegram(
            self.telegram.recorder,
            process=None,
            _update_ids=itertools.count(1),
            _user_ids=itertools.count(USER_BASE),
            _query_ids=itertools.count(int(time.time() * 1000)),
        )
        self.stdout.write(f"soak: logs in {log_dir}")
        self.taps: list[Tap] = []
        self.replays: list[Tap] = []
        self.faults: list[tuple[float, str]] = []
        self.redeliveries = 0
        self.unsettled: list[str] = []
        self.finish_by = float("inf")  # set when the play time ends
        self.in_flight = 0  # updates handed to "Telegram" and not yet delivered
        self.flight_lock = threading.Lock()
        self.stopping = False
        self.playing = True
        self.pool = ThreadPoolExecutor(max_workers=32, thread_name_prefix="deliver")
        try:
            self.start_services(opts["workers"])
            self.run(opts)
        finally:
            self.stopping = True
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.services.stop()
            self.telegram.stop()

    # -- set-up ----------------------------------------------------------------------------
    def cleanup(self) -> None:
        games = Game.objects.filter(chat_id__lte=CHAT_BASE, chat_id__gt=CHAT_BASE - SPAN)
        Move.objects.filter(game__in=games).delete()
        Seat.objects.filter(game__in=games).delete()
        games.delete()
        Player.objects.filter(telegram_id__gte=USER_BASE, telegram_id__lt=USER_BASE + SPAN).delete()

    def start_services(self, workers: int) -> None:
        services = self.services
        services.start_redis()
        for _ in range(workers):
            services.start_worker()
        services.start_beat()
        services.start_web()
        services.start_bot()
        wait_until(lambda: self.telegram.polls, 60, "the bot process to poll")

    # -- delivering updates, as Telegram does ----------------------------------------------
    def deliver(self, update: dict, path: str, replay: bool = False) -> None:
        with self.flight_lock:
            self.in_flight += 1
        self.pool.submit(self._deliver, update, path, replay)

    def _deliver(self, update: dict, path: str, replay: bool) -> None:
        try:
            self._post(update, path, replay)
        finally:
            with self.flight_lock:
                self.in_flight -= 1

    def drained(self) -> bool:
        """Every update delivered: posted to the webhook, or fetched and confirmed."""
        return self.in_flight == 0 and not self.telegram.unconfirmed()

    def _post(self, update: dict, path: str, replay: bool) -> None:
        if path == "polling":
            self.telegram.push_update(update, force=replay)
            return
        body = json.dumps(update).encode()
        headers = {
            "Content-Type": "application/json",
            "X-Telegram-Bot-Api-Secret-Token": self.secret,
        }
        delay = 0.5
        while not self.stopping:
            request = urllib.request.Request(self.services.webhook_url, body, headers)
            try:
                with urllib.request.urlopen(request, timeout=60):
                    return
            except urllib.error.HTTPError as exc:
                if exc.code < 500:
                    return  # Telegram gives up on a 4xx too (the view says why)
            except (urllib.error.URLError, OSError):
                pass  # the web process is restarting
            self.redeliveries += 1
            time.sleep(delay)
            delay = min(delay * 2, 4)

    def say(self, group: Group, person: Person, chat: dict, text: str) -> None:
        self.deliver(self.fake.message_update(person.user, chat, text), group.path)

    def tap(self, group: Group, person: Person, message: Shown, data: str) -> None:
        update = self.fake.callback_update(person.user, message, data)
        query = update["callback_query"]["id"]
        try:
            game_id = decode(data).game_id
        except BadData:
            game_id = None
        tap = Tap(query, person.user.id, game_id, data, update, group.path, time.monotonic())
        self.taps.append(tap)
        self.deliver(update, group.path)

    # -- the groups ------------------------------------------------------------------------
    def new_group(self, index: int) -> Group:
        chat = self.fake.group(CHAT_BASE - index, f"Soak {index}")
        people = []
        for i in range(HUMANS):
            user = self.fake.user(f"P{index}x{i}", LANGUAGES[(index + i) % len(LANGUAGES)])
            people.append(Person(user))
        group = Group(index, chat, people, "webhook" if index % 2 == 0 else "polling")
        for person in people:
            self.say(group, person, self.fake.private(person.user), "/start")
        return group

    def table_size(self, slug: str) -> int:
        kind = catalog.get(slug)
        return max(kind.min_players, min(kind.max_players, kind.table_players, 4))

    def advance(self, group: Group, status: dict, now: float) -> None:
        """One step of a group's life: open a lobby, fill it, start, play, again."""
        if group.stage == "new":
            if not self.playing:
                return
            slugs = catalog.slugs()
            group.slug = slugs[(group.index + len(group.games)) % len(slugs)]
            self.say(group, group.people[0], group.chat, f"/new {group.slug}")
            group.stage, group.asked_at, group.lobby_taps = "lobby", now, {}
        elif group.stage == "lobby":
            self.fill_lobby(group, now)
        elif group.stage == "play":
            state = status.get(group.game_id)
            if state is not None and state[0] != GameStatus.RUNNING:
                group.stage = "new"
                return
            for person in group.people:
                self.play(group, person, now)

    def fill_lobby(self, group: Group, now: float) -> None:
        if now - group.looked_at < 0.5:  # two queries a look: not every tick for every group
            return
        group.looked_at = now
        lobby = self.lobby_message(group)
        if lobby is None:
            if now - group.asked_at > 20:  # the /new was lost with a dying process
                group.stage = "new"
            return
        game_id = decode(next(b["callback_data"] for b in lobby.buttons)).game_id
        if game_id not in group.games:
            group.games.append(game_id)
        game = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
        if game == GameStatus.RUNNING:
            group.stage = "play"
            return
        if game != GameStatus.LOBBY:
            group.stage = "new"
            return
        seated = list(
            Seat.objects.filter(game_id=game_id).values_list("player__telegram_id", flat=True)
        )  # a computer's seat has no player: None
        creator = group.people[0]
        for person in group.people[1:]:
            if person.user.id not in seated:
                self.lobby_tap(group, person, lobby, f"l{game_id}:j", now)
                return
        op = "s" if len(seated) >= self.table_size(group.slug) else "c"
        self.lobby_tap(group, creator, lobby, f"l{game_id}:{op}", now)

    def lobby_tap(self, group: Group, person: Person, lobby: Shown, data: str, now: float):
        if now - group.lobby_taps.get(data, 0) > 3:  # one tap, then give it time
            group.lobby_taps[data] = now
            self.tap(group, person, lobby, data)

    def lobby_message(self, group: Group) -> Shown | None:
        for message in reversed(self.telegram.screen(group.chat["id"])):
            if any(b.get("callback_data", "").endswith(":j") for b in message.buttons):
                return message
        return None

    def view(self, group: Group, person: Person) -> list[tuple[Shown, str]]:
        """The buttons of the current game a person can tap: private, then the group's."""
        game = group.game_id
        found = []
        for chat in (person.user.id, group.chat["id"]):
            for message in self.telegram.screen(chat)[-3:]:
                for b in message.buttons:
                    data = b.get("callback_data", "")
                    if data.startswith(f"g{game}:"):
                        found.append((message, data))
                    elif data.startswith(f"m{game}:") and not data.endswith(":"):
                        found.append((message, data))  # a menu's step, not its way back
        return found

    def play(self, group: Group, person: Person, now: float) -> None:
        if person.plan is not None:
            when, message, data, double = person.plan
            if when <= now:
                person.plan = None
                self.tap(group, person, message, data)
                if double:
                    self.tap(group, person, message, data)
            return
        if not self.playing:
            return
        buttons = self.view(group, person)
        seen = tuple(data for _m, data in buttons)
        if not buttons:
            return
        if seen == person.seen and now - person.tapped_at < IMPATIENCE:
            return
        moves = [(m, d) for m, d in buttons if d.startswith("g")]
        choices = moves if moves and (self.rng.random() < 0.85) else buttons
        message, data = self.rng.choice(choices)
        roll = self.rng.random()
        delay = self.rng.uniform(0.02, 0.15) if roll < 0.15 else self.rng.uniform(0.3, 2.0)
        person.seen, person.tapped_at = seen, now + delay
        person.plan = (now + delay, message, data, roll > 0.95)

    # -- the faults ------------------------------------------------------------------------
    def schedule(self, opts) -> list[tuple[float, str]]:
        seconds = opts["minutes"] * 60
        kinds = [k for k in opts["kinds"].split(",") if k]
        unknown = set(kinds) - set(FAULTS)
        if unknown:
            raise CommandError(f"unknown faults {sorted(unknown)}: choose among {FAULTS}")
        count = opts["faults"] or max(len(kinds), int(seconds // 15))
        order = []
        while len(order) < count:
            batch = list(kinds)
            self.rng.shuffle(batch)
            order += batch
        # Spread over the play time, leaving its first and last tenth quiet.
        step = seconds * 0.8 / count
        return [(seconds * 0.1 + i * step, name) for i, name in enumerate(order[:count])]

    def run_faults(self, schedule, t0: float) -> None:
        rng = random.Random(self.rng.random())
        for at, name in schedule:
            while time.monotonic() - t0 < at:
                if self.stopping or not self.playing:
                    return
                time.sleep(0.2)
            self.strike(name, rng)
            self.faults.append((time.monotonic() - t0, name))

    def strike(self, name: str, rng: random.Random) -> None:
        services = self.services
        if name == "kill_worker":
            services.kill_worker(rng)
        elif name == "restart_redis":
            services.restart_redis()
        elif name == "restart_web":
            services.restart_web()
        elif name == "restart_bot":
            services.restart_bot()
        elif name == "replay":
            taps = [t for t in self.taps if t.sent_at < time.monotonic() - 1]
            for tap in rng.sample(taps, min(5, len(taps))):
                self.replays.append(tap)
                self.deliver(tap.update, tap.path, replay=True)
        elif name == "storm_429":
            self.telegram.storm("429", 5)
        elif name == "burst_5xx":
            self.telegram.storm("5xx", 3)

    # -- the run ---------------------------------------------------------------------------
    def run(self, opts) -> None:
        groups = [self.new_group(i) for i in range(opts["games"])]
        schedule = self.schedule(opts)
        t0 = time.monotonic()
        faults = threading.Thread(target=self.run_faults, args=(schedule, t0), daemon=True)
        faults.start()
        status: dict[int, tuple] = {}
        last_status = 0.0
        while time.monotonic() - t0 < opts["minutes"] * 60:
            now = time.monotonic()
            if now - last_status > 0.5:
                ids = [g.game_id for g in groups if g.game_id]
                status = {
                    pk: (s, v)
                    for pk, s, v in Game.objects.filter(pk__in=ids).values_list(
                        "pk", "status", "version"
                    )
                }
                last_status = now
            for group in groups:
                self.advance(group, status, now)
            time.sleep(TICK)
        self.playing = False
        played = time.monotonic() - t0
        faults.join()
        self.finish_by = time.monotonic() + AFTER_PLAY_SECONDS
        # A lobby opened when the time ran out (its /new may arrive late) is started, then
        # played like the rest.
        self.settle(groups)
        for group in groups:
            if group.stage == "new" and self.lobby_message(group) is not None:
                group.stage = "lobby"
        deadline = min(time.monotonic() + 60, self.finish_by)
        while any(g.stage == "lobby" for g in groups) and time.monotonic() < deadline:
            for group in groups:
                if group.stage == "lobby":
                    self.fill_lobby(group, time.monotonic())
            time.sleep(TICK)
        dead = self.services.dead()
        self.settle(groups)
        stuck = self.probe(groups)
        self.report(groups, played, opts, stuck, dead)

    def soak_games(self, groups):
        return Game.objects.filter(pk__in=[pk for g in groups for pk in g.games])

    def settle(self, groups) -> None:
        """Wait until every update was delivered and every tap answered, nothing is
        pending and the Bot API has been quiet for a while. What is still not so when the
        time is up goes in ``self.unsettled``, for the report."""
        started = time.monotonic()
        deadline = min(started + SETTLE_SECONDS, self.finish_by)
        while True:
            calls = self.telegram.calls()
            quiet = not calls or time.monotonic() - calls[-1].at > 5
            answered = {
                c.params.get("callback_query_id")
                for c in calls
                if c.method == "answerCallbackQuery" and c.ok
            }
            pending = list(
                Move.objects.filter(
                    game__in=self.soak_games(groups), status=MoveStatus.PENDING
                ).values_list("game_id", "key")[:5]
            )
            unanswered = [t.data for t in self.taps if t.query_id not in answered]
            if quiet and self.drained() and not pending and not unanswered:
                return
            if time.monotonic() >= deadline:
                break
            time.sleep(1)
        stuck = [f"moves pending {pending}"] if pending else []
        if unanswered:
            stuck.append(f"taps unanswered {unanswered[:5]} ({len(unanswered)})")
        if self.in_flight:
            stuck.append(f"updates in flight={self.in_flight}")
        if unconfirmed := self.telegram.unconfirmed():
            stuck.append(f"updates unconfirmed={unconfirmed}")
        if not quiet:
            stuck.append(f"Bot API busy (last call {calls[-1].method})")
        self.unsettled.append(f"after {time.monotonic() - started:.0f} s: " + ", ".join(stuck))

    def probe(self, groups) -> list[str]:
        """Tap once more in every running game, on a button of its current version: it
        must take the move. Returns the games that did not."""
        by_game = {g.game_id: g for g in groups if g.game_id}
        todo = set(
            Game.objects.filter(pk__in=list(by_game), status=GameStatus.RUNNING).values_list(
                "pk", flat=True
            )
        )
        tapped: dict[int, int] = {}  # game -> the version it was tapped at
        looked: dict[int, int] = {}  # game -> the version it was last looked at
        started = time.monotonic()
        deadline = min(started + PROBE_SECONDS, self.finish_by)
        while todo and time.monotonic() < deadline:
            for game in Game.objects.filter(pk__in=list(todo)):
                if game.status != GameStatus.RUNNING or tapped.get(game.pk, game.version) != (
                    game.version
                ):
                    todo.discard(game.pk)  # it took the move (or ended)
                elif game.pk not in tapped:
                    looked[game.pk] = game.version
                    if self.probe_tap(by_game[game.pk], game):
                        tapped[game.pk] = game.version
            time.sleep(0.5)
        self.settle(groups)
        return [
            f"game {pk} v{looked.get(pk)}: "
            + ("the tap was not applied" if pk in tapped else "no button of this version")
            + f" within {max(0.0, deadline - started):.0f} s"
            for pk in sorted(todo)
        ]

    def probe_tap(self, group: Group, game: Game) -> bool:
        """Tap a move of the game's current version for a person to act; or, with only a
        menu in sight, a step of it (the next look finds its moves). True once a move was
        tapped; a game waiting for computers or a timer counts as tapped."""
        to_act = Table(game).to_act()
        seats = dict(
            Seat.objects.filter(game=game, player__isnull=False).values_list(
                "player__telegram_id", "number"
            )
        )
        people = [p for p in group.people if seats.get(p.user.id) in to_act]
        if not people:
            return True
        for person in people:
            current = []
            for chat in (person.user.id, group.chat["id"]):
                for message in self.telegram.screen(chat):
                    current += [
                        (message, b["callback_data"])
                        for b in message.buttons
                        if b.get("callback_data", "").startswith(
                            (f"g{game.pk}:{game.version}:", f"m{game.pk}:{game.version}:")
                        )
                    ]
            moves = [(m, d) for m, d in current if d.startswith("g")]
            if moves or current:
                message, data = (moves or current)[0]
                if moves or time.monotonic() - person.tapped_at > 3:
                    person.tapped_at = time.monotonic()
                    self.tap(group, person, message, data)
                return bool(moves)
        return False

    # -- the checks and figures ------------------------------------------------------------
    # One figure after another, each with its threshold: a list, not a tangle.
    def report(self, groups, played: float, opts, stuck: list[str], dead: list[str]):  # noqa: C901
        calls = self.telegram.calls()
        games = self.soak_games(groups)
        violations: list[str] = [f"not playable: {s}" for s in stuck]
        lobbies = games.filter(status=GameStatus.LOBBY).values_list("pk", flat=True)
        violations += [f"game {pk} never started" for pk in lobbies]
        violations += [f"a process died on its own: {name}" for name in dead]
        violations += [f"not settled {what}" for what in self.unsettled]

        taps = {t.query_id: t for t in self.taps}
        answers: dict[str, float] = {}
        answered_ok: set[str] = set()
        toasts: dict[str, str] = {}
        for call in calls:
            if call.method != "answerCallbackQuery":
                continue
            query = call.params.get("callback_query_id")
            answers.setdefault(query, call.at)
            if call.ok:
                answered_ok.add(query)
                toasts.setdefault(query, call.params.get("text") or "")
        unanswered = [q for q in taps if q not in answered_ok]
        violations += [f"tap not answered: {taps[q].data} ({q})" for q in unanswered]

        seats = {
            (game_id, number): telegram_id
            for game_id, number, telegram_id in Seat.objects.filter(
                game__in=games, player__isnull=False
            ).values_list("game_id", "number", "player__telegram_id")
        }
        languages = dict(
            Player.objects.filter(
                telegram_id__gte=USER_BASE, telegram_id__lt=USER_BASE + SPAN
            ).values_list("telegram_id", "language")
        )
        slugs = dict(games.values_list("pk", "game_type"))
        human = Move.objects.filter(game__in=games, source=MoveSource.HUMAN)
        moves = list(human.values_list("game_id", "key", "seat", "action", "status", "seq"))
        recorded = {key for _g, key, *_ in moves}
        applied_keys: dict[str, int] = {}
        for game_id, key, seat, action, status, _seq in moves:
            if status == MoveStatus.PENDING:
                violations.append(f"lost: move {key} of game {game_id} still pending")
            if status != MoveStatus.APPLIED:
                continue
            applied_keys[key] = applied_keys.get(key, 0) + 1
            tap = taps.get(key)
            if tap is None:
                violations.append(f"applied move {key} of game {game_id} matches no tap")
            elif (
                tap.game_id != game_id
                or tap.user_id != seats.get((game_id, seat))
                or decode(tap.data).arg != action
            ):
                violations.append(f"applied move {key} is not what tap {tap.data} asked")
        violations += [f"tap {k} applied {n} times" for k, n in applied_keys.items() if n > 1]
        # A tap answered with its move's toast was accepted: it must be in the log.
        for query, tap in taps.items():
            if not tap.data.startswith("g") or query in recorded or query not in toasts:
                continue
            data = decode(tap.data)
            slug = slugs.get(data.game_id)
            with translation.override(languages.get(tap.user_id, "en")):
                accepted = renderer(slug).toast(data.arg, None) if slug else None
            if toasts[query] == accepted:
                violations.append(f"lost: tap {tap.data} ({query}) accepted, not in the log")

        try:
            leaks_checked = check_calls(c for c in calls if c.context is not None)
        except AssertionError as exc:
            leaks_checked = 0
            violations.append(f"hidden information shown: {exc}")

        early = self.telegram.early
        violations += [
            f"429 not honoured: {method} to chat {chat} {too_soon:.2f} s early"
            for chat, method, too_soon in early
        ]

        # Figures.
        to_answer = [answers[q] - t.sent_at for q, t in taps.items() if q in answers]
        group_calls: dict[int, list] = {}
        for call in calls:
            ctx = call.context
            if call.ok and ctx and call.chat_id == ctx["chat_id"]:
                group_calls.setdefault(ctx["game_id"], []).append((call.at, ctx["version"]))
        to_table = []
        for game_id, key, _seat, _action, status, seq in moves:
            tap = taps.get(key)
            if status != MoveStatus.APPLIED or tap is None:
                continue
            shown = [at for at, version in group_calls.get(game_id, []) if version >= seq]
            if shown:
                to_table.append(min(shown) - tap.sent_at)
        by_status = {s: games.filter(status=s).count() for s in GameStatus.values}
        applied_all = Move.objects.filter(game__in=games, status=MoveStatus.APPLIED).count()
        injected = {name: sum(1 for _t, n in self.faults if n == name) for name in FAULTS}
        out = self.stdout.write
        out(
            f"soak games={games.count()} groups={len(groups)} played_s={played:.0f}"
            f" finished={by_status.get(GameStatus.FINISHED, 0)}"
            f" running={by_status.get(GameStatus.RUNNING, 0)}"
            f" lobby={by_status.get(GameStatus.LOBBY, 0)}"
            f" aborted={by_status.get(GameStatus.ABORTED, 0)}"
        )
        out(
            f"soak moves_applied={applied_all}"
            f" human_applied={sum(1 for m in moves if m[4] == MoveStatus.APPLIED)}"
            f" human_rejected={sum(1 for m in moves if m[4] == MoveStatus.REJECTED)}"
            f" taps={len(taps)} replays={len(self.replays)} answered={len(answered_ok)}"
            f" webhook_retries={self.redeliveries}"
        )
        out(f"soak tap_to_answer_ms {percentiles(to_answer)} n={len(to_answer)}")
        out(f"soak tap_to_table_edit_ms {percentiles(to_table)} n={len(to_table)}")
        out(
            f"soak 429_sent={self.telegram.sent_429} 429_honoured={self.telegram.honoured_429}"
            f" 429_early={len(early)} 5xx_sent={self.telegram.sent_5xx}"
            f" messages_checked_for_leaks={leaks_checked}"
        )
        out("soak faults " + " ".join(f"{k}={v}" for k, v in injected.items()))
        missing = [name for name in FAULTS if not injected[name] and name in opts["kinds"]]
        if missing:
            violations.append(f"faults not injected: {', '.join(missing)}")
        if violations:
            for violation in violations[:50]:
                out(f"soak violation: {violation}")
            for process in self.services.processes():
                out(f"soak log of {process.name}, its end:\n{process.tail(15)}")
            raise CommandError(f"soak: FAILED ({len(violations)} violations)")
        out("soak: OK")
