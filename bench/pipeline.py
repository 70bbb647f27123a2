"""``python -m bench pipeline``: many concurrent games through the real pipeline.

Needs PostgreSQL (``DATABASE_URL``) and Redis (``REDIS_URL``). Starts Celery worker
processes as production runs them (four solo-pool processes) or, with
``--external-worker``, uses running ones (then only the submitting side's queries are
counted). ``--drivers`` processes (two by default) share the simulated people, so that
the driver is not the limit. Keeps ``--games`` games running, each with simulated human
seats that submit a move as soon as it is their turn and computer seats, for
``--seconds``, and ends with one line::

    moves/s=<n> p50_ms=<n> p95_ms=<n> p99_ms=<n> queries/move=<n>

moves/s counts every applied move (human, computer, timeout); the latencies are from a
human submission to its move being applied; queries/move is every query of submitting and
processing (not of the benchmark's own polling) over the applied moves.
"""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import random
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import redis
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from django.utils import timezone

from bench.harness.workers import COUNTER_KEY, UPDATES_CHANNEL, start_workers, stop_workers
from config.celery import app
from games import catalog
from games.computers import act
from games.play import errors, services
from games.play.models import Game, GameStatus, Move, MoveStatus, Player, Seat

SUMMARY = "many concurrent games through the real pipeline: moves/s, latency, queries per move"

BENCH_CHAT_BASE = -9_000_000_000


class QueryCounter:
    def __init__(self):
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


class Command(BaseCommand):
    help = "Drive concurrent games through PostgreSQL, Redis and Celery workers; print figures."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=16)
        parser.add_argument("--seconds", type=float, default=20.0)
        parser.add_argument("--humans", type=int, default=1, help="simulated humans per game")
        parser.add_argument("--workers", type=int, default=4, help="worker processes to start")
        parser.add_argument("--pool", default="solo", choices=["solo", "prefork", "threads"])
        parser.add_argument("--concurrency", type=int, default=1, help="per worker process")
        parser.add_argument("--external-worker", action="store_true")
        parser.add_argument("--drivers", type=int, default=2, help="driver processes")

    def handle(self, *args, **opts):
        if connection.vendor != "postgresql" or not settings.REDIS_URL:
            raise CommandError("bench_pipeline needs DATABASE_URL (PostgreSQL) and REDIS_URL.")
        app.conf.task_always_eager = False
        self.redis = redis.Redis.from_url(settings.REDIS_URL)
        # Nothing left from before (the queue as the broker names it: global_keyprefix).
        self.redis.delete(COUNTER_KEY, settings.SITE_PREFIX + app.conf.task_default_queue)
        self.cleanup()
        drivers = self.fork_drivers(opts)
        workers = [] if opts["external_worker"] else self.start_workers(opts)
        try:
            self.run(opts, drivers)
        finally:
            stop_workers(workers)
            for driver in drivers.processes if drivers else ():
                driver.kill()
            self.cleanup()

    # -- set-up ----------------------------------------------------------------------------
    def start_workers(self, opts) -> list[subprocess.Popen]:
        try:
            return start_workers(opts["workers"], opts["pool"], opts["concurrency"])
        except RuntimeError as exc:
            raise CommandError(str(exc)) from None

    def cleanup(self) -> None:
        games = Game.objects.filter(chat_id__lte=BENCH_CHAT_BASE, chat_id__gt=BENCH_CHAT_BASE * 2)
        Move.objects.filter(game__in=games).delete()
        for game in games:
            game.seats.all().delete()
        games.delete()
        Player.objects.filter(telegram_id__gte=9_000_000_000).delete()
        # Every step leaves a dead version of its game's row: PostgreSQL's autovacuum
        # clears them in production, but a server that runs without it (this benchmark's
        # machine) would measure each run slower than the last.
        tables = [model._meta.db_table for model in (Game, Move, Seat, Player)]
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(tables)}")

    # -- the run -----------------------------------------------------------------------------
    def fork_drivers(self, opts) -> Drivers | None:
        """Start the driver processes (``--drivers`` above one), waiting to play. Forked
        first, while this process has no Celery threads whose locks a child could inherit
        held (asking the workers for a ping starts some)."""
        parts = opts["drivers"]
        if parts == 1:
            return None
        connections.close_all()  # each driver opens its own
        fork = multiprocessing.get_context("fork")
        drivers = Drivers(fork.Barrier(parts + 1), fork.Queue(), [])
        for part in range(parts):
            args = (opts, part, parts, drivers.ready, drivers.results)
            drivers.processes.append(fork.Process(target=drive, args=args))
            drivers.processes[-1].start()
        return drivers

    def run(self, opts, drivers: Drivers | None) -> None:
        if drivers is None:
            runs = [drive(opts, 0, 1)]
        else:
            try:
                drivers.ready.wait(timeout=300)  # every driver has its games: play
                wait = opts["seconds"] + 300
                runs = [drivers.results.get(timeout=wait) for _ in drivers.processes]
            except (threading.BrokenBarrierError, queue.Empty):
                raise CommandError("a driver failed (see above)") from None
        started_at = min(r.started_at for r in runs)
        elapsed = max(r.ended for r in runs) - min(r.began for r in runs)
        # Let the last submissions be processed before counting.
        deadline = time.monotonic() + 30
        while Move.objects.filter(status=MoveStatus.PENDING).exists():
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.report(started_at, elapsed, sum(r.queries for r in runs))

    def report(self, started_at, elapsed: float, submit_queries: int) -> None:
        bench_games = Game.objects.filter(chat_id__lte=BENCH_CHAT_BASE)
        applied = Move.objects.filter(
            game__in=bench_games, status=MoveStatus.APPLIED, processed_at__gte=started_at
        )
        n_applied = applied.count()
        latencies = sorted(
            (m.processed_at - m.created_at).total_seconds() * 1000
            for m in applied.filter(source="human").only("processed_at", "created_at")
        )
        worker_queries = int(self.redis.get(COUNTER_KEY) or 0)
        if not n_applied or not latencies:
            raise CommandError("no moves were applied; are the workers consuming?")

        def pct(p: float) -> float:
            return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]

        queries = (submit_queries + worker_queries) / n_applied
        self.stdout.write(
            f"games={bench_games.count()} human_moves={len(latencies)} applied={n_applied}"
            f" seconds={elapsed:.1f} submit_queries={submit_queries}"
            f" worker_queries={worker_queries} mean_ms={statistics.fmean(latencies):.1f}"
        )
        self.stdout.write(
            f"moves/s={n_applied / elapsed:.1f} p50_ms={pct(50):.1f} p95_ms={pct(95):.1f}"
            f" p99_ms={pct(99):.1f} queries/move={queries:.2f}"
        )


