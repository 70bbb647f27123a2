"""The searching computers' decisions made in a child process on the embedded default
(``games.play.search_process``, issue 25): the site's process keeps its interpreter lock
for requests and steps, and applies what the child decided."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.play import search_process, tasks
from games.play.child_process import BrokenProcessPool
from games.play.models import Game, GameStatus, Seat
from tests.games.test_computer_steps import table_of_computers

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def child(settings):
    settings.SEARCH_IN_CHILD_PROCESS = True
    yield
    search_process.child.stop()


def the_child_pids() -> set[int]:
    return search_process.child.pids()


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

    with pytest.raises(BrokenProcessPool):
        search_process.decide(game.pk, None)  # the task that asked fails (the sweep retries)
    # ... and the next one starts another child.
    assert search_process.decide(game.pk, None)
    assert the_child_pids() and dead not in the_child_pids()
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING


def test_without_the_setting_the_decision_is_made_here(transactional_db, settings, monkeypatch):
    settings.SEARCH_IN_CHILD_PROCESS = False
    game = table_of_computers("smoking_cat", "hard", monkeypatch)
    assert search_process.decide(game.pk, None)
    assert not search_process.child.pids()


def test_the_child_ends_when_the_site_is_gone():
    """Issue 25: the pool's child never sees its task pipe close (it holds both ends), so
    a site killed outright, or stopped as it started a child, left the child running."""
    site = (
        "import os, subprocess, sys, time;"
        f" code = {WATCHING!r} % os.getpid();"
        " child = subprocess.Popen([sys.executable, '-c', code]);"
        " print(child.pid, flush=True); time.sleep(60)"
    )
    started = subprocess.Popen(
        [sys.executable, "-c", site], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    orphan = int(started.stdout.readline())
    time.sleep(1)  # the child is watching
    assert alive(orphan)
    started.kill()
    started.wait(10)
    deadline = time.monotonic() + 10
    while alive(orphan) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(orphan)


def test_a_child_whose_site_ended_as_it_started_ends_too():
    """Issue 25: a site stopped while its child was starting had handed the child to init
    before the child began watching; the child took init for its parent and ran for ever
    (seen after abuse bench runs)."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    child = subprocess.Popen([sys.executable, "-c", WATCHING % gone.pid], cwd=ROOT)
    try:
        assert child.wait(10) == 0, "it saw its site gone and ended"
    finally:
        child.kill()


# A child watching its site (whose id fills the %d), then idle for a minute.
WATCHING = (
    "from games.play.child_process import follow_parent; import time;"
    " follow_parent(%d, every=0.1); time.sleep(60)"
)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs: a zombie, dead but not yet reaped, does not (where /proc
    tells them apart)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    if not Path("/proc/self").exists():
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
