"""One notification per change of a table, fanned out to the pages of this process that
follow it (issue 24).

On ``game_updated`` (sent after commit, in whichever process made the change) ``publish``
sends one small message: the game's id, on Redis pub/sub (channel ``<prefix><id>``) when
``REDIS_URL`` is set, so that every web process hears of a change made by a worker, the
bot or another web process; on the embedded default, where one process serves the whole
site, straight to this process's hub, with no server besides the site's.

Each web process holds ONE subscription, not one per page: a pattern subscription
(``redis.asyncio``, on a thread and event loop of its own, so that it outlives any request
and any server loop; under WSGI every async request has a loop of its own). A message
reaches the hub, which reads the game's change token once (``changes.token``: from the
cache, the database about once per change for all processes, or once each for those that
read it at the same moment), has the table rendered once per spectators' language
(``renders``), and hands the token to every connection of this process waiting on that
game, one call per event loop. A connection keeps only the latest token it was given
(``Subscriber``): the page wants the table as it is, so nothing piles up for a slow
reader.

Pub/sub keeps nothing for a process that was not listening: after the subscription
(re)connects, and every ``RECHECK_SECONDS`` anyway, the hub reads the token of every game
it follows and wakes the connections of those that changed. That also shows a change no
message announced: on the embedded default the bot is a process of its own, whose changes
reach the site only through the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections, connection

from games import background_writes

from . import changes, renders
from . import clock as web_clock

log = logging.getLogger(__name__)

# How often the hub reads the tokens of the games it follows, whatever was announced:
# often on the embedded default (the bot's changes are announced to nobody here), rarely
# with Redis (every process announces its changes; this only covers a lost message).
RECHECK_SECONDS_LOCAL = 1.0
RECHECK_SECONDS_REDIS = 5.0
# The games of one round woken side by side (their reads and renders wait on the database).
# Two: with four, their renders took the interpreter lock from the loop sending to 5000
# pages (bench watchers, N=5000 p95 0.8-0.9 s; one thread 0.64-0.77 s, two 0.52-0.68 s).
WAKING_THREADS = 2
# After the subscription fails, before it is tried again.
RECONNECT_SECONDS = 1.0


def channel_prefix() -> str:
    # Per queue name: a test run (and its workers) shares a Redis with others.
    return f"{settings.GAMES_QUEUE}:table:"


def publish(sender=None, game_id: int | None = None, **kwargs) -> None:
    """``game_updated``'s receiver: one message for the change of ``game_id``. Sent by the
    process's writer thread (``background_writes``), off the step's path and after the
    marker ``changes.mark`` queued before it: a hub woken by the message reads the new
    token, not the one cached under the old marker."""
    if game_id is not None:
        background_writes.submit(_send, game_id)


def _send(game_id: int) -> None:
    if settings.REDIS_URL:
        try:
            _redis().publish(f"{channel_prefix()}{game_id}", str(game_id))
        except Exception:  # the pages see it at the hubs' next recheck
            log.exception("publishing the change of game %s", game_id)
        return
    hub.announce(game_id)


_client = None
_client_lock = threading.Lock()


def _redis():
    """The publishing side's connection (synchronous: the signal is sent from plain
    threads and Celery tasks), one pool per process."""
    global _client
    with _client_lock:
        if _client is None:
            import redis  # only with REDIS_URL: the embedded default needs no client

            _client = redis.Redis.from_url(settings.REDIS_URL)
        return _client


# -- this process's connections ---------------------------------------------------------------
@dataclass(eq=False)
class Subscriber:
    """One connection waiting on one game, in its own loop: the latest change token it was
    given and not yet taken. Only the latest counts (a page wants the table as it is), so
    a slow reader has nothing piling up here; what it was sent and did not read is bounded
    where it is written (``live_app``: ``LIVE_SEND_SECONDS``)."""

    game_id: int
    loop: asyncio.AbstractEventLoop
    # A spectator's language: the hub has the table rendered for it before waking it.
    language: str | None = None
    token: str | None = None
    _waiter: asyncio.Future | None = None

    def offer(self, token: str) -> None:  # in the subscriber's loop
        self.token = token
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def next(self, timeout: float) -> str | None:
        """The latest token given since the last call, waiting about ``timeout`` seconds
        for one (``clock``: up to a tick more): None if none came. A future and a clock
        entry, no task and no timer: thousands of pages wake for one change."""
        if self.token is None and timeout > 0:
            self._waiter = waiter = self.loop.create_future()
            clock = web_clock.of(self.loop)
            due = clock.after(timeout, lambda: waiter.done() or waiter.set_result(None))
            try:
                await waiter
            finally:
                clock.cancel(due)
                self._waiter = None
        token, self.token = self.token, None
        return token


class Hub:
    """The process's subscription and its connections, by game."""

    def __init__(self):
        self._lock = threading.Lock()
        self._games: dict[int, set[Subscriber]] = {}
        self._tokens: dict[int, str | None] = {}  # as the hub last read them
        self._work: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._listener: threading.Thread | None = None
        self._pool = ThreadPoolExecutor(WAKING_THREADS, thread_name_prefix="table-hub")
        self.subscribed = threading.Event()  # the Redis subscription stands

    # Connections (in their loops) ------------------------------------------------------
    def join(self, game_id: int, language: str | None = None) -> Subscriber:
        """A connection starts waiting on ``game_id``: it is given the game's new change
        tokens (``Subscriber.next``). Subscribe before reading the token, so that no
        change falls between. ``language``: a spectator's (None: a seat's connection)."""
        sub = Subscriber(game_id, asyncio.get_running_loop(), language)
        with self._lock:
            self._games.setdefault(game_id, set()).add(sub)
            self._start()
        return sub

    def leave(self, sub: Subscriber) -> None:
        with self._lock:
            subs = self._games.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._games[sub.game_id]
                    self._tokens.pop(sub.game_id, None)

    def connections(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._games.values())

    def full(self) -> bool:
        """This process waits on ``LIVE_STREAMS_PER_PROCESS`` connections (streams and
        long polls) already: another is answered at once instead (0: no limit)."""
        limit = settings.LIVE_STREAMS_PER_PROCESS
        return bool(limit) and self.connections() >= limit

    # Changes (from any thread) -----------------------------------------------------------
    def announce(self, game_id: int) -> None:
        """``game_id`` changed: its connections hear of it from the hub's thread."""
        with self._lock:
            if game_id not in self._games:
                return
        self._work.put(game_id)

    def _start(self) -> None:  # with _lock held
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="table-hub", daemon=True)
            self._thread.start()
        if settings.REDIS_URL and (self._listener is None or not self._listener.is_alive()):
            self._listener = threading.Thread(
                target=self._listen, name="table-subscription", daemon=True
            )
            self._listener.start()

    def _run(self) -> None:
        """The hub's thread: reads the token of each game announced (several
        announcements of one game at once, one read) and of every followed game each
        recheck, and wakes the connections of those that changed."""
        recheck = RECHECK_SECONDS_REDIS if settings.REDIS_URL else RECHECK_SECONDS_LOCAL
        recheck_at = time.monotonic() + recheck
        while True:
            try:
                first = self._work.get(timeout=max(0.0, recheck_at - time.monotonic()))
            except queue.Empty:
                first = None
            ids: set[int] = set() if first is None else {first}
            while True:
                try:
                    ids.add(self._work.get_nowait())
                except queue.Empty:
                    break
            try:
                rechecked: dict[int, str] = {}
                if time.monotonic() >= recheck_at:
                    recheck_at = time.monotonic() + recheck
                    rechecked = self._recheck(ids)
                if ids or rechecked:
                    self._wake(ids, rechecked)
            except Exception:  # the cache or the database is down: the next round
                log.exception("waking the tables' connections")
                time.sleep(RECONNECT_SECONDS)

    def _recheck(self, announced: set[int]) -> dict[int, str]:
        """The followed games not announced whose token moved since the hub last read
        it, with their new token: all read in one query (``changes.tokens``)."""
        with self._lock:
            followed = [game_id for game_id in self._games if game_id not in announced]
        if not followed:
            return {}
        close_old_connections()
        try:
            read = changes.tokens(followed)
        finally:
            connection.close()  # the hub holds no connection between its reads
        with self._lock:
            return {g: t for g, t in read.items() if t != self._tokens.get(g)}

    def _wake(self, announced: set[int], rechecked: dict[int, str]) -> None:
        """Each game announced (its token read) or rechecked (its token given) on a
        thread of the hub's pool (``WAKING_THREADS``): its spectators' table rendered, its
        pages woken. Twenty tables that changed at once, one after the other, kept the
        last waiting 400 ms for the others' renders (``bench watchers``). The most
        followed first; the next round only once this one is done, so that no page is
        given an older change after a newer."""
        ids = announced | set(rechecked)
        with self._lock:
            order = sorted(ids, key=lambda game_id: -len(self._games.get(game_id, ())))
        rounds = [
            self._pool.submit(self._wake_one, g, g in announced, rechecked.get(g)) for g in order
        ]
        futures.wait(rounds)
        for failed in (f.exception() for f in rounds):
            if failed is not None:
                raise failed  # the hub's loop logs it and tries again

    def _wake_one(self, game_id: int, announced: bool, token: str | None = None) -> None:
        """``token``: the game's, read already (a recheck); else it is read here."""
        close_old_connections()
        try:
            if token is None:
                token = changes.token(game_id)
            subs = self._changed(game_id, token, announced)
            if not subs or token is None:
                return
            _render_for_spectators(game_id, token, subs)
        finally:
            connection.close()  # the hub holds no connection between its reads
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscriber]] = {}
        for sub in subs:
            by_loop.setdefault(sub.loop, []).append(sub)
        for loop, given in by_loop.items():
            # One wake of each loop for all its connections, not one per connection.
            with contextlib.suppress(RuntimeError):  # a closed loop: they are gone
                loop.call_soon_threadsafe(_deliver, given, token)

    def _changed(self, game_id: int, token: str | None, announced: bool) -> list[Subscriber]:
        """The connections that are to hear of ``token``: the game's, when it changed
        since the hub last read it, or was announced."""
        with self._lock:
            subs = self._games.get(game_id)
            if not subs or token is None:
                return []
            known = self._tokens.get(game_id)
            self._tokens[game_id] = token
            if token == known and not announced:
                return []
            return list(subs)

    # The Redis subscription ------------------------------------------------------------
    def _listen(self) -> None:
        asyncio.run(self._subscription())

    async def _subscription(self) -> None:
        import redis.asyncio as aioredis  # only with REDIS_URL

        pattern = f"{channel_prefix()}*"
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.psubscribe(pattern)
                    self.subscribed.set()
                    # Whatever changed while nobody here listened shows now.
                    self.recheck_all()
                    async for message in pubsub.listen():
                        if message["type"] != "pmessage":
                            continue
                        try:
                            self.announce(int(message["data"]))
                        except ValueError:
                            continue
            except Exception:
                log.exception("the tables' Redis subscription failed; subscribing again")
            finally:
                self.subscribed.clear()
                await client.aclose()
            await asyncio.sleep(RECONNECT_SECONDS)

    def recheck_all(self) -> None:
        """Every followed game is read again at once (as if each were announced)."""
        with self._lock:
            ids = list(self._games)
        for game_id in ids:
            self._work.put(game_id)


def _deliver(given: list[Subscriber], token: str) -> None:
    for sub in given:
        sub.offer(token)


def _render_for_spectators(game_id: int, token: str, subs: list[Subscriber]) -> None:
    """The table as spectators see it, made once per language before they wake, so that
    each finds it in memory (``renders.peek``): a hot table's thousands of pages then cost
    a send each, and no wait on a render in progress. In the hub's thread, as its reads."""
    for language in {sub.language for sub in subs if sub.language}:
        try:
            renders.payload(game_id, token, None, language)
        except Exception:  # gone meanwhile, or the database: each page asks for itself
            log.exception("rendering game %s for its spectators", game_id)


hub = Hub()
