"""One notification per change of a table, fanned out to the pages of this process that
follow it (issue 24).

On ``game_updated`` (sent after commit, in whichever process made the change) ``publish``
sends one small message: the game's id, on Redis pub/sub (channel ``<prefix><id>``) when
``REDIS_URL`` is set, so that every web process hears of a change made by a worker, the
bot or another web process; on the embedded default, where one process serves the whole
site, straight to this process's hub, with no server besides the site's. With Redis, the
process that made the change first reads its new token and renders its table for the
languages its spectators read (``_prepare``), so that the hubs find both made.

Each web process holds ONE subscription, not one per page: a pattern subscription
(``redis.asyncio``, on a thread and event loop of its own, so that it outlives any request
and any server loop; under WSGI every async request has a loop of its own). A message
reaches the hub, which reads the game's change token (``changes.token``: from the cache,
the database only when no process has read it since the change), takes the table for each
of its spectators' languages (``renders``: made already, else rendered once), and hands
the token to every connection of this process waiting on that game, one call per event
loop. A connection keeps only the latest token it was given
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
import json
import logging
import queue
import threading
import time
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection

from server import background_writes

from . import changes, renders
from . import clock as web_clock

log = logging.getLogger(__name__)

# How often the hub reads the tokens of the games it follows, whatever was announced:
# often on the embedded default (the bot's changes are announced to nobody here), rarely
# with Redis (every process announces its changes; this only covers a lost message).
RECHECK_SECONDS_LOCAL = 1.0
RECHECK_SECONDS_REDIS = 5.0
# The games woken side by side (their reads and renders wait on the cache and the database).
# Two: with four, their renders took the interpreter lock from the loop sending to 5000
# pages (bench watchers, N=5000 p95 0.8-0.9 s; one thread 0.64-0.77 s, two 0.52-0.68 s).
WAKING_THREADS = 2
# After the subscription fails, before it is tried again.
RECONNECT_SECONDS = 1.0


def channel_prefix() -> str:
    # Per site (issue 46): pub/sub ignores Redis's database number, so two sites on one
    # Redis heard each other's tables under a name of their own alone.
    return f"{settings.SITE_PREFIX}table:"


def publish(sender=None, game_id: int | None = None, **kwargs) -> None:
    """``game_updated``'s receiver: one message for the change of ``game_id``. Sent by the
    process's writer thread (``background_writes``), off the step's path and after the
    marker ``changes.mark`` queued before it: a hub woken by the message reads the new
    token, not the one cached under the old marker."""
    if game_id is not None:
        background_writes.submit(_send, game_id)


def _send(game_id: int) -> None:
    if settings.REDIS_URL:
        message = _prepare(game_id)
        try:
            _redis().publish(f"{channel_prefix()}{game_id}", message)
        except Exception:  # the pages see it at the hubs' next recheck
            log.exception("publishing the change of game %s", game_id)
        return
    hub.announce(game_id)


def _prepare(game_id: int) -> str:
    """The message of a change: the game's id; when spectators follow it, with its new
    change token and its table rendered in each language they read (``watched``), so that
    the hubs woken by it read nothing and render nothing, and wake the pages at once from
    the subscription's thread (``Hub._told``). With twenty tables changing at once, each
    hub reading the token, taking the table from Redis (or waiting for another to render
    it) and handing each game to its pool kept the pages of the last tables waiting
    0.3-0.5 s (``bench watchers``). The render is shared in Redis as well (``renders``):
    the long polls of the web's processes take it from there."""
    try:
        languages = watched(game_id)
        token = changes.token(game_id) if languages else None
        if token is None:
            return str(game_id)
        tables = {
            language: renders.payload(game_id, token, None, language) for language in languages
        }
    except Exception:  # gone meanwhile, or the database: each hub reads and renders it
        log.exception("preparing the table of game %s for its spectators", game_id)
        return str(game_id)
    finally:
        if not connection.in_atomic_block:  # the writer thread holds no connection idle
            connection.close()
    made = {table["token"] for table in tables.values()}
    if len(made) != 1:  # it changed between two renders: the hubs read it again
        return str(game_id)
    return json.dumps({"id": game_id, "token": made.pop(), "tables": tables})


