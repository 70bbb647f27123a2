"""The live requests (a table's stream and its long poll) served straight from ASGI, beside
Django's handler, so that following a table costs the event loop a few microseconds and
no thread (issues 24 and 25).

Through Django's ``ASGIHandler`` every request, however small, took a thread of its own
(asgiref's ``ThreadSensitiveContext``) and hopped to it and back about twenty times: for
the ``request_started`` and ``request_finished`` signals, and for each middleware's
``process_request`` and ``process_response`` (``MiddlewareMixin`` is synchronous). With
thousands of pages, or a script reopening refused polls, those hops were the server's
work: the health check, the webhook and the admin waited seconds behind them.

Here the same views (``stream.events``, ``poll.state``) answer, with the same checks, in
the same order:

- the client's request rate (``request_rate``) first, then its live requests in this
  process (``slots.live_here``): a script past either is refused on the loop, without
  the session, the middleware or a thread (``_refused``), a moment later
  (``slots.hold_refusal``);
- Django's middleware, called inline on the loop: for these requests their work is
  headers and lazy objects (the session, loaded on first use off the loop; the visitor's
  language; the user). A session a view changed is saved off the loop;
- an exception becomes Django's own answer (``response_for_exception``: the 404 and 403
  pages, a logged 500), rendered off the loop;
- the client going away cancels the view, as Django's handler does, so that its
  ``finally`` gives back the address's slot and the hub's connection;
- a page that does not read what it is sent for ``LIVE_SEND_SECONDS`` is dropped, never
  buffered without end (the server buffers one event and its write buffer at most).

Every other request goes to Django's handler unchanged.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from collections.abc import Awaitable, Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.exception import response_for_exception
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string

from server.asgi_handler import response_start
from web import clients, params, request_rate
from web.ids import IdConverter

from . import clock as web_clock
from . import poll, slots, stream

log = logging.getLogger(__name__)

LIVE_PATH = re.compile(rf"/play/({IdConverter.regex})/(events|state)/")
ROW_ID = IdConverter()
VIEWS: dict[str, Callable[..., Awaitable[HttpResponse]]] = {
    "events": stream.events,
    "state": poll.state,
}

Scope = dict
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


def route(django: Callable) -> Callable:
    """The site's ASGI application: the live requests here, the rest to ``django``."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            live = _live(scope["path"])
            if live is not None:
                await serve(scope, receive, send, *live)
                return
        await django(scope, receive, send)

    return application


def _live(path: str) -> tuple[Callable[..., Awaitable[HttpResponse]], int] | None:
    """The live view of ``path`` and its game's id, parsed as ``web.urls`` parses ids;
    None for any other path (an id past any row: Django's 404)."""
    found = LIVE_PATH.fullmatch(path)
    if found is None:
        return None
    try:
        return VIEWS[found[2]], ROW_ID.to_python(found[1])
    except ValueError:
        return None


class Ended:
    """Why a live request was told to stop: its client went away, or stopped reading."""

    def __init__(self) -> None:
        self.why = ""
        self.task = asyncio.current_task()

    def end(self, why: str) -> None:
        if not self.why and self.task is not None:
            self.why = why
            self.task.cancel()


async def serve(scope: Scope, receive: Receive, send: Send, view, pk: int) -> None:
    """One live request: its answer, until it ends or the client goes away."""
    ended = Ended()

    async def watch() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        ended.end("gone")

    watcher = asyncio.create_task(watch())
    network = None
    try:
        request = ASGIRequest(scope, io.BytesIO())
        wait = request_rate.over_rate(request)
        if wait:
            await slots.hold_refusal(request, wait)
            response = await _refused(request, request_rate.TOO_MANY)
            response["Retry-After"] = str(math.ceil(wait))
        elif not slots.live_here.enter(candidate := clients.client_network(request)):
            await slots.hold_refusal(request)
            response = await _refused(request, slots.TOO_MANY_LIVE)
        else:
            network = candidate
            response = await _respond(request, view, pk)
            request_rate.answered(request, response.status_code)
        await _send(response, send, ended)
    except asyncio.CancelledError:
        if not ended.why:
            raise
        if ended.task is not None:
            ended.task.uncancel()  # this request simply ends
        if ended.why == "stalled":
            log.info("dropped a page that read nothing for %s s", settings.LIVE_SEND_SECONDS)
    finally:
        watcher.cancel()
        if network is not None:
            slots.live_here.leave(network)


