"""Django's requests under ASGI answered as under WSGI, in one hop to a thread (issue 25).

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
requests, which ``web.live.app`` serves before this handler sees them. A response that
streams from a synchronous iterator (a static file) is read in the thread; one that
streams asynchronously is sent as Django sends it.

The threads are few (``THREADS``): Python runs one at a time anyway, and each more
runnable thread is one more share of the interpreter lock taken from the game steps and
the table renders a person's click waits for (bench abuse on the embedded default, p95
click to screen: 2 threads 475-515 ms, 4 threads 527-632, 32 threads 791-1058). The
requests waiting for one are taken in the order they came: the embedded default is one
machine and a group of friends (issue 44), not a crowd to share out fairly.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpResponse
from django.urls import set_script_prefix

# Requests answered at once; more wait, in order. None waits for a table to change here
# (the live requests never come here): the longest a request holds its thread is its wait
# for the database's writer (SQLite's one writer on the embedded default, the only
# deployment where this handler serves the pages; in compose the web is gunicorn's
# threads under WSGI, and ``live`` serves the live requests).
THREADS = 2


def response_start(response: HttpResponse) -> dict:
    """The ASGI message that starts ``response``: its status, headers and cookies (as
    Django's ``ASGIHandler.send_response`` writes them)."""
    headers = [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    return {"type": "http.response.start", "status": response.status_code, "headers": headers}


class Handler(ASGIHandler):
    """``ASGIHandler`` whose requests are answered by the synchronous handler in a few
    threads, one hop there and one back."""

    def __init__(self, threads: int = THREADS):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="django-request")

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        request, refused = self.create_request(scope, body_file)
        # Each request in a context of its own, as asgiref gives each call: what a request
        # sets (its language, its urlconf) stays with it, not with the thread.
        answer = functools.partial(
            contextvars.copy_context().run, self._answer, scope, request, refused, body_file
        )
        response, chunks = await asyncio.wrap_future(self._threads.submit(answer))
        if chunks is None:  # asynchronous content: sent from the loop, then closed
            loop = asyncio.get_running_loop()
            try:
                await self.send_response(response, send)
            finally:
                await loop.run_in_executor(None, response.close)
            return
        await self._send(response, chunks, send)

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
