"""Nothing is lost, nothing is applied twice: proven against real PostgreSQL, Redis and
Celery worker processes (concurrent submissions, duplicate deliveries, a worker killed
mid-transaction, Redis stopped and started, full games to the end)."""

from __future__ import annotations

import contextlib
import random
import subprocess
import threading
import time
from urllib.parse import urlparse

import pytest
from django.db import close_old_connections, connection, connections

from games import catalog
from games.computers import act
from games.play import errors, services, tasks
from games.play.models import Game, GameStatus, Move
from games.play.replay import matches_stored_state
from tests.factories import PlayerFactory
from tests.waiting import wait_until
from tests.workers import WorkerProcess

pytestmark = [pytest.mark.services]


@pytest.fixture
def live(postgres, redis_url, transactional_db, tmp_path, settings):
    """Tasks go through Redis to worker processes; returns a worker factory."""
    from config.celery import app

    settings.PENDING_MOVE_GRACE = settings.PENDING_MOVE_GRACE.__class__(seconds=0.5)
    app.conf.task_always_eager = False
    workers: list[WorkerProcess] = []

    def start(app_module: str = "config", **env) -> WorkerProcess:
        worker = WorkerProcess(app_module, log_dir=tmp_path, **env).start()
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()
    app.conf.task_always_eager = True


def seated_game(game_type: str, humans: int, computers: int = 0) -> tuple[Game, list]:
    players = [PlayerFactory() for _ in range(humans)]
    game = services.create_lobby(-random.randrange(10**9), game_type, players[0])
    for p in players[1:]:
        services.join(game, p)
    for _ in range(computers):
        services.add_computer(game, by=services.SYSTEM)
    services.start(game, players[0])
    return Game.objects.get(pk=game.pk), players


def no_pending(game: Game) -> bool:
    return not Move.objects.filter(game=game, status="pending").exists()


def assert_log_is_consistent(game: Game) -> None:
    """Versions strictly increase (seq 1..version, no gap, no repeat) and the applied
    moves replay to exactly the stored state."""
    game.refresh_from_db()
    seqs = list(
        Move.objects.filter(game=game, status="applied")
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    assert seqs == list(range(1, game.version + 1))
    assert matches_stored_state(game)
    assert not Move.objects.filter(game=game, status="rejected", reason="").exists()


def test_fifty_concurrent_submissions_apply_exactly_the_legal_ones(live):
    live()
    game, players = seated_game("felix", humans=5)
    rules = catalog.get("felix").rules
    seat_of = {p.pk: game.seats.get(player=p).number for p in players}
    hands = {s: rules.view(rules.load(game.state), s)["hand"] for s in seat_of.values()}
    barrier = threading.Barrier(50)
    refused, recorded, keys = [], [], []

    def submit(i: int) -> None:
        player = players[i % 5]
        seat = seat_of[player.pk]
        # Each seat tries several of its cards (only its first placement is legal), plus
        # garbage, plus redeliveries of an earlier key.
        action = "place:nonsense" if i % 9 == 8 else f"place:{hands[seat][i % len(hands[seat])]}"
        key = f"dup-{i % 5}" if i % 10 == 0 else f"u{i}"
        barrier.wait()
        try:
            recorded.append(services.submit_move(game.pk, player, action, key, 0).pk)
        except errors.GameError as exc:
            refused.append((i, exc.code))
        finally:
            connections.close_all()
        keys.append(key)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    close_old_connections()

    assert len(recorded) + len(refused) == 50, "every submission was answered"
    wait_until(lambda: no_pending(game), what="all moves processed")
    moves = Move.objects.filter(game=game)
    assert moves.count() == len(set(recorded)), "each distinct key recorded once"
    applied = moves.filter(status="applied")
    # Exactly one placement per seat is legal; all were applied, nothing else was.
    assert sorted(applied.values_list("seat", flat=True)) == [0, 1, 2, 3, 4]
    for move in moves.filter(status="rejected"):
        assert move.reason
    assert_log_is_consistent(game)


def test_duplicate_delivery_is_applied_once(live):
    live()
    game, (anna, _bob, _cleo) = seated_game("felix", humans=3)
    seat = game.seats.get(player=anna).number
    view = catalog.get("felix").rules.view(catalog.get("felix").rules.load(game.state), seat)
    action = f"place:{view['hand'][0]}"
    first = services.submit_move(game.pk, anna, action, "update-77", 0)
    second = services.submit_move(game.pk, anna, action, "update-77", 0)
    assert first.pk == second.pk
    wait_until(lambda: no_pending(game), what="the move applied")
    third = services.submit_move(game.pk, anna, action, "update-77", 0)
    assert third.pk == first.pk
    assert Move.objects.filter(game=game, key="update-77").count() == 1
    assert Move.objects.get(pk=first.pk).status == "applied"


def game_row_locked(game: Game) -> bool:
    """True while another transaction holds the game's row lock."""
    with connection.cursor() as cursor:
        try:
            cursor.execute("BEGIN")
            cursor.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE NOWAIT", [game.pk])
            return False
        except Exception:
            return True
        finally:
            cursor.execute("ROLLBACK")


def test_worker_killed_mid_process_loses_and_repeats_nothing(live):
    slow = live("tests.slow_worker", SLOW_SAVE_SECONDS="60")
    game, players = seated_game("felix", humans=3)
    rules = catalog.get("felix").rules
    for i, player in enumerate(players):
        seat = game.seats.get(player=player).number
        card = rules.view(rules.load(game.state), seat)["hand"][0]
        services.submit_move(game.pk, player, f"place:{card}", f"k{i}", 0)
    wait_until(lambda: game_row_locked(game), what="the worker inside process_game")
    slow.kill()
    # The killed transaction rolled back: every move is still pending, none applied.
    assert Move.objects.filter(game=game, status="pending").count() == 3
    assert Game.objects.get(pk=game.pk).version == 0

    live()  # a healthy worker comes back; the sweep finds the stranded moves
    time.sleep(0.6)
    tasks.sweep()
    wait_until(lambda: no_pending(game), what="moves applied after the crash")
    assert Move.objects.filter(game=game, status="applied").count() == 3
    assert_log_is_consistent(game)


def redis_up(port: int) -> bool:
    ping = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True)
    return ping.returncode == 0


