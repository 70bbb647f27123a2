"""Django's requests under ASGI are answered in one hop to a thread (config/asgi_handler,
issue 25): the whole middleware chain and the view in one thread of the handler's pool,
as under WSGI, the response sent from the event loop. Django's own ``ASGIHandler`` hopped
between the loop and a thread about twenty times a request."""

import asyncio
import threading

import pytest
from django.core import signals
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory, override_settings
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

from config.asgi import django_application as site
from server.asgi_handler import BEHIND, BEHIND_EVERY, FIRST, FairThreads, Handler
from web import request_rate

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


def noting(order: list, first: str, busy: threading.Event):
    """Calls that note their name in ``order`` when run; ``first`` waits for ``busy``
    first, holding the thread meanwhile."""

    def call(name):
        def run():
            if name == first:
                busy.wait(5)
            order.append(name)

        return run

    return call


def run_in_order(client: str, name: str, then) -> list[str]:
    """One thread, busy with ``client``'s request ``name`` while ``then(threads, call)``
    submits more (returning their futures): the order the requests ran in."""
    threads = FairThreads(1, "test-fair")
    busy, order = threading.Event(), []
    call = noting(order, first=name, busy=busy)
    futures = [threads.submit(client, call(name))]
    while not futures[0].running():
        pass
    futures += then(threads, call)
    busy.set()
    for future in futures:
        future.result(5)
    return order


def test_waiting_requests_are_taken_in_turn_by_client_issue_25():
    """One thread, busy; a burst of five from one client, then one from another: the
    other's goes second, not sixth."""

    def then(threads, call):
        burst = [threads.submit("a", call(f"a{n}")) for n in range(2, 6)]
        return [*burst, threads.submit("b", call("b1"))]

    assert run_in_order("a", "a1", then) == ["a1", "a2", "b1", "a3", "a4", "a5"]


def test_clients_not_favoured_wait_behind_the_others_and_are_answered_too_issue_25():
    """One thread, busy; two requests of a client the site does not favour (a script
    refused often), then three of a favoured one: the favoured go first, but for one turn
    in ``BEHIND_EVERY``."""

    def then(threads, call):
        behind = [threads.submit("b", call(f"b{n}"), BEHIND) for n in (1, 2)]
        return behind + [threads.submit("a", call(f"a{n}")) for n in (1, 2, 3)]

    assert BEHIND_EVERY == 4
    assert run_in_order("x", "x", then) == ["x", "a1", "a2", "b1", "a3", "b2"]


def test_a_request_that_goes_first_is_taken_before_every_other_client_issue_25():
    """One thread, busy; requests of three clients waiting, then a move of a fourth (the
    site's ``first``): the move goes next, before every client that waited longer."""

    def then(threads, call):
        waiting = [threads.submit(c, call(c)) for c in ("a", "b", "c")]
        return [*waiting, threads.submit("d", call("d-move"), FIRST)]

    assert run_in_order("x", "x", then) == ["x", "d-move", "a", "b", "c"]


def test_requests_that_go_first_leave_a_thread_to_the_others_issue_25():
    """Two threads, one busy with a move, one with a page: when the page is done, the
    next page goes before the next move, so that a table page is not held behind a run of
    moves; moves take every thread only while nothing else waits."""
    threads = FairThreads(2, "test-fair")
    move_done, page_done, order = threading.Event(), threading.Event(), []

    def call(name, done=None):
        def run():
            if done is not None:
                done.wait(5)
            order.append(name)

        return run

    busy = [threads.submit("a", call("a-move", move_done), FIRST)]
    busy.append(threads.submit("p", call("p-page", page_done)))
    while not all(future.running() for future in busy):
        pass
    waiting = [threads.submit("b", call("b-move"), FIRST), threads.submit("q", call("q-page"))]
    page_done.set()
    for future in waiting:
        future.result(5)
    # The page asked after the move went first; then, nothing else waiting, the move took
    # the free thread while the first move still held the other.
    assert order == ["p-page", "q-page", "b-move"]
    move_done.set()
    busy[0].result(5)


def test_a_move_goes_first_and_only_a_favoured_clients_move_issue_25(settings):
    """The site's handler (config.asgi): a move at a table goes first; another request, or
    a move from a client not in good standing, does not."""

    factory = RequestFactory()
    assert site._lane(factory.post("/play/12/move/"), "203.0.113.1") == FIRST
    assert site._lane(factory.get("/play/12/move/"), "203.0.113.1") != FIRST
    assert site._lane(factory.post("/play/12/join/"), "203.0.113.1") != FIRST
    assert site._lane(factory.post("/play/12/move/x"), "203.0.113.1") != FIRST
    settings.REQUESTS_PER_SECOND_PER_ADDRESS = 1
    settings.REQUEST_BURST_PER_ADDRESS = 10
    request_rate.buckets.charge("203.0.113.2", 20, 1, 10)
    try:
        assert site._lane(factory.post("/play/12/move/"), "203.0.113.2") == BEHIND
    finally:
        request_rate.buckets.clear()


def test_clients_not_favoured_take_one_thread_at_most_issue_25():
    """Two threads: while one answers a client not favoured, that client's next request
    waits, and the other thread stays free for the favoured."""
    threads = FairThreads(2, "test-fair")
    release = threading.Event()
    first = threads.submit("b", lambda: release.wait(5), BEHIND)
    while not first.running():
        pass
    second = threads.submit("b", lambda: "b2", BEHIND)
    assert threads.submit("a", lambda: "a1").result(5) == "a1"
    assert not second.running() and not second.done()
    release.set()
    assert second.result(5) == "b2"


def test_a_request_that_fails_fails_in_its_caller_and_the_thread_goes_on_issue_25():
    threads = FairThreads(1, "test-fair")

    def broken():
        raise ValueError("the view's own error")

    with pytest.raises(ValueError, match="the view's own error"):
        threads.submit("a", broken).result(5)
    assert threads.submit("a", lambda: 42).result(5) == 42
