"""The searching computers' decisions made in a child process on the embedded default
(``games.play.search_process``, issue 25): the site's process keeps its interpreter lock
for requests and steps, and applies what the child decided."""

from __future__ import annotations

import os
import signal

import pytest

from games.play import search_process, tasks
from games.play.models import Game, GameStatus, Seat
from tests.games.test_computer_steps import table_of_computers


@pytest.fixture
def child(settings):
    settings.SEARCH_IN_CHILD_PROCESS = True
    yield
    pool = search_process._pool
    search_process._pool = None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def the_child_pids() -> set[int]:
    pool = search_process._pool
    return set(pool._processes) if pool is not None else set()


def test_a_hard_computer_decides_in_a_child_process_and_the_site_applies_it_issue_25(
    transactional_db, child, monkeypatch
):
    game = table_of_computers("smoking_cat", "hard", monkeypatch)
    plan = search_process.decide(game.pk, None)

    children = the_child_pids()
    assert children and os.getpid() not in children, "a process of its own made it"
    assert plan, "the child read the game from the site's database and decided"
    (version, number), action = next(iter(plan.items()))
    assert version == game.version and isinstance(action, str)
    assert Seat.objects.get(game=game, number=number).strategy == "hard"

    before = Game.objects.get(pk=game.pk).version
    monkeypatch.setattr(tasks, "run_later", lambda task, *args: None)  # one decision only
    tasks.decide_game(game.pk)  # decided there, applied here by a locked step
    assert Game.objects.get(pk=game.pk).version > before
    assert the_child_pids() == children, "the same child, kept from one decision to the next"


def test_a_child_that_died_is_replaced_and_the_next_decision_is_made(
    transactional_db, child, monkeypatch
):
    game = table_of_computers("smoking_cat", "hard", monkeypatch)
    assert search_process.decide(game.pk, None)
    (dead,) = the_child_pids()
    os.kill(dead, signal.SIGKILL)

    with pytest.raises(search_process.BrokenProcessPool):
        search_process.decide(game.pk, None)  # the task that asked fails (the sweep retries)
    # ... and the next one starts another child.
    assert search_process.decide(game.pk, None)
    assert the_child_pids() and dead not in the_child_pids()
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING


def test_without_the_setting_the_decision_is_made_here(transactional_db, settings, monkeypatch):
    settings.SEARCH_IN_CHILD_PROCESS = False
    game = table_of_computers("smoking_cat", "hard", monkeypatch)
    assert search_process.decide(game.pk, None)
    assert search_process._pool is None
