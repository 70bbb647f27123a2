"""The tournament bench through the real pipeline (issue 26, part 5): a Swiss and then an
Arena, run as production runs them, their games played by computers.

Needs PostgreSQL (``DATABASE_URL``) and Redis (``REDIS_URL``). Starts Celery workers of
the production app (``bench.harness.workers``: game, computer and sync queues). The tournaments are
a league's, their players made for the run and removed after it. Nothing here pairs or
seats anyone: ``rounds.advance`` does, in the workers, when a tournament's game ends
(``game_ended``), and every ``BEAT_SECONDS`` (the beat's ``advance_all``, sent from here
as the beat sends it, as is its ``sweep`` every ``SWEEP_SECONDS``, which re-queues the
work of a task the broker lost). The bench only plays: each seat of a new table is handed to a
computer (``replace_with_computer``, as a moderator would: no forfeit), whose moves the
workers make. The bench watches the tournament's rows and, once it is over, reads the
figures from them:

- **Swiss** (``bench.harness.games.swiss_game``, tables of 4): ``pairing_ms_max``, the
  slowest round's pairing (the same function on the same results as the worker ran, timed
  here: it must give the tables the worker stored, or the bench fails);
  ``round_gap_ms_max``, the slowest wait from a round's last game ending to the next
  round's tables being dealt, through the queue and the worker; ``repeats``, the pairs
  seated together who had met already; ``total_s``, from the start to the tournament's
  end.
- **Arena** (``bench.harness.games.arena_game``, tables of 4): ``games``, the arena's games
  played; ``reseat_p50_ms`` and ``reseat_p95_ms``, a player's wait from the end of their
  game to their next table being dealt (everyone stays in, so enough players always wait).
"""

from __future__ import annotations

import itertools
import signal
import statistics
import sys
import time
from collections import defaultdict
from datetime import timedelta

import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from bench.harness.games import arena_game, swiss_game
from bench.harness.stats import nearest_rank as percentile
from bench.harness.workers import start_workers, stop_workers
from config.celery import app
from games.leagues.models import League
from games.play import services
from games.play import tasks as play_tasks
from games.play.models import Game, GameStatus, Player, Seat
from games.tournaments import entries, rounds
from games.tournaments import tasks as tourney_tasks
from games.tournaments.models import Format, Round, RoundTable, Status, Tournament
from games.tournaments.pairing.results import count_repeats
from games.tournaments.pairing.swiss import history, next_round

PLAYER_BASE = 9_500_000_000  # the bench's players' Telegram ids, removed after a run
LEAGUE_SLUG = "bench-tournament"
BEAT_SECONDS = 10.0  # production's TOURNAMENT_SECONDS
SWEEP_SECONDS = 2.0  # production's SWEEP_SECONDS
LOOK_SECONDS = 0.05


class BenchFailed(RuntimeError):
    pass


