"""The table pushed to its page as it changes (issue 24): server-sent events over ASGI.

Why SSE and not WebSockets (or Channels): the table only ever flows one way, server to
page; a move is an ordinary POST (``play.move``, with its CSRF check and idempotency key).
SSE is plain HTTP: it passes every proxy that passes a long response, needs no protocol
server besides the ASGI one, and the browser's ``EventSource`` reconnects by itself,
saying which table it has (``Last-Event-ID``).

A stream costs no thread while it waits: an async view, woken by this process's hub
(``notify``), which hears of each change once, whatever number of pages follow the game.
Each event is the long poll's JSON (``{token, html, version}``, the change token as the
event's id), from the renders shared per audience (``renders``), so ``table.js`` applies
either the same way. On (re)connection with a token other than the table's, the table is
sent at once; then on each change. A comment line every ``LIVE_HEARTBEAT_SECONDS`` keeps
proxies from closing an idle stream; after ``LIVE_STREAM_SECONDS`` the stream ends and
the page reconnects (the process may shed it, and the address's slot never outlives it).

Only under ASGI (uvicorn: ``manage.py start``, compose): under WSGI the view answers 204
and the page polls. Who is watching is decided as for the long poll
(``web.actors.viewer_or_403``): the session's player, or nobody (a spectator). The Telegram
Mini App keeps the long poll: ``EventSource`` cannot send the ``X-Telegram-Init-Data``
header, the Mini App's session cookie may not survive Telegram's iframe, and
``initData`` in the address would put a sign-in in every proxy's log. A page over its
address's ``LIVE_CONNECTIONS_PER_ADDRESS`` (shared with the long polls), or past
``LIVE_STREAMS_PER_PROCESS``, is refused (429) and follows by long polling instead.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation
from django.views.decorators.http import require_GET

from games.play.models import Game, Player
from web import params
from web.actors import viewer_or_403

from . import changes, notify, renders, slots
from .waits import MAX_TOKEN, RETRY_MS, let_go_of_the_request_thread, payload, released

# How soon a page's EventSource reconnects after its stream ended.
RECONNECT_MS = 1000


@require_GET
async def events(request, pk: int):
    """The stream of the table of game ``pk`` as this viewer sees it. ``token`` (or the
    ``Last-Event-ID`` of a reconnection): the table the page has."""
    if not isinstance(request, ASGIRequest):
        # Django under WSGI reads an async stream to its end before sending a byte: the
        # page would see nothing for a whole lifetime. 204 tells EventSource not to
        # reconnect, and the page polls.
        return HttpResponse(status=204)
    try:
        seen = params.text(
            request.headers.get("Last-Event-ID", request.GET.get("token")),
            "token",
            max_length=MAX_TOKEN,
        )
    except params.BadParameter as exc:
        return await sync_to_async(params.refused)(request, exc.message, 400)
    if notify.hub.full():
        return JsonResponse({"ok": False, "retry_ms": RETRY_MS}, status=429)
    try:
        # First, so that a stream over the limit costs no query.
        slot = await released(slots.take_live_slot, shared=True)(
            request, settings.LIVE_STREAM_SECONDS
        )
    except slots.LimitReached as exc:
        await slots.hold_refusal(request)
        return await sync_to_async(params.refused)(request, exc.message, 429)
    try:
        player, refused = await released(_viewer, shared=True)(request, pk)
    except BaseException:
        await released(slots.give_back_live_slot, shared=True)(slot)
        raise
    if refused is not None:
        await released(slots.give_back_live_slot, shared=True)(slot)
        return refused
    stream = _stream(pk, seen, player, translation.get_language(), slot)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each event on at once
    return response


def _viewer(request, pk: int):
    if not Game.objects.filter(pk=pk).exists():
        raise Http404
    return viewer_or_403(request)


async def _stream(
    pk: int, seen: str, player: Player | None, language: str, slot
) -> AsyncIterator[bytes]:
    let_go_of_the_request_thread()
    # Before the first look: no change falls between.
    sub = notify.hub.join(pk, language if player is None else None)
    try:
        yield f"retry: {RECONNECT_MS}\n\n".encode()
        end = time.monotonic() + settings.LIVE_STREAM_SECONDS
        current = await released(changes.token, shared=True)(pk)
        sent = seen
        while True:
            if current is not None and current != sent:
                data = await payload(pk, current, player, language, shared=True)
                sent = data["token"]
                yield _frame(data)
            left = end - time.monotonic()
            if left <= 0:
                return
            current = await sub.next(min(settings.LIVE_HEARTBEAT_SECONDS, left))
            if current is None:
                yield b":\n\n"
    finally:
        notify.hub.leave(sub)
        await released(slots.give_back_live_slot, shared=True)(slot)


_frames: OrderedDict[int, tuple[dict, bytes]] = OrderedDict()
_frames_lock = threading.Lock()


def _frame(data: dict) -> bytes:
    """The event of a shared payload, encoded once for all its pages (at 5000 pages, each
    encoding its own copy of the table cost more than sending it)."""
    with _frames_lock:
        found = _frames.get(id(data))
        if found is not None and found[0] is data:
            return found[1]
    frame = f"id: {data['token']}\ndata: {json.dumps(data)}\n\n".encode()
    with _frames_lock:
        _frames[id(data)] = (data, frame)  # the payload held: its id is not reused meanwhile
        while len(_frames) > renders.MAX_ENTRIES:
            _frames.popitem(last=False)
    return frame
