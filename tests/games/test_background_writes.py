"""The writes nothing waits on (change markers, metrics) leave the work that makes them:
one thread per process makes them in order, a failure is logged and the rest go on, and a
queue that Redis cannot keep up with drops writes instead of growing."""

import logging
import threading

import pytest

from server import background_writes


@pytest.fixture
def in_background(settings, monkeypatch):
    settings.BACKGROUND_WRITES = True
    # A queue and a thread of the test's own, whatever earlier tests started.
    monkeypatch.setattr(background_writes, "_pid", None)
    monkeypatch.setattr(background_writes, "_queue", None)
    yield
    assert background_writes.flush(5)


def test_writes_are_made_by_another_thread_in_their_order(in_background):
    made = []
    caller = threading.get_ident()
    for n in range(50):
        background_writes.submit(lambda n=n: made.append((n, threading.get_ident())))
    assert background_writes.flush(5)
    assert [n for n, _ in made] == list(range(50))
    assert {thread for _, thread in made} != {caller}


def test_a_failing_write_is_logged_and_the_next_ones_are_made(in_background, caplog):
    made = []

    def broken():
        raise ConnectionError("redis is down")

    with caplog.at_level(logging.WARNING, logger="server.background_writes"):
        background_writes.submit(broken)
        background_writes.submit(made.append, "after")
        assert background_writes.flush(5)
    assert made == ["after"]
    assert "background write broken failed" in caplog.text


def test_a_full_queue_drops_writes_instead_of_growing(in_background, monkeypatch, caplog):
    monkeypatch.setattr(background_writes, "MAX_WAITING", 3)
    release, hanging = threading.Event(), threading.Event()
    made = []

    def hang():  # Redis hangs: the thread waits on this
        hanging.set()
        release.wait(5)

    background_writes.submit(hang)
    assert hanging.wait(5)
    with caplog.at_level(logging.WARNING, logger="server.background_writes"):
        for n in range(10):
            background_writes.submit(made.append, n)
    release.set()
    assert background_writes.flush(5)
    assert made == [0, 1, 2]  # the first three waited; the other seven were dropped
    assert "the queue is full" in caplog.text


def test_off_every_write_is_made_at_the_call_site(settings):
    settings.BACKGROUND_WRITES = False
    made = []
    background_writes.submit(lambda: made.append(threading.get_ident()))
    assert made == [threading.get_ident()]


def test_a_table_marker_moves_once_the_write_is_made(in_background, db):
    """The web's long polls read a game's marker: it moves after the step, off its path."""
    from django.core.cache import cache

    from web.live import changes

    key = changes._marker_key(987654)
    cache.delete(key)
    changes.mark(game_id=987654)
    assert background_writes.flush(5)
    first = cache.get(key)
    assert first
    changes.mark(game_id=987654)
    assert background_writes.flush(5)
    assert cache.get(key) not in (None, first)


def test_a_change_is_announced_after_its_marker_moved(in_background, db, monkeypatch):
    """Issue 24: the hub woken by a change's message reads the table's token under the new
    marker, so the message is sent after the marker is written, both off the step's path."""
    from django.core.cache import cache

    from games.play.signals import game_updated
    from web.live import changes, notify

    key = changes._marker_key(987655)
    cache.delete(key)
    seen = []
    monkeypatch.setattr(notify, "_send", lambda game_id: seen.append(cache.get(key)))
    game_updated.send(sender=None, game_id=987655)
    assert background_writes.flush(5)
    assert seen and seen[0] is not None
