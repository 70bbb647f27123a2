"""The limits of the public site, each set in config/settings.py from the environment with
a default that a person playing never meets (README: "Limits"):

- tables created per hour, per session (``TABLES_PER_HOUR_PER_SESSION``) and per client
  address (``TABLES_PER_HOUR_PER_ADDRESS``), and per minute per client address
  (``TABLES_PER_MINUTE_PER_ADDRESS``: an hour's tables are not all made at once, each of
  them a write and, abandoned, computers playing on);
- long polls and streams of the table open at once per client address, and long polls
  waiting at once in one process: the live push's (``web.live.slots``, which raises this
  module's ``LimitReached`` too);
- hard computers at a table whose creator is not signed in through Telegram
  (``HARD_COMPUTERS_UNSIGNED``): a hard computer searches for each decision, and a table
  abandoned by a browser visitor is played on by its computers.

A limit reached raises ``LimitReached``, whose message the view shows (429), and nothing
is done. The per-address counts live in Django's default cache: Redis in
production, shared by every web process; on the embedded default the process's memory,
which is right there because one process (uvicorn) serves the whole site. The per-session
count lives in the session, so that it follows a session whose key is rotated. Address
counts are per client network (``clients.client_network``), from the trusted proxy only.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import clients

HOUR = 3600
MINUTE = 60
# Creation times of this session's tables in the last hour.
SESSION_TABLES = "catclub_tables_created"


class LimitReached(Exception):
    """A limit of the site; ``message`` says which, in the visitor's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _take(key: str, limit: int, seconds: int) -> bool:
    """Count one in the window ``key`` (created with its expiry by the first count);
    False when it was full."""
    cache.add(key, 0, timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # it expired between the two calls
        cache.add(key, 1, timeout=seconds)
        count = 1
    return count <= limit


def _give_back(key: str) -> None:
    with contextlib.suppress(ValueError):
        cache.decr(key)


@contextlib.contextmanager
def table_creation(request) -> Iterator[None]:
    """Around the creation of a table: refused when this session or this client address
    made too many tables in the last hour, or the address in the last minute; counted
    when the block ends without error."""
    now = time.time()
    recent = [t for t in request.session.get(SESSION_TABLES, []) if now - HOUR < t <= now]
    per_session = settings.TABLES_PER_HOUR_PER_SESSION
    too_many = LimitReached(
        _("You have set up many tables in the last hour. Please play those, or wait a while.")
    )
    if per_session and len(recent) >= per_session:
        raise too_many
    network = clients.client_network(request)
    windows = (
        (HOUR, settings.TABLES_PER_HOUR_PER_ADDRESS, too_many),
        (
            MINUTE,
            settings.TABLES_PER_MINUTE_PER_ADDRESS,
            LimitReached(_("You have set up many tables in the last minute. Wait a moment.")),
        ),
    )
    taken: list[str] = []
    try:
        for seconds, limit, refusal in windows:
            if limit:
                key = f"limits:tables:{seconds}:{network}:{int(now // seconds)}"
                if not _take(key, limit, seconds + 60):
                    _give_back(key)
                    raise refusal
                taken.append(key)
        yield
    except BaseException:
        for key in taken:  # nothing was made: it does not count
            _give_back(key)
        raise
    request.session[SESSION_TABLES] = [*recent, now]


def hard_computers_allowed(player) -> int | None:
    """How many hard computers a table of ``player`` may have (None: no limit)."""
    if player is not None and player.in_telegram:
        return None
    return settings.HARD_COMPUTERS_UNSIGNED


def check_hard_computers(player, hard: int) -> None:
    """Refuse a table of ``player`` with ``hard`` hard computers when that is too many."""
    allowed = hard_computers_allowed(player)
    if allowed is not None and hard > allowed:
        raise LimitReached(
            ngettext(
                "Without signing in through Telegram a table may have %(count)d hard computer.",
                "Without signing in through Telegram a table may have %(count)d hard computers.",
                allowed,
            )
            % {"count": allowed}
        )
