"""The embedded default's in-process tasks run on background threads, one per queue, never
on the thread that queued them (issue 25): a bot handler or a request never waits for a
game step or a Telegram sync."""

from __future__ import annotations

import threading
import time

import pytest

from config import background
from config.celery import app
from games.play import processing, tasks

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


def test_the_test_suite_runs_tasks_at_the_call_site(settings):
    assert settings.TASKS_IN_PROCESS == "eager"
    step.delay("here")
    assert ran[-1] == (threading.current_thread().name, "here")
