"""The spectators' reader of ``bench watchers``: every event counted once, with its
version, however the server's chunks fall across reads."""

import asyncio
import json

from bench.watchers_readers import Page, event_of

HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n"


def chunk(body: bytes) -> bytes:
    """As uvicorn sends a stream: chunked, one chunk a send."""
    return b"%x\r\n%s\r\n" % (len(body), body)


def event(token: str, version: int, html: str = "<p>table</p>") -> bytes:
    data = json.dumps({"token": token, "html": html, "version": version})
    return f"id: {token}\ndata: {data}\n\n".encode()


class Transport:
    closed = False

    def write(self, data):
        self.written = data

    def close(self):
        self.closed = True


def page() -> Page:
    reader = Page(1, "/play/1/", asyncio.Event(), [1])
    reader.connection_made(Transport())
    return reader


def test_events_split_anywhere_are_each_seen_once_with_their_version():
    stream = HEAD + chunk(b"retry: 1000\n\n") + chunk(event("a.1", 7)) + chunk(b":\n\n")
    stream += chunk(event("a.2", 8, "x" * 70000)) + chunk(event("a.3", 9))
    for size in (1, 7, 4096, len(stream)):
        reader = page()
        for at in range(0, len(stream), size):
            reader.data_received(stream[at : at + size])
        assert [version for _at, version in reader.seen] == [7, 8, 9], size
        assert reader.token == "a.3"
        assert reader.received == len(stream)
        assert reader.opened.is_set()


def test_a_refused_stream_is_counted_and_closed():
    reader = page()
    reader.data_received(b"HTTP/1.1 429 Too Many Requests\r\ncontent-length: 0\r\n\r\n")
    assert reader.refused == 1
    assert reader._transport.closed
    assert reader.seen == []


def test_a_comment_or_the_retry_line_is_no_event():
    assert event_of(b"retry: 1000") is None
    assert event_of(b"\r\n3\r\n:") is None
    token, version, _data = event_of(b"\r\n1f\r\n" + event("b.4", 12).rstrip(b"\n"))
    assert (token, version) == ("b.4", 12)