async def _refused(request: ASGIRequest, message) -> HttpResponse:
    """A live request refused before anything is done for it (429): a script's answer
    made on the loop, its message translated once per language; a browser navigating to
    the address gets the page (``params.refused``), made off the loop. A script reopening
    its refused polls in a loop filled the server's accept queue when each refusal cost
    two threads, and a person's move waited a second and more behind them."""
    if params.wants_page(request):
        return await sync_to_async(params.refused_unseen, thread_sensitive=False)(
            request, message, 429
        )
    language = translation.get_language_from_request(request)
    text = _texts.get((id(message), language))
    if text is None:
        with translation.override(language):
            text = _texts[(id(message), language)] = str(message)
    response = JsonResponse({"ok": False, "message": text}, status=429)
    response["X-Content-Type-Options"] = "nosniff"
    return response


# Messages of refusals by (message, language): a handful.
_texts: dict[tuple[int, str], str] = {}


# -- Django's middleware, inline ---------------------------------------------------------------
def _middleware() -> list[MiddlewareMixin]:
    """``settings.MIDDLEWARE``'s ``MiddlewareMixin`` ones. The other two are not: the
    request rate (counted first, here, on the loop) and the static files (never a live
    path)."""
    chain = []
    for path in settings.MIDDLEWARE:
        cls = import_string(path)
        if issubclass(cls, MiddlewareMixin):
            chain.append(cls(_never_called))
    return chain


def _never_called(request):  # the views are called here, not by the middleware
    raise AssertionError("a live request's middleware called its view")


_chain: list[MiddlewareMixin] | None = None


def chain() -> list[MiddlewareMixin]:
    global _chain
    if _chain is None:
        _chain = _middleware()
    return _chain


async def _respond(request: ASGIRequest, view, pk: int) -> HttpResponse:
    middleware = chain()
    try:
        response = None
        for each in middleware:
            if hasattr(each, "process_request"):
                response = each.process_request(request)
                if response is not None:
                    break
        if response is None:
            response = await view(request, pk=pk)
    except Exception as exc:  # Django's own answer: a 404 page, a 403, a logged 500
        response = await sync_to_async(response_for_exception, thread_sensitive=False)(request, exc)
    return await _finished(request, response, middleware)


async def _finished(request, response: HttpResponse, middleware) -> HttpResponse:
    """The middleware's ``process_response``, in reverse: on the loop, unless the view
    changed the session, which is then saved off it."""

    def finish() -> HttpResponse:
        answer = response
        for each in reversed(middleware):
            if hasattr(each, "process_response"):
                answer = each.process_response(request, answer)
        return answer

    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return await sync_to_async(finish, thread_sensitive=False)()
    return finish()


async def _send(response: HttpResponse, send: Send, ended: Ended) -> None:
    await send(response_start(response))
    if not isinstance(response, StreamingHttpResponse):
        await _within_limit(send, {"type": "http.response.body", "body": response.content}, ended)
        return
    chunks = response.streaming_content
    try:
        async for chunk in chunks:
            message = {"type": "http.response.body", "body": chunk, "more_body": True}
            await _within_limit(send, message, ended)
    finally:
        # Its stream's ``finally`` runs now (the hub's connection, the address's slot).
        await chunks.aclose()
    await send({"type": "http.response.body", "body": b""})


async def _within_limit(send: Send, message: dict, ended: Ended) -> None:
    """A send that waits for the page to read (the server's write buffer full) for
    ``LIVE_SEND_SECONDS`` at most: then the request is ended (``Ended``)."""
    clock = web_clock.of()
    due = clock.after(settings.LIVE_SEND_SECONDS, lambda: ended.end("stalled"))
    try:
        await send(message)
    finally:
        clock.cancel(due)
