"""The table rendered once per audience and shared (issue 24): when a table changes, every
page following it asks for it at once; a thousand spectators must cost one render, not a
thousand.

An audience is what a viewer may see: the public (spectators, and players with no seat
at this table) or one seat. The payload the pages apply (``{token, html, version}``, the
long poll's and the push's) is made once per game, change token, audience and language,
and kept in a small per-process LRU (``MAX_ENTRIES``). What a seat keeps secret is in the
payload of that seat only: the key holds the seat, which comes from the database (the
viewer's seat now), never from the page.

An entry is served for ``FRESH_SECONDS`` only when the table shows a turn clock, which
counts the seconds left from when it was rendered (the pages woken by one change all ask
within that time); one without a clock (a lobby, a game over, turns without a timer)
changes only with its token and is served for ``STILL_SECONDS``: a page left open on a
quiet lobby, reloaded or polled, costs no render. Requests that miss at once make it
once: the others wait for the first, and take its render even when the game moved past
the token they asked for meanwhile (it was read after they asked).

With Redis, the public's render is shared by every process of the site too (the live
service's workers, several machines on one Redis): the first process to need it renders
it and leaves it in Redis; the others take it from there, one read, instead of rendering
the same table again. A process that finds another one rendering it waits for that render
(``SHARED_WAIT_SECONDS`` at most, then renders itself). A seat's render is not shared:
its one page is in one process.

On the embedded default one process serves it all and the renders were a fifth of its
interpreter lock's time under the abuse bench (py-spy): there the render is made in a
child process of its own (``RENDER_IN_CHILD_PROCESS``, ``games.play.child_process``), on
the other core, from the same database and with the same viewer, and only the payload
comes back; what is shared and kept stays here.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections import OrderedDict

from django.conf import settings
from django.core.cache import cache
from django.http import Http404
from django.template.loader import render_to_string
from django.utils import translation

from games.play.child_process import BrokenProcessPool, ChildProcess
from games.play.models import Game, Player, Seat
from web.tables import shows_clock, table_context

log = logging.getLogger(__name__)

MAX_ENTRIES = 512
FRESH_SECONDS = 1.0
STILL_SECONDS = 10.0

Key = tuple[int, str, int | None, str]
Rendered = tuple[dict, int | None]
Audience = tuple[int, int | None, str]

_lock = threading.Lock()
_entries: OrderedDict[Key, tuple[float, dict]] = OrderedDict()
# Each audience's last render, with when it started reading the game.
_latest: OrderedDict[Audience, tuple[float, dict]] = OrderedDict()
# One render at a time per audience (striped: a fixed number of locks, whatever the number
# of games), so that the pages that missed together wait for one render.
_making = [threading.Lock() for _ in range(64)]
# How long a process waits for the render another process is making of the same table,
# and how often it looks.
SHARED_WAIT_SECONDS = 0.5
SHARED_LOOK_SECONDS = 0.005
# The renders' child process on the embedded default (``RENDER_IN_CHILD_PROCESS``): one,
# on the other core, beside the site's process.
child = ChildProcess("renders", workers=lambda: 1)
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
        if time.monotonic() - found[0] > fresh_for(found[1]["token"]):
            del _entries[key]
            return None
        _entries.move_to_end(key)
        return found[1]


def fresh_for(token: str) -> float:
    """How long a render of the table at ``token`` may be served."""
    return FRESH_SECONDS if shows_clock(token) else STILL_SECONDS


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
        public = seat is None and token is not None and bool(settings.REDIS_URL)
        if public and token is not None and (found := _made_elsewhere(game_id, token, language)):
            return found
        data = _render(game_id, player, language)
        if public and token is not None:
            _share(game_id, token, language, data)
        return data


def _render(game_id: int, player: Player | None, language: str) -> dict:
    global made
    started = time.monotonic()
    found = _render_elsewhere(game_id, player, language)
    if found is None:
        raise Http404
    data, seat = found
    with _lock:
        made += 1
        _entries[(game_id, data["token"], seat, language)] = (time.monotonic(), data)
        _latest[(game_id, seat, language)] = (started, data)
        _latest.move_to_end((game_id, seat, language))
        _trim()
    return data


def _render_elsewhere(game_id: int, player: Player | None, language: str) -> Rendered | None:
    """The render, made in the renders' child process when the settings ask for one;
    here when they do not, and when the child died making it (the page is not refused
    for that: the next render starts another child)."""
    if settings.RENDER_IN_CHILD_PROCESS:
        player_id = None if player is None else player.pk
        with contextlib.suppress(BrokenProcessPool):
            return child.call(_render_in_child, game_id, player_id, language)
    return render(game_id, player, language)


def _render_in_child(game_id: int, player_id: int | None, language: str) -> Rendered | None:
    player = None if player_id is None else Player.objects.filter(pk=player_id).first()
    return render(game_id, player, language)


def render(game_id: int, player: Player | None, language: str) -> Rendered | None:
    """The payload of ``game_id`` as ``player`` sees it, in ``language``, with the seat
    it was rendered for; None when there is no such game."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    with translation.override(language):
        t = table_context(game, player)
        html = render_to_string("web/tables/_table.html", {"t": t})
    return {"token": t.token, "html": html, "version": t.game.version}, t.seat


