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
that time. Two requests that miss at once make it once: the second waits for the first.
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

_lock = threading.Lock()
_entries: OrderedDict[Key, tuple[float, dict]] = OrderedDict()
_making: dict[Key, threading.Lock] = {}
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
    shared one made for ``token`` when fresh, else rendered now (and shared). Http404
    when there is no such game."""
    seat = seat_of(game_id, player)
    if token is not None and (found := peek(game_id, token, seat, language)):
        return found
    key = (game_id, token or "", seat, language)
    with _lock:
        making = _making.setdefault(key, threading.Lock())
    with making:
        try:
            if token is not None and (found := peek(game_id, token, seat, language)):
                return found
            return _render(game_id, player, language)
        finally:
            with _lock:
                _making.pop(key, None)


def _render(game_id: int, player: Player | None, language: str) -> dict:
    global made
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
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)
    return data


def forget() -> None:
    """Nothing shared any more (tests: each starts with no render made)."""
    with _lock:
        _entries.clear()
