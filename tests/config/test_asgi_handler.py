"""Django's requests under ASGI are answered in one hop to a thread (server/asgi_handler,
issue 25): the whole middleware chain and the view in one thread of the handler's pool,
as under WSGI, the response sent from the event loop. Django's own ``ASGIHandler`` hopped
between the loop and a thread about twenty times a request."""

import asyncio
import threading

import pytest
from django.core import signals
from django.http import HttpResponse, StreamingHttpResponse
from django.test import override_settings
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

from server.asgi_handler import Handler

seen: list[tuple[str, str]] = []


@csrf_exempt
def plain(request):
    seen.append(("view", threading.current_thread().name))
    response = HttpResponse(f"{request.method} {request.body.decode()} {request.LANGUAGE_CODE}")
    response.set_cookie("flavour", "tuna")
    return response


def streamed(request):
    return StreamingHttpResponse(iter([b"one ", b"two ", b"three"]))


async def _parts():
    for part in (b"a", b"b"):
        yield part


def streamed_async(request):
    return StreamingHttpResponse(_parts())


def big(request):
    return HttpResponse(b"x" * (Handler.chunk_size * 2 + 10))


urlpatterns = [
    path("plain/", plain),
    path("streamed/", streamed),
    path("streamed-async/", streamed_async),
    path("big/", big),
    # The site's own pages beside the test's: its 404 page links to them.
    path("", include("config.urls")),
]


def ask(handler: Handler, method: str, url: str, body: bytes = b"", headers=()) -> list[dict]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": url,
        "raw_path": url.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    incoming = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict] = []

    async def receive():
        if incoming:
            return incoming.pop(0)
        await asyncio.Event().wait()  # the client stays until the answer

    async def send(message):
        sent.append(message)

    asyncio.run(handler(scope, receive, send))
    return sent


def body_of(sent: list[dict]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def headers_of(sent: list[dict]) -> list[tuple[bytes, bytes]]:
    return sent[0]["headers"]


@pytest.fixture
def handler():
    seen.clear()

    def started(**kwargs):
        seen.append(("started", threading.current_thread().name))

    def finished(**kwargs):
        seen.append(("finished", threading.current_thread().name))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    with override_settings(ROOT_URLCONF=__name__):
        yield Handler(threads=2)
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)


def test_a_request_is_answered_in_one_thread_of_the_pool_issue_25(handler):
    loop_thread = threading.current_thread().name
    sent = ask(handler, "POST", "/plain/", b"meow", [(b"accept-language", b"it")])
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    # The middleware ran (the language of the request, the frame and content-type
    # headers), and the view saw the body.
    assert body_of(sent) == b"POST meow it"
    names = {name.lower() for name, _value in headers_of(sent)}
    assert {b"x-frame-options", b"x-content-type-options", b"set-cookie"} <= names
    cookies = [value for name, value in headers_of(sent) if name == b"Set-Cookie"]
    assert any(value.startswith(b"flavour=tuna;") for value in cookies)
    # The request's start, its view and its end (the response closed: its database
    # connection given back) in one thread of the pool, not the loop's.
    assert [step for step, _thread in seen] == ["started", "view", "finished"]
    threads = {thread for _step, thread in seen}
    assert len(threads) == 1
    (thread,) = threads
    assert thread.startswith("django-request") and thread != loop_thread


def test_a_streamed_file_is_read_in_the_thread_and_sent_whole_issue_25(handler):
    sent = ask(handler, "GET", "/streamed/")
    assert sent[0]["status"] == 200
    assert body_of(sent) == b"one two three"
    assert sent[-1]["more_body"] is False
    assert [step for step, _thread in seen] == ["started", "finished"]


def test_an_asynchronous_stream_is_sent_from_the_loop_then_closed_issue_25(handler):
    sent = ask(handler, "GET", "/streamed-async/")
    assert body_of(sent) == b"ab"
    assert [step for step, _thread in seen] == ["started", "finished"]


def test_a_long_body_goes_in_chunks_the_last_one_marked_issue_25(handler):
    sent = ask(handler, "GET", "/big/")
    bodies = [m for m in sent if m["type"] == "http.response.body"]
    assert len(bodies) == 3
    assert [m["more_body"] for m in bodies] == [True, True, False]
    assert len(body_of(sent)) == Handler.chunk_size * 2 + 10


def test_an_unknown_address_gets_djangos_404_issue_25(handler):
    sent = ask(handler, "GET", "/no-such-page/")
    assert sent[0]["status"] == 404


def test_a_client_gone_before_its_body_came_is_not_answered_issue_25(handler):
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/plain/",
        "query_string": b"",
        "headers": [],
    }
    sent: list[dict] = []

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(handler(scope, receive, send))
    assert sent == [] and seen == []