def run(
    swiss_size: tuple[int, int],
    arena_size: tuple[int, int],
    *,
    seed: int,
    strategy: str,
    workers: int,
    timeout: float,
    report=print,
    only: str | None = None,
) -> list[str]:
    """The Swiss's line and then the Arena's (``only``: one of them), each passed to
    ``report`` once known."""
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        raise BenchFailed("the tournament bench needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    app.conf.task_always_eager = False
    redis.Redis.from_url(settings.REDIS_URL).delete(
        *(
            settings.SITE_PREFIX + queue  # as the broker names them (global_keyprefix)
            for queue in (settings.GAMES_QUEUE, settings.COMPUTERS_QUEUE, settings.TELEGRAM_QUEUE)
        )
    )
    cleanup()
    # Stopped (SIGTERM), the bench still stops its workers and removes its rows.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("tournament bench: stopped"))
    procs = start_workers(workers, label="tournament", quiet=True)
    try:
        lines = []
        if only in (None, "swiss"):
            lines.append(swiss(*swiss_size, seed=seed, strategy=strategy, timeout=timeout))
            report(lines[-1])
        if only in (None, "arena"):
            lines.append(arena(*arena_size, seed=seed, strategy=strategy, timeout=timeout))
            report(lines[-1])
    finally:
        stop_workers(procs)
        cleanup()
    return lines


# -- set-up and tear-down -----------------------------------------------------------------
def league() -> League:
    found, _ = League.objects.get_or_create(
        slug=LEAGUE_SLUG,
        defaults={"name": "Tournament bench", "game_types": [swiss_game(), arena_game()]},
    )
    return found


def make_players(n: int, offset: int) -> list[Player]:
    return Player.objects.bulk_create(
        Player(
            telegram_id=PLAYER_BASE + offset + i,
            display_name=f"bench {offset + i}",
            reachable=True,
        )
        for i in range(n)
    )


def cleanup() -> None:
    games = Game.objects.filter(league__slug=LEAGUE_SLUG)
    Tournament.objects.filter(league__slug=LEAGUE_SLUG).delete()
    Seat.objects.filter(game__in=games).delete()
    games.delete()
    League.objects.filter(slug=LEAGUE_SLUG).delete()
    Player.objects.filter(telegram_id__gte=PLAYER_BASE, telegram_id__lt=PLAYER_BASE * 2).delete()


def new_tournament(name: str, game_type: str, n_players: int, offset: int, **fields):
    t = Tournament.objects.create(
        league=league(),
        name=name,
        game_type=game_type,
        table_size=4,
        starts_at=timezone.now() + timedelta(hours=1),
        **fields,
    )
    for player in make_players(n_players, offset):
        entries.sign_up(t, player)
    return t


# -- playing ------------------------------------------------------------------------------
def play(t: Tournament, strategy: str, timeout: float) -> float:
    """Start ``t`` and hand every seat of its tables to a computer as they are dealt, until
    it is over. Returns the seconds it took."""
    started = time.monotonic()
    rounds.start_now(t)
    beat = swept = time.monotonic()
    handed: set[int] = set()
    while True:
        status = Tournament.objects.filter(pk=t.pk).values_list("status", flat=True).get()
        if status in (Status.FINISHED, Status.CANCELLED):
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise BenchFailed(f"{t.name} did not end in {timeout:.0f} s")
        fresh = (
            RoundTable.objects.filter(round__tournament=t, is_bye=False, game__isnull=False)
            .exclude(game_id__in=handed)
            .values_list("game_id", flat=True)
        )
        for game_id in fresh:
            game = Game.objects.get(pk=game_id)
            for number in game.seats.filter(replaced_by_computer=False).values_list(
                "number", flat=True
            ):
                if game.status == GameStatus.RUNNING:
                    services.replace_with_computer(game, number, strategy, by=services.SYSTEM)
            handed.add(game_id)
        if time.monotonic() - beat >= BEAT_SECONDS:
            beat = time.monotonic()
            tourney_tasks.advance_all.delay()
        if time.monotonic() - swept >= SWEEP_SECONDS:
            swept = time.monotonic()
            play_tasks.sweep.delay()
        time.sleep(LOOK_SECONDS)


def swiss(players: int, n_rounds: int, *, seed: int, strategy: str, timeout: float) -> str:
    t = new_tournament(
        "Bench Swiss",
        swiss_game(),
        players,
        0,
        format=Format.SWISS,
        round_count=n_rounds,
        seed=seed,
    )
    total_s = play(t, strategy, timeout)
    t.refresh_from_db()
    results = rounds.round_results(t)
    rules = rounds.swiss_rules(t)
    entrants = entries.active_players(t)
    stored = list(Round.objects.filter(tournament=t).order_by("number"))
    if len(stored) != n_rounds:
        raise BenchFailed(f"the Swiss played {len(stored)} rounds of {n_rounds}")
    pairing_s, repeats = [], 0
    for i, rnd in enumerate(stored):
        t0 = time.perf_counter()
        pairing = next_round(entrants, results[:i], rules)
        pairing_s.append(time.perf_counter() - t0)
        tables = [tuple(tb.players) for tb in rnd.tables.filter(is_bye=False)]
        if sorted(tables) != sorted(pairing.tables):
            raise BenchFailed(f"round {rnd.number} is not the pairing of its results")
        met, _ = history(results[:i])
        repeats += count_repeats(tables, met)
    gaps = []
    for before, after in itertools.pairwise(stored):
        ended = Game.objects.filter(tournament_table__round=before).order_by("-finished_at")
        last_end = ended.values_list("finished_at", flat=True).first()
        dealt = Game.objects.filter(tournament_table__round=after).order_by("created_at")
        first_deal = dealt.values_list("created_at", flat=True).first()
        gaps.append((first_deal - last_end).total_seconds())
    games = Game.objects.filter(tournament_table__round__tournament=t).count()
    return (
        f"tournament swiss players={players} rounds={n_rounds}"
        f" pairing_ms_max={max(pairing_s) * 1e3:.1f} repeats={repeats} total_s={total_s:.1f}"
        f" round_gap_ms_max={max(gaps, default=0) * 1e3:.0f} games={games}"
    )


def arena(players: int, minutes: int, *, seed: int, strategy: str, timeout: float) -> str:
    t = new_tournament(
        "Bench Arena",
        arena_game(),
        players,
        100_000,  # after the Swiss's players
        format=Format.ARENA,
        duration_minutes=minutes,
        seed=seed,
    )
    play(t, strategy, minutes * 60 + timeout)
    # Each player's games in the order dealt: the wait between one's end and the next's deal.
    by_player: dict[int, list[tuple]] = defaultdict(list)
    tables = RoundTable.objects.filter(round__tournament=t, is_bye=False).select_related("game")
    games = 0
    for table in tables:
        if table.game.status == GameStatus.FINISHED:
            games += 1
        for player in table.players:
            by_player[player].append((table.game.created_at, table.game.finished_at))
    waits = []
    for seats in by_player.values():
        seats.sort()
        for (_, ended), (dealt, _) in itertools.pairwise(seats):
            if ended is not None:
                waits.append((dealt - ended).total_seconds())
    if not waits:
        raise BenchFailed("nobody in the arena was seated a second time")
    return (
        f"tournament arena players={players} minutes={minutes} games={games}"
        f" reseat_p50_ms={percentile(waits, 50) * 1e3:.0f}"
        f" reseat_p95_ms={percentile(waits, 95) * 1e3:.0f}"
        f" reseat_max_ms={max(waits) * 1e3:.0f} mean_ms={statistics.fmean(waits) * 1e3:.0f}"
    )


__all__ = ["BenchFailed", "run"]
