"""Has a table changed? Asked for every page's long poll while it waits, answered from the
cache, so that a poll waiting on a table that does not change costs no query.

Every ``game_updated`` (sent after commit for each step played and each change of a lobby,
in whichever process made it) moves the game's *marker* in the default cache (``mark``),
Redis in production, shared by the site, the workers and the bot. Beside it the cache
keeps the game's change token as last read from the database, with the marker it was read
under (``token``): while the marker has not moved, that token is still the table's. The
database is read again when the marker moved, and at least every ``RECHECK_SECONDS``
anyway: a change whose process does not share this cache (the bot's process on the
embedded default, whose cache is its own memory) or that no signal announced shows then.

One read serves every poll of the table: the token read under a marker is shared by all.
The marker is read before the database, so a token is never older than its marker: a
change that commits after the read moves the marker past it.

The polls of one process do not each look ten times a second: hundreds of threads waking
that often starved the process's other requests of Python's interpreter lock (and of
Django's server, which starts a thread for each connection). One thread per process
(``_watch``) reads the markers of every game its polls wait on, in one cache request every
``WATCH_SECONDS``, rechecks their tokens every ``RECHECK_SECONDS``, and wakes the polls of
a game that changed; a change made in this process wakes them at once (``mark``). A
waiting poll sleeps until then, or until its deadline.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Iterator

from django.core.cache import cache
from django.db import connection
from django.db.models import Count

from games import background_writes
from games.play.models import Game

from .tables import change_token

# How stale a token read from the database may be before it is read again, whatever the
# marker says.
RECHECK_SECONDS = 1.0
# How often a process's watcher reads the markers of the games its polls wait on.
WATCH_SECONDS = 0.1
# A marker outlives any page that follows its table for a while; one expired reads as
# moved (the database is read again), never as unchanged.
MARKER_SECONDS = 24 * 3600


def _marker_key(game_id: int) -> str:
    return f"table:marker:{game_id}"


def _token_key(game_id: int) -> str:
    return f"table:token:{game_id}"


def mark(sender=None, game_id: int | None = None, **kwargs) -> None:
    """``game_updated``'s receiver: the game changed, its marker moves (in the background:
    the step that changed it does not wait on the cache), then this process's polls of it
    wake."""
    if game_id is not None:
        background_writes.submit(_move_marker, game_id)


def _move_marker(game_id: int) -> None:
    marker = uuid.uuid4().hex
    cache.set(_marker_key(game_id), marker, MARKER_SECONDS)
    with _lock:
        watch = _watches.get(game_id)
        if watch is not None:
            watch.moved(marker)


def token(game_id: int) -> str | None:
    """The game's change token (``tables.change_token``), None when there is no such game:
    from the cache while the marker stands and the last read is fresh, else from the
    database (one small query)."""
    keys = (_marker_key(game_id), _token_key(game_id))
    found = cache.get_many(keys)
    marker = found.get(keys[0])
    known = found.get(keys[1])
    if known is not None:
        known_marker, known_token, read_at = known
        if known_marker == marker and 0 <= time.time() - read_at < RECHECK_SECONDS:
            return known_token
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(n_seats=Count("seats"))
        .only("version", "status", "deadline", "updated_at")
        .first()
    )
    if row is None:
        return None
    current = change_token(row, row.n_seats)
    cache.set(keys[1], (marker, current, time.time()), RECHECK_SECONDS * 10)
    return current


# -- this process's waiting polls ------------------------------------------------------------
_lock = threading.Lock()


class Watch:
    """The polls of this process waiting on one game. They sleep until it changes: the
    watcher wakes them, they do not wake by themselves."""

    def __init__(self, marker):
        self.polls = 0
        self.marker = marker  # as this process last read it
        self.token: str | None = None  # as this process last read it
        self.generation = 0  # how many times the game changed since
        self.changed = threading.Condition(_lock)

    def moved(self, marker) -> None:  # with _lock held
        self.marker = marker
        self.generation += 1
        self.changed.notify_all()

    def looked(self, token: str) -> None:
        """A poll read the game's token: the watcher's recheck starts from it."""
        with _lock:
            if self.token is None:
                self.token = token

    def pause(self, generation: int, seconds: float) -> None:
        """Until the game changes past ``generation`` (at once if it did already), or
        ``seconds`` passed."""
        with _lock:
            self.changed.wait_for(lambda: self.generation != generation, seconds)


_watches: dict[int, Watch] = {}
_something_to_watch = threading.Condition(_lock)
_watcher: threading.Thread | None = None


@contextlib.contextmanager
def watching(game_id: int) -> Iterator[Watch]:
    """While a poll waits on ``game_id``: its ``Watch``. Read ``generation``, look at the
    token (``token``, then ``looked``), then ``pause(generation, ...)``: a change after
    the look wakes it."""
    global _watcher
    marker = cache.get(_marker_key(game_id))  # before the poll's first look
    with _lock:
        watch = _watches.get(game_id)
        if watch is None:
            watch = _watches[game_id] = Watch(marker)
        watch.polls += 1
        if _watcher is None or not _watcher.is_alive():
            _watcher = threading.Thread(target=_watch, name="table-changes", daemon=True)
            _watcher.start()
        _something_to_watch.notify()
    try:
        yield watch
    finally:
        with _lock:
            watch.polls -= 1
            if not watch.polls:
                del _watches[game_id]


def _watch() -> None:
    """The process's watcher: every ``WATCH_SECONDS`` it reads the markers of the games
    waited on (one cache request), every ``RECHECK_SECONDS`` their tokens (``token``: the
    database only for those not read since), and wakes the polls of a game that changed.
    Idle while no poll waits; holds no database connection between its looks."""
    recheck_at = 0.0
    while True:
        with _lock:
            _something_to_watch.wait_for(lambda: _watches)
            ids = list(_watches)
        tokens: dict[int, str | None] = {}
        try:
            found = cache.get_many([_marker_key(i) for i in ids])
            if time.monotonic() >= recheck_at:
                recheck_at = time.monotonic() + RECHECK_SECONDS
                try:
                    tokens = {i: token(i) for i in ids}
                finally:
                    connection.close()
        except Exception:  # the cache or the database is down: the polls wait it out
            logging.getLogger(__name__).exception("watching the tables for changes")
            time.sleep(RECHECK_SECONDS)
            continue
        with _lock:
            for game_id in ids:
                watch = _watches.get(game_id)
                if watch is None:
                    continue
                marker = found.get(_marker_key(game_id))
                if marker != watch.marker:
                    watch.moved(marker)
                if game_id in tokens and tokens[game_id] != watch.token:
                    if watch.token is not None:  # a change no marker announced
                        watch.moved(watch.marker)
                    watch.token = tokens[game_id]
        time.sleep(WATCH_SECONDS)
