"""Issue 16, operations: /metrics for Prometheus (behind a bearer token), counted across
processes through Redis; queue lengths and the services' state read at scrape time."""

import json
import logging
import random

import pytest
import redis
from django.conf import settings
from django.test import Client

from games.play import services
from games.play.models import Game
from games.play.tasks import sweep
from server import metrics
from tests.factories import PlayerFactory
from tests.metrics_scrape import TOKEN, scrape, value
from tests.waiting import wait_until
from tests.workers import WorkerProcess


@pytest.fixture(autouse=True)
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN
    metrics.reset_store()
    yield
    metrics.reset_store()


def test_metrics_need_the_bearer_token(client, settings, db):
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer guess").status_code == 403
    settings.METRICS_TOKEN = ""  # no token configured: there is no such page
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_a_redis_that_is_down_is_reported_not_hidden(settings, db):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nobody listens there
    metrics.reset_store()
    samples = scrape(Client())
    assert value(samples, "catclub_up", service="redis") == 0
    assert value(samples, "catclub_up", service="database") == 1


def a_person_and_a_computer() -> tuple[Game, object]:
    anna = PlayerFactory()
    game = services.create_lobby(-random.randrange(10**9), "felix", anna)
    services.add_computer(game, by=services.SYSTEM)
    services.add_computer(game, by=services.SYSTEM)
    services.start(game, anna)
    return Game.objects.get(pk=game.pk), anna


@pytest.mark.services
def test_counts_from_worker_processes_and_queue_lengths_reach_the_scrape(
    postgres, redis_url, transactional_db, tmp_path
):
    """The worker is another process (as another container would be): what it counts, the
    web's /metrics shows. A backlog of syncs shows as the Telegram queue's length."""
    from bot.sync import sync_game
    from config.celery import app
    from games import catalog

    app.conf.task_always_eager = False
    client = redis.Redis.from_url(redis_url)
    # Nothing an earlier test left behind (the queue as the broker names it).
    client.delete(settings.SITE_PREFIX + settings.TELEGRAM_QUEUE)
    worker = WorkerProcess(log_dir=tmp_path, queues=[settings.GAMES_QUEUE]).start()
    try:
        before = scrape()
        for game_id in range(25):
            sync_game.apply_async((10**9 + game_id,))
        game, anna = a_person_and_a_computer()
        rules = catalog.get("felix").rules
        seat = game.seats.get(player=anna).number
        state = rules.load(game.state)
        action = rules.legal_actions(state, seat)[0]
        services.submit_move(game.pk, anna, action, "metrics-1", game.version)
        sweep.delay()
        wait_until(
            lambda: (
                value(scrape(), "catclub_move_latency_seconds_count")
                > value(before, "catclub_move_latency_seconds_count")
            ),
            what="the worker's count in the scrape",
        )
        wait_until(
            lambda: value(
                scrape(), "catclub_task_last_run_timestamp_seconds", task="games.tasks.sweep"
            ),
            what="the sweep's trace",
        )
        after = scrape()
        assert value(after, "catclub_moves_applied_total") > value(
            before, "catclub_moves_applied_total"
        )
        assert value(after, "catclub_queue_length", queue="telegram") == 25
        assert value(after, "catclub_queue_length", queue="games") == 0
        assert value(after, "catclub_up", service="redis") == 1
    finally:
        worker.stop()
        client.delete(settings.SITE_PREFIX + settings.TELEGRAM_QUEUE)
        app.conf.task_always_eager = True


@pytest.mark.services
def test_json_logs_of_a_worker_carry_the_game(postgres, redis_url, transactional_db, tmp_path):
    """LOG_FORMAT=json: one object per line; the lines of a task about a game name it."""
    from config.celery import app
    from games.play.tasks import process_game

    app.conf.task_always_eager = False
    worker = WorkerProcess(log_dir=tmp_path, queues=[settings.GAMES_QUEUE], LOG_FORMAT="json")
    worker.start()
    try:
        game, _anna = a_person_and_a_computer()
        process_game.delay(game.pk)
        wait_until(lambda: f'"game_id": {game.pk}' in worker.log(), what="a line about the game")
    finally:
        worker.stop()
        app.conf.task_always_eager = True
    lines = [json.loads(line) for line in worker.log().splitlines() if line.startswith("{")]
    about = [line for line in lines if line.get("game_id") == game.pk]
    assert about and all({"time", "level", "logger", "message"} <= set(x) for x in about)
    assert "succeeded" in " ".join(line["message"] for line in about)


def test_the_json_formatter_writes_one_object_with_the_known_ids():
    from server import logcontext
    from server.logformat import JsonFormatter

    record = logging.LogRecord("catclub", logging.INFO, __file__, 1, "moved %s", ("x",), None)
    game_token = logcontext.game_id.set(42)
    try:
        logcontext.update_started(777)
        entry = json.loads(JsonFormatter().format(record))
    finally:
        logcontext.game_id.reset(game_token)
    assert entry["message"] == "moved x"
    assert entry["game_id"] == 42 and entry["update_id"] == 777
    assert entry["level"] == "INFO" and entry["logger"] == "catclub"


def test_without_redis_the_counts_of_every_process_reach_the_scrape(settings, db):
    """Issue 16: on the embedded default the bot and the site are separate processes; a
    tap the bot answered shows in the site's /metrics."""
    import subprocess
    import sys

    from tests.workers import ROOT

    settings.REDIS_URL = ""
    metrics.reset_store()
    metrics.inc("moves_applied_total", 2)
    code = (
        "import sys, django; from django.conf import settings;"
        "settings.configure(REDIS_URL='', METRICS_FILE=sys.argv[1], BACKGROUND_WRITES=True);"
        "from server import metrics; metrics.inc('moves_applied_total', 3);"
        "metrics.observe('tap_answer_seconds', 0.02)"
    )
    subprocess.run([sys.executable, "-c", code, str(settings.METRICS_FILE)], cwd=ROOT, check=True)
    samples = scrape(Client())
    assert value(samples, "catclub_moves_applied_total") == 5
    assert value(samples, "catclub_tap_answer_seconds_count") == 1


def test_counts_made_while_a_write_waits_ride_on_it(settings, tmp_path, monkeypatch):
    """Without Redis the counts live in a shared file, rewritten by the process's writer
    thread: the events counted within ``WRITE_SECONDS`` of a first one are written in one
    rewrite, none lost."""
    from server import background_writes

    settings.BACKGROUND_WRITES = True
    monkeypatch.setattr(metrics, "WRITE_SECONDS", 0.2)
    store = metrics.FileStore(tmp_path / "metrics.json")
    rewrites = []
    rewrite = store._file.open

    def counted():
        rewrites.append(1)
        return rewrite()

    monkeypatch.setattr(store._file, "open", counted)
    for _ in range(100):
        store.add([("moves_applied_total", "", 1)])
    store.set("task_last_run_timestamp_seconds", "sweep", 7)
    wait_until(lambda: rewrites, timeout=5, interval=0.01, what="the write")
    assert background_writes.flush(5)
    assert len(rewrites) == 1
    assert store.read("moves_applied_total") == {"": 100}
    assert store.read("task_last_run_timestamp_seconds") == {"sweep": 7}
    store.add([("moves_applied_total", "", 2)])
    wait_until(lambda: len(rewrites) == 2, timeout=5, interval=0.01, what="the next write")
    assert background_writes.flush(5)
    assert store.read("moves_applied_total") == {"": 102}
