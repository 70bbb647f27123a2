"""One simulated browser (its session, its client address, its requests, a table's stream) and
the page reading it does."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import queue
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

from bench.abuse.common import LIVE_PATH, WAIT_SECONDS, Response, Run


class Client:
    """One browser: its cookies, its client address (as the trusted proxy would pass it:
    ``X-Forwarded-For``) and its CSRF token."""

    def __init__(self, run: Run, side: str, address: str):
        self.base, self.live, self.tally = run.base, run.live or run.base, run.tally
        self.side, self.address = side, address
        self.fresh()

    def url(self, path: str) -> str:
        """As the proxy routes it: a table's stream and poll to ``live``, the rest to the
        web."""
        return (self.live if LIVE_PATH.match(path) else self.base) + path

    def fresh(self) -> None:
        """A new session: no cookies."""
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def request(
        self,
        kind: str,
        path: str,
        data: dict | list | None = None,
        headers: dict | None = None,
        timeout: float = 30,
    ) -> Response:
        body = None if data is None else urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(self.url(path), data=body)
        request.add_header("X-Forwarded-For", self.address)
        if body is not None:
            request.add_header("X-CSRFToken", self.csrf())
            request.add_header("Referer", self.base + "/")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=timeout) as r:
                response = Response(r.status, r.geturl(), r.read().decode(errors="replace"), 0)
        except urllib.error.HTTPError as exc:
            text = exc.read().decode(errors="replace")
            response = Response(exc.code, exc.geturl() or path, text, 0)
        except OSError:  # refused, reset, or timed out
            response = Response(0, path, "", 0)
        response.seconds = time.monotonic() - started
        self.tally.add(self.side, kind, path, response)
        return response

    def get(self, kind: str, path: str, **kw) -> Response:
        return self.request(kind, path, **kw)

    def post(self, kind: str, path: str, data, **kw) -> Response:
        if not self.csrf():
            self.get(kind, "/play/")  # the form sets the CSRF cookie
        return self.request(kind, path, data, **kw)


class Stream:
    """A table page's EventSource (``/play/<id>/events/``), as table.js opens it: a thread
    of its own reads the frames into a queue, each with the moment it arrived, and
    reconnects from the last one when the server ends the stream."""

    def __init__(self, client: Client, table: int, token: str, run: Run):
        self.client, self.table, self.token, self.run = client, table, token, run
        self.frames: queue.Queue = queue.Queue()
        self.closed = False
        self.opened = threading.Event()
        self.ok = False
        self._response = None
        threading.Thread(target=self._read, daemon=True, name=f"stream-{table}").start()

    def _read(self) -> None:
        while not self.closed and self.run.playing():
            query = urllib.parse.urlencode({"token": self.token})
            path = f"/play/{self.table}/events/?{query}"
            request = urllib.request.Request(self.client.url(path))
            request.add_header("X-Forwarded-For", self.client.address)
            request.add_header("Accept", "text/event-stream")
            try:
                self._response = self.client.opener.open(request, timeout=WAIT_SECONDS + 30)
            except urllib.error.HTTPError as exc:
                self.client.tally.add("normal", "stream", path, Response(exc.code, path, "", 0))
                break
            except OSError:
                self.client.tally.add("normal", "stream", path, Response(0, path, "", 0))
                break
            self.client.tally.add("normal", "stream", path, Response(200, path, "", 0))
            self.ok = True
            self.opened.set()
            try:
                for raw in self._response:
                    if raw.startswith(b"data: "):
                        data = json.loads(raw[6:])
                        self.token = data["token"]
                        self.frames.put((time.perf_counter(), data))
            except (OSError, ValueError, AttributeError):
                # The server ended it (reconnect, as EventSource does), or we closed it
                # from another thread (http.client then finds its socket gone).
                pass
        self.opened.set()
        self.frames.put((time.perf_counter(), None))

    def latest(self, data: dict) -> dict:
        """The newest table already received (the person looks at the screen)."""
        while True:
            try:
                _at, found = self.frames.get_nowait()
            except queue.Empty:
                return data
            if found is None:
                raise EOFError
            data = found

    def changed(self, token: str, timeout: float) -> tuple[float, dict]:
        """The next table that differs from ``token`` and when it arrived."""
        end = time.monotonic() + timeout
        while True:
            at, data = self.frames.get(timeout=max(0.01, end - time.monotonic()))
            if data is None:
                raise EOFError
            if data["token"] != token:
                return at, data

    def close(self) -> None:
        self.closed = True
        if self._response is not None:
            with contextlib.suppress(Exception):
                self._response.close()


class Page(HTMLParser):
    """The forms of a page (action and fields) and its invite link: the element
    ``id="invite-link"`` (a link or a field), else the page's share field."""

    def __init__(self, text: str):
        super().__init__()
        self.forms: list[dict] = []
        self.invite: str | None = None
        self.share: str | None = None
        self._form: dict | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if a.get("id") == "invite-link":
            self.invite = a.get("href") or a.get("value")
        if tag == "input" and "share" in a.get("class", "").split():
            self.share = a.get("value")
        if tag == "form":
            self._form = {"action": a.get("action", ""), "fields": {}}
            self.forms.append(self._form)
        elif (
            self._form is not None
            and tag in ("input", "select", "textarea")
            and a.get("name")
            and (a.get("type") not in ("checkbox", "radio") or "checked" in a)
        ):
            self._form["fields"].setdefault(a["name"], a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None

    def form(self, word: str) -> dict | None:
        return next((f for f in self.forms if f"/{word}/" in f["action"]), None)


def local(url: str) -> str:
    """A link's path and query (the invite link is absolute)."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def table_id(url: str) -> int | None:
    match = re.search(r"/play/(\d+)/", url)
    return int(match.group(1)) if match else None
