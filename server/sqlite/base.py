"""SQLite as the embedded default uses it: its writers take turns in the order they came,
and its connections are kept open for the next thread.

SQLite lets one transaction write at a time (the settings begin each one IMMEDIATE, taking
the write lock first). The others wait in SQLite's busy handler, which sleeps and tries
again, up to 100 ms between tries, and so serves nobody in order: with the lock busy half
the time, a write that has waited a while keeps sleeping through the moments it is free
while newer ones take it. Under the abuse bench (issue 25) writes waited up to 2.7 s for a
lock held 27 ms at the median.

The embedded default writes from one process, so its writers queue here first: a
transaction begins when the one before it in this process has ended, first come first
served, and is handed its turn the moment it is free (``Turns``). A write outside any
transaction (a move's single INSERT) takes its turn too, for its one statement
(``Cursor``). Writers in other processes (a management command run beside the site) still
meet SQLite's busy handler.

Each request runs in a thread of its own and a waiting page gives its connection back
after each look (``web.live.waits``), so Django opened and closed a SQLite connection several
times per request: its pragmas, its functions and the close took a third of the request
threads' time under load (py-spy, abuse bench), each call also waiting for the
interpreter lock again. Closed connections are kept instead (``Kept``), idle, at most
``KEPT``, and the next connection asked for in this process is one of them.

With DEBUG on (as ``dev.py run`` has it) Django logs each query with its parameters, which
its SQLite backend quotes by running one more query; here Python quotes them.
"""

from __future__ import annotations

import collections
import contextlib
import os
import sqlite3
import threading

from django.db.backends.sqlite3 import base, operations


class Turns:
    """A lock handed to its waiters in the order they asked: nobody passes anyone."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held = False
        self._waiting: collections.deque[threading.Lock] = collections.deque()

    def take(self, timeout: float) -> bool:
        """Wait for the turn (at most ``timeout`` s); True once it is ours."""
        with self._guard:
            if not self._held:
                self._held = True
                return True
            mine = threading.Lock()
            mine.acquire()
            self._waiting.append(mine)
        if mine.acquire(timeout=timeout):
            return True
        with self._guard:
            if mine in self._waiting:
                self._waiting.remove(mine)
                return False
        return True  # handed over as the wait ran out: it is ours all the same

    def give(self) -> None:
        """End our turn: the longest waiter has it now, still held for them."""
        with self._guard:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._held = False


# Idle connections kept per database: as many as the site's threads use at once, or so.
KEPT = 16


class Kept:
    """Open connections to one database, idle, for the next thread that connects."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._idle: list = []

    def take(self):
        with self._guard:
            return self._idle.pop() if self._idle else None

    def keep(self, conn) -> bool:
        """Keep ``conn`` if there is room: True if kept."""
        with self._guard:
            if len(self._idle) < KEPT:
                self._idle.append(conn)
                return True
        return False


WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def writes(query: str) -> bool:
    """Whether a statement may write (a false yes only costs a turn)."""
    head = query.lstrip()[:7].upper()
    return head.startswith(WRITES) or (
        head.startswith("WITH") and any(word in query.upper() for word in WRITES)
    )


def take_turn(turns: Turns, timeout: float) -> None:
    """Wait for the turn, as SQLite waits for its lock: "database is locked" at the end."""
    if not turns.take(timeout):
        raise sqlite3.OperationalError("database is locked (no turn in time)")


