"""``python -m bench abuse [--seconds S --people N --hostile N --backend B]``: the site
opened to the public, tried as hostile visitors would while people play (issue 25).

For each backend (``embedded``: the embedded default, ``manage.py start`` on a fresh SQLite
file with tasks in-process; ``services``: production's shape, the ``web`` and ``live``
front-ends as compose runs them with DEBUG off (the bench routes the tables' streams and
polls to ``live``, as the proxy does), Celery workers (games, syncs, computers) and beat,
a Redis server of its own and a PostgreSQL database of its own on the server of
``DATABASE_URL``; ``both``, the default, runs one after the other), on loopback. The
servers believe the bench as their proxy (``TRUSTED_PROXIES``): each simulated client has
an address of its own, as a public site's visitors do. Their long polls last at most
``WAIT_SECONDS`` and their turn timers ``TURN_SECONDS``, so that an overlong poll and an
abandoned table show within a short run.

- ``--people`` simulated people (``people``) play in the browser over HTTP: each opens a
  table against computers at the normal level and plays it as the page does, following it
  by its stream (``/events/``; by long polls when the server refuses the stream) and posting moves;
  some open a lobby for a friend, who joins through its invite link;
- ``--hostile`` clients, each with its own session and client address, at the same time
  (one module per kind: ``floods``, ``forged``, ``takeover``; ``hostile`` holds them):
  ``hard_tables`` open tables full of hard computers and abandon them; ``long_polls`` hold
  as many long polls as they may; ``malformed`` send non-finite waits, odd digits, huge
  numbers, a non-ASCII Mini App signature and names with control characters or a
  computer's name; ``takeover`` try to start, join (the bare table address, forged and
  guessed invite links), add computers to and move in other people's tables, and in lobbies
  of Telegram groups.

Hostile successes are judged by their effects, read from the database afterwards: a lobby
started before its creator asked, a seat or a computer at someone else's table, a move
nobody at that table sent, a name stored with control characters or a computer's name;
and, seen by the client, a long poll with an odd ``wait`` that outlasted the server's
maximum or a move at someone else's table answered "ok". Prints, per backend::

    abuse backend=<b> normal_p50_ms=.. normal_p95_ms=.. clicks=.. server_errors=..
        refused=.. hostile_successes=.. lock_wait_max_ms=.. lock_wait_p95_ms=..

then detail lines (5xx by path, refusals and successes by kind, what the hostile tables
cost, requests not answered at all). ``click → screen`` is from a person's move post to
their stream (or long poll) bringing the changed table. Lock waits: on SQLite the latency of a tiny
unrelated write every 100 ms on the database file; on PostgreSQL the longest wait of a
query for a lock (``pg_stat_activity``), sampled every 100 ms. Exits non-zero on any 5xx,
any hostile success, or when the people could not play at all.
"""

from bench.abuse.common import HOSTILE_KINDS
from bench.abuse.run import Command

__all__ = ["HOSTILE_KINDS", "SUMMARY", "Command"]

SUMMARY = (
    "the site under hostile clients beside honest players:"
    " click → screen, 5xx, refusals, hostile successes, lock waits"
)
