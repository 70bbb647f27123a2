"""A tournament's change token for its open pages (issue 26: "the tournament page updating
live").

Every change the page shows (an entry, a withdrawal or a pause, a round made, a table's
places recorded, the start, the end) moves ``Tournament.version`` in the transaction that
made it (``touch``). A page asks for the version every few seconds; the answer comes from
the default cache (Redis in production, shared by every process), read from the database
at most once every ``CACHE_SECONDS`` for all the pages of a tournament, however many. A
change clears the cached version after its commit, so the pages of processes sharing the
cache see it at their next ask; on the embedded default, the bot's process has a cache of
its own, and its changes show within ``CACHE_SECONDS``. Only a page whose version moved
fetches the page again.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from games.tournaments.models import Tournament

CACHE_SECONDS = 2.0


def _key(tournament_id: int) -> str:
    return f"tournament:version:{tournament_id}"


def touch(tournament_id: int) -> None:
    """The tournament changed (inside the transaction that changed it)."""
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    transaction.on_commit(lambda: cache.delete(_key(tournament_id)))


def version(tournament_id: int) -> int | None:
    """The tournament's version, None when there is no such tournament."""
    found = cache.get(_key(tournament_id))
    if found is not None:
        return found
    found = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if found is not None:
        cache.set(_key(tournament_id), found, CACHE_SECONDS)
    return found
