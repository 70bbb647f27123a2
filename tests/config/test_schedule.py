"""Issue 45: Celery beat's schedule runs on every backend. On the embedded default (no
broker, no beat process) ``server.background.Beat`` runs every entry of
``CELERY_BEAT_SCHEDULE`` at its own period; a stand-in that ran the sweep alone never
started a tournament at its time."""

from __future__ import annotations

import threading
import time

import pytest
from django.conf import settings

from server import background

# The scheduled tasks' own work is replaced by a note; the schedule still checks its
# thread's database connection before each, as a worker does.
pytestmark = pytest.mark.django_db

ENTRIES = sorted(settings.CELERY_BEAT_SCHEDULE)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def ran(monkeypatch) -> list[str]:
    """Every scheduled task records its run instead of doing its work."""
    calls: list[str] = []
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        task = background._task(entry["task"])
        monkeypatch.setattr(task, "run", lambda *a, _name=name, **k: calls.append(_name))
    return calls


@pytest.mark.parametrize("name", ENTRIES)
def test_issue_45_every_schedule_entry_runs_on_the_embedded_default(name, ran):
    period = background._period(settings.CELERY_BEAT_SCHEDULE[name])
    clock = Clock()
    beat = background.Beat(clock=clock)
    clock.now += period - 0.01
    beat.tick()
    assert name not in ran, "not before its period"
    clock.now += 0.01
    beat.tick()
    assert name in ran, f"{name} ({settings.CELERY_BEAT_SCHEDULE[name]['task']}) runs"
    # And again a period later, once: an entry runs at its own period, not the others'.
    ran.clear()
    clock.now += period
    beat.tick()
    assert ran.count(name) == 1


def test_issue_45_a_failing_entry_does_not_stop_the_others(monkeypatch, ran):
    def broken(*a, **k):
        raise RuntimeError("down")

    first = ENTRIES[0]
    monkeypatch.setattr(
        background._task(settings.CELERY_BEAT_SCHEDULE[first]["task"]), "run", broken
    )
    clock = Clock()
    beat = background.Beat(clock=clock)
    clock.now += max(background._period(e) for e in settings.CELERY_BEAT_SCHEDULE.values())
    assert sorted(beat.tick()) == ENTRIES
    assert sorted(ran) == ENTRIES[1:]


def test_issue_45_a_long_pause_runs_an_entry_once_not_once_per_missed_period(ran):
    clock = Clock()
    beat = background.Beat({"sweep": settings.CELERY_BEAT_SCHEDULE["sweep"]}, clock=clock)
    clock.now += 100 * background._period(settings.CELERY_BEAT_SCHEDULE["sweep"])
    beat.tick()
    beat.tick()
    assert ran == ["sweep"]


def test_issue_45_the_schedules_thread_stops_when_told(ran):
    stop = threading.Event()
    schedule = {"sweep": {**settings.CELERY_BEAT_SCHEDULE["sweep"], "schedule": 0.05}}
    thread = threading.Thread(target=background.Beat(schedule).run, args=(stop,), daemon=True)
    thread.start()
    end = time.monotonic() + 5
    while len(ran) < 2 and time.monotonic() < end:
        time.sleep(0.02)
    stop.set()
    thread.join(2)
    assert not thread.is_alive() and len(ran) >= 2
