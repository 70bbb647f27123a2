"""The embedded default's SQLite (server/sqlite, issue 25): writers take turns in the order
they came (an unrelated write waits behind computer play no longer than its turn), and a
closed connection is kept open for the next thread."""

import threading
import time
from contextlib import nullcontext

import pytest
from django.db import connections, transaction
from django.db.utils import OperationalError, load_backend
from django.test.utils import CaptureQueriesContext

ALIAS = "turns"


@pytest.fixture
def database(tmp_path, django_db_blocker):
    """A file of its own, with a table of rows in the order they were written."""
    path = tmp_path / "turns.sqlite3"
    with django_db_blocker.unblock():
        with connect("django.db.backends.sqlite3", path) as conn, conn.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("CREATE TABLE written (id INTEGER PRIMARY KEY, who TEXT)")
        yield path


class connect:
    """This thread's connection to ``path`` with ``engine``, as ``ALIAS``, as the settings
    make the embedded default's (IMMEDIATE transactions)."""

    def __init__(self, engine: str, path, timeout: float = 20):
        config = {"ENGINE": engine, "NAME": str(path)}
        config["OPTIONS"] = {"timeout": timeout, "transaction_mode": "IMMEDIATE"}
        self.config = connections.configure_settings({"default": config})["default"]

    def __enter__(self):
        conn = load_backend(self.config["ENGINE"]).DatabaseWrapper(self.config, ALIAS)
        connections[ALIAS] = conn
        return conn

    def __exit__(self, *exc):
        connections[ALIAS].close()
        del connections[ALIAS]


def write(who: str) -> None:
    with connections[ALIAS].cursor() as cursor:
        cursor.execute("INSERT INTO written (who) VALUES (%s)", [who])


def written(path) -> list[str]:
    with connect("django.db.backends.sqlite3", path) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT who FROM written ORDER BY id")
        return [row[0] for row in cursor.fetchall()]


def in_thread(target) -> threading.Thread:
    errors: list[BaseException] = []

    def run():
        try:
            target()
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.errors = errors  # type: ignore[attr-defined]
    thread.start()
    return thread


def race(engine: str, path, django_db_blocker, alone: bool = False) -> list[str]:
    """A holds the write lock; B comes and waits (``alone``: B's write is a statement
    outside any transaction); A commits and at once writes again (D). Returns the order
    the writes were made in."""
    holding = threading.Event()

    def first():
        with django_db_blocker.unblock(), connect(engine, path):
            with transaction.atomic(using=ALIAS):
                write("A")
                holding.set()
                time.sleep(0.4)  # B's wait is long now: SQLite's retries are 100 ms apart
            with transaction.atomic(using=ALIAS):
                write("D")

    def second():
        holding.wait(5)
        time.sleep(0.05)
        atomic = nullcontext() if alone else transaction.atomic(using=ALIAS)
        with django_db_blocker.unblock(), connect(engine, path), atomic:
            write("B")

    threads = [in_thread(first), in_thread(second)]
    for thread in threads:
        thread.join(10)
        assert not thread.errors
    return written(path)


def test_a_write_that_waited_goes_before_one_that_came_later_issue_25(database, django_db_blocker):
    """Issue 25 (5: an unrelated write never waits long behind computer play): the writer
    that waited is served first, not passed by whoever asks the moment the lock is free.
    (Django's own SQLite backend gives A, D, B here: SQLite's busy handler sleeps between
    its tries, and D takes the lock while B sleeps.)"""
    assert race("server.sqlite", database, django_db_blocker) == ["A", "B", "D"]


def test_a_write_outside_a_transaction_waits_its_turn_too_issue_25(database, django_db_blocker):
    """A move's INSERT is a statement of its own, outside any transaction: it queues as a
    transaction does, instead of sleeping in SQLite's busy handler."""
    assert race("server.sqlite", database, django_db_blocker, alone=True) == ["A", "B", "D"]


