"""Has a table changed? Asked by this process's hub (``notify``) for the games its pages
wait on, answered from the cache, so that a table that does not change costs no query.

Every ``game_updated`` (sent after commit for each step played and each change of a lobby,
in whichever process made it) moves the game's *marker* in the default cache (``mark``),
Redis in production, shared by the site, the workers and the bot. Beside it the cache
keeps the game's change token as last read from the database, with the marker it was read
under (``token``): while the marker has not moved, that token is still the table's. The
database is read again when the marker moved, and at least every ``RECHECK_SECONDS``
anyway: a change whose process does not share this cache (the bot's process on the
embedded default, whose cache is its own memory) or that no signal announced shows then.

One read serves every page of the table, in every process: the token read under a marker
is shared by all. The marker is read before the database, so a token is never older than
its marker: a change that commits after the read moves the marker past it.
"""

from __future__ import annotations

import time
import uuid

from django.core.cache import cache
from django.db.models import Count

from games.play.models import Game
from server import background_writes
from web.tables import change_token

# How stale a token read from the database may be before it is read again, whatever the
# marker says.
RECHECK_SECONDS = 1.0
# A marker outlives any page that follows its table for a while; one expired reads as
# moved (the database is read again), never as unchanged.
MARKER_SECONDS = 24 * 3600
# Games read in one query by ``tokens`` (far below any database's limit on parameters).
CHUNK = 500


def _marker_key(game_id: int) -> str:
    return f"table:marker:{game_id}"


def _token_key(game_id: int) -> str:
    return f"table:token:{game_id}"


def mark(sender=None, game_id: int | None = None, **kwargs) -> None:
    """``game_updated``'s receiver: the game changed, its marker moves (in the background:
    the step that changed it does not wait on the cache)."""
    if game_id is not None:
        background_writes.submit(_move_marker, game_id)


def _move_marker(game_id: int) -> None:
    cache.set(_marker_key(game_id), uuid.uuid4().hex, MARKER_SECONDS)


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
    row = _rows([game_id]).first()
    if row is None:
        return None
    current = change_token(row, row.n_seats)
    cache.set(keys[1], (marker, current, time.time()), RECHECK_SECONDS * 10)
    return current


def tokens(game_ids: list[int]) -> dict[int, str]:
    """The change tokens of ``game_ids`` as the database has them now, read in one query
    a chunk (a game that is gone has none); each is cached as ``token`` caches it. The
    hub's periodic recheck of every game it follows: one read per game was a connection
    and a query each, hundreds a second with a crowd of lobbies followed, and the
    announced changes waited behind them."""
    found: dict[int, str] = {}
    for start in range(0, len(game_ids), CHUNK):
        chunk = game_ids[start : start + CHUNK]
        markers = cache.get_many([_marker_key(game_id) for game_id in chunk])
        now = time.time()
        read = {row.pk: change_token(row, row.n_seats) for row in _rows(chunk)}
        cache.set_many(
            {
                _token_key(game_id): (markers.get(_marker_key(game_id)), token, now)
                for game_id, token in read.items()
            },
            RECHECK_SECONDS * 10,
        )
        found.update(read)
    return found


def _rows(game_ids: list[int]):
    return (
        Game.objects.filter(pk__in=game_ids)
        .annotate(n_seats=Count("seats"))
        .only("version", "status", "deadline", "updated_at")
    )