class Cursor(base.SQLiteCursorWrapper):
    """A cursor whose writes outside a transaction wait for their turn (``Turns``). Rows
    such a write returns (``RETURNING``) are read before the turn ends, since SQLite
    holds its lock until the statement is read to its end, and are handed out after."""

    turns: Turns | None = None
    timeout = 5.0
    _rows: list | None = None

    def _turns_for(self, query: str) -> Turns | None:
        """The turns a statement waits for: none when it reads, when it is part of a
        transaction (which has its turn), or when the cursor has none."""
        if self.connection.in_transaction or not writes(query):
            return None
        return self.turns

    def execute(self, query, params=None):
        self._rows = None
        turns = self._turns_for(query)
        if turns is None:
            return super().execute(query, params)
        with self._turn(turns):
            super().execute(query, params)
            if self.description is not None:
                self._rows = super().fetchall()
        return self

    def executemany(self, query, param_list):
        self._rows = None
        turns = self._turns_for(query)
        if turns is None:
            return super().executemany(query, param_list)
        with self._turn(turns):
            return super().executemany(query, param_list)

    @contextlib.contextmanager
    def _turn(self, turns: Turns):
        take_turn(turns, self.timeout)
        try:
            yield
        finally:
            turns.give()

    def fetchone(self):
        if self._rows is None:
            return super().fetchone()
        return self._rows.pop(0) if self._rows else None

    def fetchmany(self, size=None):
        if self._rows is None:
            return super().fetchmany(self.arraysize if size is None else size)
        size = self.arraysize if size is None else size
        taken, self._rows = self._rows[:size], self._rows[size:]
        return taken

    def fetchall(self):
        if self._rows is None:
            return super().fetchall()
        taken, self._rows = self._rows, []
        return taken


_kept: dict[tuple, Kept] = {}
_turns: dict[tuple, Turns] = {}
_registries_guard = threading.Lock()


def _one_per(registry: dict, key: tuple, make):
    """The registry's entry for ``key`` (made once): no lock once it exists, since this is
    asked for on every cursor, connection and close."""
    found = registry.get(key)
    if found is None:
        with _registries_guard:
            found = registry.setdefault(key, make())
    return found


def turns_of(name: str) -> Turns:
    """The turns of one database file in this process."""
    return _one_per(_turns, (os.getpid(), str(name)), Turns)


def quoted(value) -> str:
    """A query parameter quoted for the query log, much as SQLite's ``QUOTE()`` does."""
    if value is None:
        return "NULL"
    if isinstance(value, bool | int | float):
        return str(int(value)) if isinstance(value, bool) else repr(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f"X'{bytes(value).hex().upper()}'"
    return "'" + str(value).replace("'", "''") + "'"


class DatabaseOperations(operations.DatabaseOperations):
    def _quote_params_for_last_executed_query(self, params):
        return tuple(quoted(value) for value in params)


def kept_for(settings_dict: dict) -> Kept:
    """The kept connections of a database and its options, in this process."""
    key = (os.getpid(), str(settings_dict["NAME"]), repr(sorted(settings_dict["OPTIONS"].items())))
    return _one_per(_kept, key, Kept)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's SQLite backend whose transactions take this process's turn first, and
    whose connections are kept open when closed."""

    ops_class = DatabaseOperations
    _has_turn = False

    def get_new_connection(self, conn_params):
        kept = kept_for(self.settings_dict).take()
        return kept if kept is not None else super().get_new_connection(conn_params)

    @property
    def _turns(self) -> tuple[Turns, float]:
        """This database's turns, and how long to wait for one (SQLite's busy timeout)."""
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        return turns_of(self.settings_dict["NAME"]), timeout

    def create_cursor(self, name=None):
        cursor = self.connection.cursor(factory=Cursor)
        cursor.turns, cursor.timeout = self._turns
        return cursor

    def _start_transaction_under_autocommit(self):
        turns, timeout = self._turns
        with self.wrap_database_errors:  # Django's OperationalError, as SQLite's own
            take_turn(turns, timeout)
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            turns.give()
            raise
        self._has_turn = True

    def _end_turn(self) -> None:
        if self._has_turn:
            self._has_turn = False
            self._turns[0].give()

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._end_turn()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._end_turn()

    def _close(self):
        conn = self.connection
        try:
            idle = conn is not None and not (self.in_atomic_block or conn.in_transaction)
            if idle and kept_for(self.settings_dict).keep(conn):
                return None
            # Closed inside its transaction (a broken connection): closing it rolls back.
            return super()._close()
        finally:
            self._end_turn()