_SHARED_KEPT = max(10 * FRESH_SECONDS, STILL_SECONDS)


def _shared_key(game_id: int, token: str, language: str) -> str:
    return f"table:render:{game_id}:{token}:{language}"


def _share(game_id: int, token: str, language: str, data: dict) -> None:
    try:
        cache.set(_shared_key(game_id, token, language), (time.time(), data), _SHARED_KEPT)
    except Exception:  # Redis is away: the other processes render it themselves
        log.warning("could not share the render of game %s", game_id, exc_info=True)


def _made_elsewhere(game_id: int, token: str, language: str) -> dict | None:
    """The public's render for ``token`` made by another process while fresh (kept here
    too), waiting for it while another process makes it; None when this process is to
    render it (and when Redis cannot be reached: the page does not wait on it)."""
    try:
        return _look_elsewhere(game_id, token, language)
    except Exception:
        log.warning("could not read the shared render of game %s", game_id, exc_info=True)
        return None


def _look_elsewhere(game_id: int, token: str, language: str) -> dict | None:
    key = _shared_key(game_id, token, language)
    deadline = time.monotonic() + SHARED_WAIT_SECONDS
    while True:
        found = cache.get(key)
        if found is not None:
            made_at, data = found
            age = time.time() - made_at
            if 0 <= age <= fresh_for(data["token"]):
                _keep(game_id, token, language, data, time.monotonic() - age)
                return data
        # Django's Redis cache keeps a key whole seconds: the claim outlives the wait.
        if cache.add(f"{key}:making", 1, math.ceil(SHARED_WAIT_SECONDS)):
            return None
        if time.monotonic() >= deadline:
            return None
        time.sleep(SHARED_LOOK_SECONDS)


def keep(game_id: int, token: str, tables: dict[str, dict]) -> None:
    """The public's renders of ``game_id`` for ``token`` made by another process, by
    language (its message carried them, ``notify``), kept here as made now."""
    now = time.monotonic()
    for language, data in tables.items():
        _keep(game_id, token, language, data, now)


def _keep(game_id: int, token: str, language: str, data: dict, made_at: float) -> None:
    entry = (made_at, data)
    with _lock:
        _entries[(game_id, token, None, language)] = entry
        _entries[(game_id, data["token"], None, language)] = entry
        _latest[(game_id, None, language)] = entry
        _latest.move_to_end((game_id, None, language))
        _trim()


def _trim() -> None:  # with _lock held
    for kept in (_entries, _latest):
        while len(kept) > MAX_ENTRIES:
            kept.popitem(last=False)


def forget() -> None:
    """Nothing shared any more (tests: each starts with no render made)."""
    with _lock:
        _entries.clear()
        _latest.clear()
