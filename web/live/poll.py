"""The table's long poll (``/play/<id>/state/``): the page asks for its table once it
differs from the change token it has, and the answer waits, up to
``TABLE_WAIT_SECONDS``, for the table to change. The Mini App follows its table so (its
``initData`` travels in a header, which ``EventSource`` cannot send), and so does a page
whose stream was refused or is not served (WSGI: ``stream`` answers 204).
"""

from __future__ import annotations

import contextlib
import math
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, JsonResponse
from django.utils import translation
from django.views.decorators.http import require_GET

from web import params
from web.actors import viewer_or_403

from . import changes, notify, slots
from .waits import (
    MAX_TOKEN,
    RETRY_MS,
    changed_token,
    let_go_of_the_request_thread,
    payload,
    released,
)


@require_GET
@params.strict
async def state(request, pk: int):
    """The table as this viewer sees it, once it differs from ``token`` (long polling).
    ``wait``: at most this many seconds (up to ``TABLE_WAIT_SECONDS``, the default).
    A poll waits on this process's hub (``waits.changed_token``), holding no thread under
    ASGI; one that would wait while this process has no place for it is answered at once:
    429 with ``retry_ms``, when the page asks again (``_ask_again``). A wait that ends with
    no change answers the token alone (``_unchanged``)."""
    seen = params.text(request.GET.get("token"), "token", max_length=MAX_TOKEN)
    limit = settings.TABLE_WAIT_SECONDS
    wait = params.number(request.GET.get("wait"), "wait", maximum=limit, default=limit)
    deadline = time.monotonic() + wait
    try:
        # First, so that a poll over the limit costs no query.
        slot = await released(slots.take_live_slot, shared=True)(request, limit)
    except slots.LimitReached as exc:
        await slots.hold_refusal(request)
        return await sync_to_async(params.refused)(request, exc.message, 429)
    try:
        return await _changed_table(request, pk, seen, deadline)
    finally:
        await released(slots.give_back_live_slot, shared=True)(slot)


async def _changed_table(request, pk: int, seen: str, deadline: float):
    """The table once its change token is no longer ``seen`` (or at ``deadline``)."""
    # Under ASGI the reads go to the loop's shared pool of threads, and the wait lets go of
    # the request's own; under WSGI the request owns its thread anyway (and a test's
    # transaction is seen only there).
    asgi = isinstance(request, ASGIRequest)
    current = await released(changes.token, shared=asgi)(pk)
    if current is None:
        raise Http404
    if current != seen:
        return await _table_json(request, pk, current, asgi)
    if time.monotonic() >= deadline:
        _player, refused = await released(viewer_or_403, shared=asgi)(request)
        return refused or _unchanged(current)
    with _place_to_wait(asgi) as placed:
        if not placed:
            return _ask_again()
        player, refused = await released(viewer_or_403, shared=asgi)(request)
        if refused:
            return refused
        let_go_of_the_request_thread()
        language = translation.get_language() if player is None else None
        current = await changed_token(pk, seen, deadline, shared=asgi, language=language)
    if current is None:
        raise Http404
    if current == seen:
        return _unchanged(current)
    return JsonResponse(await payload(pk, current, player, translation.get_language(), asgi))


def _unchanged(token: str) -> JsonResponse:
    """The answer of a poll whose table did not change: its page has that table already
    (it keeps what it shows when the token is the one it sent). Rendering it again for
    every poll that waited in vain, five seconds each, was most of what a page left open
    on a quiet lobby cost the server."""
    return JsonResponse({"token": token})


async def _table_json(request, pk: int, current: str, asgi: bool) -> JsonResponse:
    player, refused = await released(viewer_or_403, shared=asgi)(request)
    if refused:
        return refused
    return JsonResponse(await payload(pk, current, player, translation.get_language(), asgi))


def _place_to_wait(asgi: bool):
    """Under ASGI a waiting poll is one more of the hub's connections (a coroutine, no
    thread), as many as ``LIVE_STREAMS_PER_PROCESS`` allows; under WSGI it holds one of
    the process's threads, and only ``LONG_POLLS_PER_PROCESS`` may."""
    if asgi:
        return contextlib.nullcontext(not notify.hub.full())
    return slots.parked_poll()


def _ask_again() -> JsonResponse:
    """This process has as many polls waiting as it may hold: the page asks again in a
    moment (a change shows then, at once). Not a refusal of the visitor: nothing to say."""
    response = JsonResponse({"ok": False, "retry_ms": RETRY_MS}, status=429)
    response["Retry-After"] = str(math.ceil(RETRY_MS / 1000))
    return response