# How long a hub's note that a game has spectators in a language outlives the hub's last
# renewal of it (every recheck).
WATCHED_SECONDS = 3 * RECHECK_SECONDS_REDIS


def _watched_key(game_id: int, language: str) -> str:
    return f"table:watched:{game_id}:{language}"


def watched(game_id: int) -> list[str]:
    """The languages in which some process's spectators follow ``game_id`` (as their hubs
    noted, ``Hub._note_watched``)."""
    keys = {_watched_key(game_id, code): code for code, _name in settings.LANGUAGES}
    return [keys[key] for key in cache.get_many(list(keys))]


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
    where it is written (``app``: ``LIVE_SEND_SECONDS``)."""

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
            due = clock.after(timeout, lambda: None if waiter.done() else waiter.set_result(None))
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
        # Games announced; None: only a note to make (``_note_watched``).
        self._work: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._listener: threading.Thread | None = None
        self._pool = ThreadPoolExecutor(WAKING_THREADS, thread_name_prefix="table-hub")
        self._waking: set[int] = set()  # games a thread of the pool is waking now
        # Games to wake again once their wake ends (announced meanwhile, or rechecked).
        self._again: dict[int, bool] = {}
        # The highest version of each game a message carried (``_told``).
        self._told_versions: dict[int, int] = {}
        # With Redis, the languages of each followed game's spectators, and those not yet
        # noted in the cache (``watched``).
        self._languages: dict[int, set[str]] = {}
        self._unnoted: set[tuple[int, str]] = set()
        self.subscribed = threading.Event()  # the Redis subscription stands

    # Connections (in their loops) ------------------------------------------------------
    def join(self, game_id: int, language: str | None = None) -> Subscriber:
        """A connection starts waiting on ``game_id``: it is given the game's new change
        tokens (``Subscriber.next``). Subscribe before reading the token, so that no
        change falls between. ``language``: a spectator's (None: a seat's connection)."""
        sub = Subscriber(game_id, asyncio.get_running_loop(), language)
        with self._lock:
            self._games.setdefault(game_id, set()).add(sub)
            if language and settings.REDIS_URL:
                languages = self._languages.setdefault(game_id, set())
                if language not in languages:
                    languages.add(language)
                    self._unnoted.add((game_id, language))
                    self._work.put(None)  # noted at once, before the table's next change
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
                    self._languages.pop(sub.game_id, None)
                    self._told_versions.pop(sub.game_id, None)

    def connections(self, game_id: int | None = None) -> int:
        """The connections waiting here: on ``game_id``, or on any game."""
        with self._lock:
            if game_id is not None:
                return len(self._games.get(game_id, ()))
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
                    more = self._work.get_nowait()
                except queue.Empty:
                    break
                if more is not None:
                    ids.add(more)
            try:
                rechecked: dict[int, str] = {}
                renew = time.monotonic() >= recheck_at
                if renew:
                    recheck_at = time.monotonic() + recheck
                    rechecked = self._recheck(ids)
                self._note_watched(renew)
                if ids or rechecked:
                    self._wake(ids, rechecked)
            except Exception:  # the cache or the database is down: the next round
                log.exception("waking the tables' connections")
                time.sleep(RECONNECT_SECONDS)

    def _note_watched(self, renew: bool) -> None:
        """With Redis: tells the processes that publish changes (``_prepare``) which games
        have spectators here, and in which languages: those new since the last note, or
        all of them (``renew``, each recheck, before the notes expire)."""
        with self._lock:
            if renew:
                noted = {(g, code) for g, codes in self._languages.items() for code in codes}
                self._unnoted.clear()
            else:
                noted, self._unnoted = self._unnoted, set()
        if noted:
            keys = {_watched_key(game_id, code): 1 for game_id, code in noted}
            cache.set_many(keys, WATCHED_SECONDS)

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

    def _wake(self, announced: set[int], rechecked: dict[int, str]) -> list[futures.Future]:
        """Each game announced (its token to read) or rechecked (its token given) handed to
        the hub's pool (``WAKING_THREADS``): its spectators' table rendered, its pages
        woken. The most followed first. A game being woken now is woken once more when
        that ends, never twice at once, so that no page is given an older change after a
        newer; the other games do not wait for it (a round that waited for its slowest
        game kept the changes announced meanwhile waiting 0.2-0.5 s, ``bench watchers``)."""
        ids = announced | set(rechecked)
        started = []
        with self._lock:
            for game_id in sorted(ids, key=lambda g: -len(self._games.get(g, ()))):
                if game_id in self._waking:
                    # Its token is read again then: the one given may be older by then.
                    self._again[game_id] = self._again.get(game_id, False) or game_id in announced
                    continue
                self._waking.add(game_id)
                wake = (game_id, game_id in announced, rechecked.get(game_id))
                started.append(self._pool.submit(self._wake_game, *wake))
        return started

    def _wake_game(self, game_id: int, announced: bool, token: str | None) -> None:
        """``_wake_one`` in the hub's pool, then again if the game changed meanwhile."""
        try:
            self._wake_one(game_id, announced, token)
        except Exception:  # the cache or the database is down: its next change, or recheck
            log.exception("waking the connections of game %s", game_id)
        finally:
            self._woken(game_id)

    def _woken(self, game_id: int) -> None:
        """A game's wake ended: it is woken again if it changed meanwhile."""
        with self._lock:
            again = self._again.pop(game_id, None)
            if again is None:
                self._waking.discard(game_id)
                return
        self._pool.submit(self._wake_game, game_id, again, None)

    def _wake_one(self, game_id: int, announced: bool, token: str | None = None) -> None:
        """``token``: the game's, read already (a recheck); else it is read here. The
        seats' pages first (each renders its own table): a person's own table does not
        wait for the spectators' render."""
        close_old_connections()
        try:
            if token is None:
                token = changes.token(game_id)
            subs = self._changed(game_id, token, announced)
            if not subs or token is None:
                return
            self._offer([sub for sub in subs if sub.language is None], token)
            spectators = [sub for sub in subs if sub.language is not None]
            _render_for_spectators(game_id, token, spectators)
        finally:
            connection.close()  # the hub holds no connection between its reads
        self._offer(spectators, token)

    @staticmethod
    def _offer(subs: list[Subscriber], token: str | None) -> None:
        if not subs or token is None:
            return
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
                        if message["type"] == "pmessage":
                            self._heard(message["data"])
            except Exception:
                log.exception("the tables' Redis subscription failed; subscribing again")
            finally:
                self.subscribed.clear()
                await client.aclose()
            await asyncio.sleep(RECONNECT_SECONDS)

    def _heard(self, data: bytes) -> None:
        """A message of ``_prepare``'s: a game's id, or the change with its tables."""
        try:
            if not data.startswith(b"{"):
                self.announce(int(data))
                return
            told = json.loads(data)
            game_id, token, tables = int(told["id"]), str(told["token"]), dict(told["tables"])
            version = max(int(table["version"]) for table in tables.values())
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("a table's message that does not parse: %.80r", data)
            return
        self._told(game_id, token, version, tables)

    def _told(self, game_id: int, token: str, version: int, tables: dict[str, dict]) -> None:
        """A change whose message carries its token and its spectators' tables: its pages
        woken from here, with no read, no render and no hop to the pool, unless the game
        is being woken now, one of its spectators reads a language the message lacks, or
        the message is older than one already told (two processes changed the game at
        once): then as any announced change."""
        with self._lock:
            if game_id not in self._games:
                return
            older = version < self._told_versions.get(game_id, version)
            if not older:
                self._told_versions[game_id] = version
        if older:  # its tables are not kept: a page would be given them as the latest
            self._work.put(game_id)
            return
        renders.keep(game_id, token, tables)
        with self._lock:
            subs = self._games.get(game_id)
            if not subs:
                return
            languages = {sub.language for sub in subs if sub.language}
            inline = game_id not in self._waking and languages <= set(tables)
            if inline:
                self._waking.add(game_id)
        if not inline:
            self._work.put(game_id)
            return
        try:
            self._offer(self._changed(game_id, token, announced=True), token)
        finally:
            self._woken(game_id)

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
