"""The table rendered once per audience and shared (issue 24): when a table changes, every
page following it asks for it at once; a thousand spectators must cost one render, not a
thousand.

An audience is what a viewer may see: the public (spectators, and players with no seat
at this table) or one seat. The payload the pages apply (``{token, html, version}``, the
long poll's and the push's) is made once per game, change token, audience and language,
and kept in a small per-process LRU (``MAX_ENTRIES``). What a seat keeps secret is in the
payload of that seat only: the key holds the seat, which comes from the database (the
viewer's seat now), never from the page.

An entry is served for ``FRESH_SECONDS`` only: the turn clock in the table counts the
seconds left from when it was rendered, and the pages woken by one change all ask within
that time. Requests that miss at once make it once: the others wait for the first, and
take its render even when the game moved past the token they asked for meanwhile (it was
read after they asked).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from django.http import Http404
from django.template.loader import render_to_string
from django.utils import translation

from games.play.models import Game, Player, Seat

from .tables import table_context

MAX_ENTRIES = 512
FRESH_SECONDS = 1.0

Key = tuple[int, str, int | None, str]
Audience = tuple[int, int | None, str]

_lock = threading.Lock()
_entries: OrderedDict[Key, tuple[float, dict]] = OrderedDict()
# Each audience's last render, with when it started reading the game.
_latest: OrderedDict[Audience, tuple[float, dict]] = OrderedDict()
# One render at a time per audience (striped: a fixed number of locks, whatever the number
# of games), so that the pages that missed together wait for one render.
_making = [threading.Lock() for _ in range(64)]
# How many renders this process made (the bench reads it; so could a metric).
made = 0


def seat_of(game_id: int, player: Player | None) -> int | None:
    """The audience of ``player`` at ``game_id``: their seat's number, None for the
    public. A spectator costs no query."""
    if player is None:
        return None
    seats = Seat.objects.filter(game_id=game_id, player=player)
    return seats.values_list("number", flat=True).first()


def peek(game_id: int, token: str, seat: int | None, language: str) -> dict | None:
    """The shared payload when one is fresh: memory only, no query (safe in an event
    loop)."""
    key = (game_id, token, seat, language)
    with _lock:
        found = _entries.get(key)
        if found is None:
            return None
        if time.monotonic() - found[0] > FRESH_SECONDS:
            del _entries[key]
            return None
        _entries.move_to_end(key)
        return found[1]


def payload(game_id: int, token: str | None, player: Player | None, language: str) -> dict:
    """The table of ``game_id`` as ``player``'s audience sees it, in ``language``: the
    shared one made for ``token`` when fresh, or one rendered since this was asked (the
    game may have moved past ``token`` meanwhile: that is newer still), else rendered now
    and shared. Http404 when there is no such game."""
    asked = time.monotonic()
    seat = seat_of(game_id, player)
    if token is not None and (found := peek(game_id, token, seat, language)):
        return found
    audience = (game_id, seat, language)
    with _making[hash(audience) % len(_making)]:
        if token is not None and (found := peek(game_id, token, seat, language)):
            return found
        with _lock:
            latest = _latest.get(audience)
        if latest is not None and latest[0] >= asked:
            return latest[1]
        return _render(game_id, player, language)


def _render(game_id: int, player: Player | None, language: str) -> dict:
    global made
    started = time.monotonic()
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404
    with translation.override(language):
        t = table_context(game, player)
        html = render_to_string("web/tables/_table.html", {"t": t})
    data = {"token": t.token, "html": html, "version": t.game.version}
    with _lock:
        made += 1
        _entries[(game_id, t.token, t.seat, language)] = (time.monotonic(), data)
        _latest[(game_id, t.seat, language)] = (started, data)
        _latest.move_to_end((game_id, t.seat, language))
        for kept in (_entries, _latest):
            while len(kept) > MAX_ENTRIES:
                kept.popitem(last=False)
    return data


def forget() -> None:
    """Nothing shared any more (tests: each starts with no render made)."""
    with _lock:
        _entries.clear()
        _latest.clear()