@dataclass
class Drivers:
    ready: Any  # a Barrier: the drivers and the benchmark, before playing
    results: Any  # a Queue of DriverRun
    processes: list


@dataclass
class DriverRun:
    started_at: datetime  # when its loop began, on the wall clock
    began: float  # the same on the monotonic clock (shared by processes on one machine)
    ended: float
    queries: int  # of its submissions


def new_game(index: int, humans: int) -> tuple[int, dict[int, Player]]:
    slug = catalog.slugs()[index % len(catalog.slugs())]
    rules = catalog.get(slug).rules
    size = 4 if rules.min_players <= 4 <= rules.max_players else rules.min_players
    people = [
        Player.objects.create(
            telegram_id=9_000_000_000 + index * 10 + i,
            display_name=f"bench {index}.{i}",
            reachable=True,
        )
        for i in range(humans)
    ]
    game = services.create_lobby(BENCH_CHAT_BASE - index, slug, people[0], turn_seconds=3600)
    for p in people[1:]:
        services.join(game, p)
    for _ in range(size - humans):
        services.add_computer(game, by=people[0])
    services.start(game, people[0])
    seats = {s.number: s.player for s in game.seats.select_related("player") if s.player}
    return game.pk, seats


def drive(opts, part: int, parts: int, ready=None, results=None) -> DriverRun:
    """One driver: the games whose index is ``part`` modulo ``parts``, kept at their share
    of ``--games`` for ``--seconds``. Several drivers (``--drivers``, one process each) keep
    the simulated people from being the limit; they start playing together (``ready``)
    and put their figures in ``results``."""
    humans = opts["humans"]
    indexes = itertools.count(part, parts)
    active: dict[int, dict[int, Player]] = {}
    for _ in range(part, opts["games"], parts):
        gid, seats = new_game(next(indexes), humans)
        active[gid] = seats
    counter = QueryCounter()
    rng = random.Random(1 + part)
    seen: dict[int, int] = {}  # game -> version last looked at
    client = redis.Redis.from_url(settings.REDIS_URL)
    updates = client.pubsub(ignore_subscribe_messages=True)
    updates.subscribe(UPDATES_CHANNEL)
    if ready is not None:
        ready.wait()
    started_at = timezone.now()
    t0 = last_poll = time.monotonic()
    # Within a driver, one thread: submitting inline keeps the driver's own GIL hand-offs
    # out of the measured latency (threads here added tens of milliseconds per submission).
    # The players wake on the workers' update notices, as the bot does on Telegram's; a
    # full look every second catches a notice that went missing.
    while time.monotonic() - t0 < opts["seconds"]:
        changed = set()
        message = updates.get_message(timeout=0.05)
        while message is not None:
            changed.add(int(message["data"]))
            message = updates.get_message(timeout=0)
        if time.monotonic() - last_poll > 1:
            last_poll = time.monotonic()
            versions = Game.objects.filter(pk__in=list(active)).values_list("pk", "version")
            changed |= {g for g, v in versions if seen.get(g) != v}
        rows = Game.objects.filter(pk__in=changed & set(active)).values_list(
            "pk", "status", "version", "game_type", "state"
        )
        for gid, status, version, slug, state_data in rows:
            seen[gid] = version
            if status != GameStatus.RUNNING:
                del active[gid]
                new_gid, seats = new_game(next(indexes), humans)
                active[new_gid] = seats
                continue
            rules = catalog.get(slug).rules
            state = rules.load(state_data)
            for seat in rules.to_act(state):
                player = active[gid].get(seat)
                if player is None:
                    continue
                action = act(rules, state, seat, catalog.get(slug).strategy("heuristic"), rng)
                try:
                    with connection.execute_wrapper(counter):
                        services.submit_move(
                            gid, player, action, f"b{gid}:{version}:{seat}", version
                        )
                except errors.GameError:
                    seen.pop(gid, None)  # lost a race with a computer: look again
    ended = time.monotonic()
    updates.close()
    run = DriverRun(started_at, t0, ended, counter.n)
    if results is not None:
        connections.close_all()
        results.put(run)
    return run