def test_rows_a_write_returns_are_handed_out_after_its_turn_ended(database, django_db_blocker):
    def other_writer() -> None:
        with django_db_blocker.unblock(), connect("server.sqlite", database, timeout=0.2):
            write("z")

    unblocked = django_db_blocker.unblock()
    with unblocked, connect("server.sqlite", database) as conn, conn.cursor() as cursor:
        cursor.execute("INSERT INTO written (who) VALUES (%s), (%s) RETURNING who", ["x", "y"])
        first = cursor.fetchone()
        # The statement is over and its turn ended: another writer writes at once.
        other = in_thread(other_writer)
        other.join(5)
        assert not other.errors
        rest = cursor.fetchall()
    assert (first, rest) == (("x",), [("y",)])
    assert written(database) == ["x", "y", "z"]


def rolled_back() -> None:
    with transaction.atomic(using=ALIAS):
        write("rolled back")
        raise ZeroDivisionError


def test_a_failed_transaction_gives_its_turn_back_issue_25(database, django_db_blocker):
    with django_db_blocker.unblock(), connect("server.sqlite", database):
        with pytest.raises(ZeroDivisionError):
            rolled_back()
        with transaction.atomic(using=ALIAS):
            write("next")
    assert written(database) == ["next"]


def test_a_wait_for_a_turn_that_runs_out_is_refused_and_changes_nothing_issue_25(
    database, django_db_blocker
):
    """As SQLite's own busy timeout: "database is locked", and the queue goes on."""
    holding, done = threading.Event(), threading.Event()

    def hold():
        unblocked = django_db_blocker.unblock()
        with unblocked, connect("server.sqlite", database), transaction.atomic(using=ALIAS):
            write("holder")
            holding.set()
            done.wait(5)

    holder = in_thread(hold)
    assert holding.wait(5)
    with django_db_blocker.unblock(), connect("server.sqlite", database, timeout=0.2):
        with pytest.raises(OperationalError, match="locked"), transaction.atomic(using=ALIAS):
            write("too late")
        done.set()
        holder.join(5)
        with transaction.atomic(using=ALIAS):
            write("after")
    assert written(database) == ["holder", "after"]


def test_a_closed_connection_is_kept_for_the_next_thread_not_one_inside_a_transaction(
    database, django_db_blocker
):
    """Issue 25: no connect and close per request (a third of a request's time under load)."""
    seen = []

    def use(inside_transaction: bool) -> None:
        with django_db_blocker.unblock(), connect("server.sqlite", database) as conn:
            conn.ensure_connection()
            seen.append(conn.connection)
            if inside_transaction:
                with transaction.atomic(using=ALIAS):
                    write("inside")
                    conn.close()  # a connection closed inside its transaction
            else:
                write("outside")

    for inside in (False, False, True, False):
        thread = in_thread(lambda inside=inside: use(inside))
        thread.join(5)
        assert not thread.errors
    assert seen[1] is seen[0]  # the first thread's connection, kept
    assert seen[2] is seen[0]
    assert seen[3] is not seen[0]  # closed inside its transaction: really closed
    assert written(database) == ["outside", "outside", "outside"]


def test_the_query_log_quotes_parameters_without_a_query(database, django_db_blocker):
    """With DEBUG on, each query is logged with its parameters: quoted in Python, not by
    one more query (Django's own backend runs ``SELECT QUOTE(?)`` for each)."""
    ran: list[str] = []
    with django_db_blocker.unblock(), connect("server.sqlite", database) as conn:
        conn.ensure_connection()
        conn.connection.set_trace_callback(ran.append)
        with CaptureQueriesContext(conn) as queries:
            write("it's")
        conn.connection.set_trace_callback(None)
    assert queries.captured_queries[-1]["sql"] == "INSERT INTO written (who) VALUES ('it''s')"
    assert ran == ["INSERT INTO written (who) VALUES ('it''s')"]