def start_redis(port: int) -> None:
    """The same command CI uses to start this machine's Redis."""
    flags = ("--daemonize", "yes", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
    subprocess.run(["redis-server", "--port", str(port), *flags], check=True)
    wait_until(lambda: redis_up(port), what="Redis up")


def test_redis_stopped_while_moves_are_submitted_then_started(live, redis_url):
    worker = live()
    game, players = seated_game("felix", humans=3)
    rules = catalog.get("felix").rules
    port = urlparse(redis_url).port or 6379
    # The worker has processed the start (it set the first deadline) before Redis goes.
    wait_until(lambda: Game.objects.get(pk=game.pk).deadline, what="the start processed")
    subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True)
    try:
        wait_until(lambda: not redis_up(port), what="Redis down")
        started = time.monotonic()
        for i, player in enumerate(players):
            seat = game.seats.get(player=player).number
            card = rules.view(rules.load(game.state), seat)["hand"][0]
            services.submit_move(game.pk, player, f"place:{card}", f"r{i}", 0)
        # Submissions still answer promptly; the moves wait in the database.
        assert time.monotonic() - started < 15
        assert Move.objects.filter(game=game, status="pending").count() == 3
    finally:
        start_redis(port)
    # kombu may take the worker down when its broker vanishes with messages unacked; in
    # production its supervisor (compose: restart unless-stopped) starts it again.
    alive = wait_until(
        lambda: "down" if worker.proc.poll() is not None else worker.answers_ping(),
        what="the worker to reconnect or exit",
    )
    if alive == "down":
        live()
    time.sleep(0.6)
    # Redis came back empty; the sweep (beat's job) re-queues from the database.
    wait_until(lambda: tasks.sweep() is not None and no_pending(game), timeout=60, interval=1)
    assert Move.objects.filter(game=game, status="applied").count() == 3
    assert_log_is_consistent(game)


def test_overdue_deadline_is_acted_on_by_the_worker(live):
    live()
    game, (_anna,) = seated_game("felix", humans=1, computers=2)
    # The worker sets the first deadline once the computers have placed their cards.
    deadline = wait_until(lambda: Game.objects.get(pk=game.pk).deadline, what="a deadline")
    Game.objects.filter(pk=game.pk).update(deadline=deadline.replace(year=2000))
    tasks.sweep()
    wait_until(
        lambda: Move.objects.filter(game=game, source="timeout").exists(), what="timeout move"
    )
    # A second sweep for the same, now stale, version does nothing more.
    before = Game.objects.get(pk=game.pk).version
    tasks.process_game.delay(game.pk, 0)
    time.sleep(1)
    assert Move.objects.filter(game=game, source="timeout").count() == 1
    assert Game.objects.get(pk=game.pk).version >= before
    assert_log_is_consistent(game)


@pytest.mark.parametrize("game_type", ["felix", "smoking_cat", "bon_appetit", "cats_and_dogs"])
def test_full_game_through_the_real_pipeline(live, game_type):
    live()
    rules = catalog.get(game_type).rules
    game, (anna,) = seated_game(game_type, humans=1, computers=3)
    me = game.seats.get(player=anna).number
    player, rng = catalog.get(game_type).strategy("heuristic"), random.Random(7)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        state = rules.load(game.state)
        if me in rules.to_act(state) and no_pending(game):
            action = act(rules, state, me, player, rng)
            # Computers may move on in between: a stale refusal just means look again.
            with contextlib.suppress(errors.StaleButton, errors.GameOver):
                services.submit_move(game.pk, anna, action, f"v{game.version}", game.version)
        else:
            time.sleep(0.02)
    assert game.status == GameStatus.FINISHED, f"{game_type} did not finish"
    assert game.result["ranks"] and len(game.result["scores"]) == game.seats.count()
    assert_log_is_consistent(game)
