"""The embedded default's in-process tasks run on background threads, one per queue, never
on the thread that queued them (issue 25): a bot handler or a request never waits for a
game step or a Telegram sync."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from config.celery import app
from games import catalog
from games.play import processing, tasks
from games.play.models import Game, GameStatus
from server import background

# Tasks of the tests' own, routed as the real ones are by their names.
release = threading.Event()
ran: list[tuple[str, object]] = []


@app.task(name="bot.tasks.test_slow_sync")
def slow_sync() -> None:
    release.wait(10)
    ran.append((threading.current_thread().name, "sync"))


@app.task(name="games.tasks.test_step")
def step(n: int) -> None:
    ran.append((threading.current_thread().name, n))


@app.task(name="games.tasks.test_close_connections")
def close_connections() -> None:
    from django.db import connections

    connections.close_all()


@pytest.fixture
def in_background(settings):
    settings.TASKS_IN_PROCESS = "background"
    release.clear()
    ran.clear()
    yield
    release.set()
    assert background.idle(10)


def test_a_queued_task_runs_on_its_queues_thread_not_the_callers(in_background):
    began = time.monotonic()
    slow_sync.delay()
    for n in range(5):
        step.delay(n)
    assert time.monotonic() - began < 0.5, "queueing does not wait for the tasks"
    # The game queue goes on while the Telegram queue waits: a slow sync delays no step.
    deadline = time.monotonic() + 5
    while len(ran) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [n for _thread, n in ran] == [0, 1, 2, 3, 4], "in the order they were queued"
    assert {thread for thread, _n in ran} == {f"tasks-{background.queue_of('games.tasks.x')}-0"}
    release.set()
    assert background.idle(5)
    thread, what = ran[-1]
    assert what == "sync" and thread.startswith(f"tasks-{background.queue_of('bot.tasks.x')}-")
    assert threading.current_thread().name not in {thread for thread, _n in ran}


def test_a_moves_step_is_not_run_by_the_submitter(in_background, transactional_db, monkeypatch):
    entered = threading.Event()
    threads = []

    def blocking_process(game_id, **kwargs):
        threads.append(threading.current_thread().name)
        entered.set()
        release.wait(10)

    monkeypatch.setattr(processing, "process", blocking_process)
    began = time.monotonic()
    tasks.enqueue(42)
    assert time.monotonic() - began < 0.5
    assert entered.wait(5)
    assert threads == [f"tasks-{background.queue_of('games.tasks.process_game')}-0"]


@app.task(name="games.tasks.test_blocking_step")
def blocking_step() -> None:
    release.wait(10)


def test_what_the_sweep_queues_runs_after_peoples_moves(in_background):
    """Issue 25: the turn timers of abandoned tables, queued by each sweep, held people's
    moves behind them. Queued ``LATER``, they run once nothing more urgent waits."""
    blocking_step.delay()  # the queue's thread is busy meanwhile
    for n in range(3):
        step.apply_async((f"timer {n}",), priority=tasks.LATER)
    step.delay("a person's move")
    release.set()
    assert background.idle(5)
    assert [n for _thread, n in ran] == ["a person's move", "timer 0", "timer 1", "timer 2"]


def test_the_sweep_queues_its_work_later(transactional_db, monkeypatch):
    queued = []

    def schedule(task, *args, priority=None):
        queued.append(priority)

    monkeypatch.setattr(tasks, "schedule", schedule)
    past = timezone.now() - timedelta(seconds=1)
    for _ in range(2):
        Game.objects.create(
            game_type=catalog.slugs()[0], status=GameStatus.RUNNING, started_at=past, deadline=past
        )
    assert tasks.sweep()["overdue"] == 2
    assert queued == [tasks.LATER, tasks.LATER]


def test_the_test_suite_runs_tasks_at_the_call_site(settings):
    assert settings.TASKS_IN_PROCESS == "eager"
    step.delay("here")
    assert ran[-1] == (threading.current_thread().name, "here")


class Pondering:
    """A searching computer that thinks until it is told to stop (the test's ``release``)."""

    needs_history = True

    def __init__(self):
        self.thinking = threading.Event()

    def choose(self, view, legal, rng, history=()):
        self.thinking.set()
        release.wait(10)
        return legal[0]


def test_a_persons_move_never_waits_behind_a_computers_search(
    in_background, transactional_db, monkeypatch
):
    """Searches have a queue (a thread here, workers with a broker) of their own: while a
    hard computer thinks at one table, a person's move at another is applied at once."""
    from games import catalog
    from games.play import services
    from games.play.models import Game, GameStatus, Move, MoveStatus
    from games.play.table import Table
    from tests.factories import PlayerFactory
    from tests.games.test_computer_steps import table_of_computers

    pondering = Pondering()
    thinking_table = table_of_computers("smoking_cat", "hard", monkeypatch)
    monkeypatch.setattr(catalog.GameKind, "strategy", lambda kind, name: pondering)
    anna, bob = PlayerFactory(), PlayerFactory()
    people = services.create_lobby(None, "bon_appetit", anna)
    services.join(people, bob, people.invite)
    services.start(people, by=anna)  # its first step runs on the game thread

    tasks.enqueue(thinking_table.pk)
    assert pondering.thinking.wait(5), "the hard computer is thinking"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        people.refresh_from_db()
        if people.legal:
            break
        time.sleep(0.02)
    seat = Table(people).to_act()[0]
    player = anna if people.seats.get(number=seat).player_id == anna.pk else bob
    began = time.monotonic()
    move = services.submit_move(people.pk, player, Table(people).legal(seat)[0], "k1")
    while time.monotonic() - began < 3:
        if Move.objects.get(pk=move.pk).status == MoveStatus.APPLIED:
            break
        time.sleep(0.01)
    waited = time.monotonic() - began
    still_thinking = not release.is_set()
    applied = Move.objects.get(pk=move.pk).status == MoveStatus.APPLIED
    # The computers' table ends here, so that its thread has nothing left to do after.
    Game.objects.filter(pk=thinking_table.pk).update(status=GameStatus.ABORTED)
    release.set()
    assert background.idle(10)
    background.submit(close_connections, (), {})  # each thread's, for the tests after this
    assert background.idle(5)
    assert still_thinking and applied, "applied while the computer thinks"
    assert waited < 1.0


def test_a_queue_of_long_cpu_work_runs_each_task_in_a_niced_child_process(
    in_background, settings, monkeypatch
):
    """A review (half a minute of CPU) in the site's own process held Python's interpreter
    lock from every request and step (issue 25): its queue runs each task in a child."""
    settings.TASKS_IN_CHILD_PROCESS = [background.queue_of("games.tasks.review_game")]
    started = []
    monkeypatch.setattr(background.subprocess, "run", lambda command, **kw: started.append(command))
    tasks.review_game.delay(7)
    step.delay(1)
    assert background.idle(5)
    assert ran == [(f"tasks-{background.queue_of('games.tasks.x')}-0", 1)], "others stay here"
    [command] = started
    assert command[-4:-2] == ["run_task", "games.tasks.review_game"]
    assert json.loads(command[-2]) == {"args": [7], "kwargs": {}}
    assert command[-1] == f"--nice={background.CHILD_NICENESS}"


def test_run_task_runs_a_registered_task_and_refuses_what_is_not_one():
    manage = [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_task"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    done = subprocess.run(
        [*manage, "games.tasks.ping", '{"args": ["hi"]}', "--nice=5"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    for wrong in (["games.tasks.nothing"], ["games.tasks.ping", "[1, 2"]):
        refused = subprocess.run(
            [*manage, *wrong], env=env, capture_output=True, text=True, timeout=60
        )
        assert refused.returncode != 0
        assert "CommandError" in refused.stderr or "Error" in refused.stderr
