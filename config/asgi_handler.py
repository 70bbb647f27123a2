"""Django's requests under ASGI answered as under WSGI, in one hop to a thread, the
threads shared fairly between clients (issue 25).

Django's own ``ASGIHandler`` runs the middleware chain on the event loop and each
synchronous part in a thread of the request's own (asgiref's ``ThreadSensitiveContext``):
every ``MiddlewareMixin``'s ``process_request`` and ``process_response``, the signals and
the view, about twenty hops between the loop and that thread per request, each a thread
handoff and a wait for the interpreter lock. On the embedded default, where one process
serves the whole site, that was most of the work: ``/healthz`` cost 4.5 ms of CPU, a
refused form 2.5-3 ms, and under issue 25's abuse bench the process ran out of CPU.

Here the body is read on the loop (as Django does), the request is answered by Django's
synchronous handler (the middleware loaded for synchronous use, as under WSGI: the same
chain, the same order, the same ``request_started`` and ``request_finished`` signals), and
the response is sent from the loop. The site has no asynchronous view outside the live
requests, which ``web.live_app`` serves before this handler sees them. A response that
streams from a synchronous iterator (a static file) is read in the thread; one that
streams asynchronously is sent as Django sends it.

The threads are few (``THREADS``): Python runs one at a time anyway, and each more
runnable thread is one more share of the interpreter lock taken from the game steps and
the table renders a person's click waits for (bench abuse on the embedded default, p95
click to screen: 2 threads 475-515 ms, 4 threads 527-632, 32 threads 791-1058). The
requests waiting for one are taken in turn by client (``FairThreads``): a burst from one
address waits behind itself, not in front of everyone else. A client that the site does
not favour (``favoured``: the site's is ``web.request_rate.in_good_standing``, a client
asking fast or refused often) waits behind the others, and gets one turn in
``BEHIND_EVERY`` while they wait, so that it is answered too, later. A favoured client's
request that the site says goes first (``first``: the site's is a move at a table, a few
milliseconds of work that a person's click waits for) is taken before any other waiting
request, on all threads but one while others wait: under the abuse bench a person's move
waited for a thread behind a turn of every other waiting client, table pages and refused
scripts alike, most of its click's time (click to screen p95 1.0-1.1 s, 0.6 s going
first; the table pages, far rarer, p95 1.1-1.5 s then 1.8-2.5 s).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpRequest, HttpResponse
from django.urls import set_script_prefix

# Requests answered at once; more wait, in turn by client. None waits for a table to
# change here (the live requests never come here): the longest a request holds its thread
# is its wait for the database's writer (SQLite's one writer on the embedded default, the
# only deployment where this handler serves the pages; in compose the web is gunicorn's
# threads under WSGI, and ``live`` serves the live requests).
THREADS = 2
# While favoured clients wait, one turn in this many goes to the others; and the others'
# requests take this many of the threads at most, so that a favoured request never waits
# for all of them to finish with the others'.
BEHIND_EVERY = 4
BEHIND_THREADS = 1


Waiting = OrderedDict[str, deque[tuple[Future, Callable]]]
# Where a request waits for a thread.
FIRST, FAVOURED, BEHIND = "first", "favoured", "behind"
LANES = (FIRST, FAVOURED, BEHIND)


class FairThreads:
    """A few threads answering requests, taken in turn by client: a client with many
    requests waiting has one answered, then every other waiting client one, and so on.
    The requests ``FIRST`` go before all others, but while others wait they leave them a
    thread; the clients ``BEHIND`` go once no other waits, or every ``BEHIND_EVERY``
    turns, on ``BEHIND_THREADS`` at most."""

    def __init__(self, threads: int, name: str):
        self._ready = threading.Condition()
        self._waiting: dict[str, Waiting] = {lane: OrderedDict() for lane in LANES}
        self._running = dict.fromkeys(LANES, 0)
        self._most = {FIRST: max(1, threads - 1), BEHIND: max(1, min(BEHIND_THREADS, threads - 1))}
        self._turns = 0
        for n in range(threads):
            threading.Thread(target=self._work, name=f"{name}-{n}", daemon=True).start()

    def submit(self, client: str, call: Callable, lane: str = FAVOURED) -> Future:
        future: Future = Future()
        with self._ready:
            self._waiting[lane].setdefault(client, deque()).append((future, call))
            self._ready.notify()
        return future

    def _next(self) -> tuple[Future, Callable, str]:
        with self._ready:
            while (lane := self._lane()) is None:
                self._ready.wait()
            waiting = self._waiting[lane]
            client, calls = waiting.popitem(last=False)
            future, call = calls.popleft()
            if calls:
                waiting[client] = calls  # its next one after everyone else's
            self._running[lane] += 1
            return future, call, lane

    def _lane(self) -> str | None:
        """The lane a free thread takes its request from now (with _ready held)."""
        waiting, running = self._waiting, self._running
        favoured = bool(waiting[FAVOURED])
        behind = bool(waiting[BEHIND]) and running[BEHIND] < self._most[BEHIND]
        first = bool(waiting[FIRST]) and (
            running[FIRST] < self._most[FIRST] or not (favoured or behind)
        )
        if not (first or favoured or behind):
            return None
        self._turns += 1
        if behind and (not (first or favoured) or self._turns % BEHIND_EVERY == 0):
            return BEHIND
        return FIRST if first else FAVOURED

    def _work(self) -> None:
        while True:
            future, call, lane = self._next()
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(call())
                    except BaseException as exc:  # the request's own error, in the loop
                        future.set_exception(exc)
            finally:
                with self._ready:
                    self._running[lane] -= 1
                    self._ready.notify()


def response_start(response: HttpResponse) -> dict:
    """The ASGI message that starts ``response``: its status, headers and cookies (as
    Django's ``ASGIHandler.send_response`` writes them)."""
    headers = [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    return {"type": "http.response.start", "status": response.status_code, "headers": headers}


def remote_address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "")


class Handler(ASGIHandler):
    """``ASGIHandler`` whose requests are answered by the synchronous handler in a few
    threads, one hop there and one back. ``client``: whose request it is, for taking
    turns (the site passes its trusted-proxy rule, ``web.clients.client_network``);
    ``favoured``: whether that client's requests go before those of the others;
    ``first``: whether a favoured client's request goes before all others."""

    def __init__(
        self,
        threads: int = THREADS,
        client: Callable[[HttpRequest], str] = remote_address,
        favoured: Callable[[str], bool] = lambda client: True,
        first: Callable[[HttpRequest], bool] = lambda request: False,
    ):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self._client = client
        self._favoured = favoured
        self._first = first
        self._threads = FairThreads(threads, "django-request")

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        request, refused = self.create_request(scope, body_file)
        client = "" if request is None else self._client(request)
        # Each request in a context of its own, as asgiref gives each call: what a request
        # sets (its language, its urlconf) stays with it, not with the thread.
        answer = functools.partial(
            contextvars.copy_context().run, self._answer, scope, request, refused, body_file
        )
        answered = self._threads.submit(client, answer, self._lane(request, client))
        response, chunks = await asyncio.wrap_future(answered)
        if chunks is None:  # asynchronous content: sent from the loop, then closed
            loop = asyncio.get_running_loop()
            try:
                await self.send_response(response, send)
            finally:
                await loop.run_in_executor(None, response.close)
            return
        await self._send(response, chunks, send)

    def _lane(self, request: HttpRequest | None, client: str) -> str:
        if request is None:  # refused as it was read: answered in turn, at once
            return FAVOURED
        if not self._favoured(client):
            return BEHIND
        return FIRST if self._first(request) else FAVOURED

    def _answer(
        self, scope, request, refused, body_file
    ) -> tuple[HttpResponse, list[bytes] | None]:
        """In a thread: the response, with its body read and the response closed (the
        request's end: ``request_finished``, its database connection given back), except
        an asynchronous stream's (``None``)."""
        try:
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            # A plain or a streaming response, read by duck typing as Django's handler does.
            response: Any = refused if request is None else self.get_response(request)
            if response.streaming and response.is_async:
                return response, None
            try:
                chunks = list(response) if response.streaming else [response.content]
            finally:
                response.close()
            return response, chunks
        finally:
            body_file.close()

    async def _send(self, response: HttpResponse, chunks: list[bytes], send) -> None:
        await send(response_start(response))
        parts = [piece for chunk in chunks for piece, _last in self.chunk_bytes(chunk)]
        for i, part in enumerate(parts):
            await send(
                {"type": "http.response.body", "body": part, "more_body": i < len(parts) - 1}
            )
        if not parts:
            await send({"type": "http.response.body", "body": b""})
