"""A page's EventSource, in Python, for the tests that read the push at the HTTP level
(issue 24): reads a table's ``/events/`` in a thread of its own over a real connection,
keeps every event, and when a stream ends connects again after the server's ``retry``,
saying which table it has (``Last-Event-ID``), as the browser does."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import httpx


class EventReader:
    """Reads the stream at ``url`` with ``cookies`` (a seat's session; none for a
    spectator) while in its ``with`` block. ``events``: every event's data, in order."""

    def __init__(self, url: str, cookies: dict[str, str] | None = None):
        self.url = url
        self.cookies = cookies or {}
        self.events: list[dict] = []
        self.connections = 0  # streams answered 200
        self.refused: list[int] = []  # the status of each stream refused
        self.problems: list[str] = []  # what a browser would not have taken
        self.last_id: str | None = None
        self.retry = 1.0
        self._new = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="event-reader", daemon=True)

    def __enter__(self) -> EventReader:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """Reads no more: at the stream's next line (a heartbeat at the latest) or its end."""
        self._stop.set()
        self._thread.join(30)
        assert not self._thread.is_alive(), "the reader outlived its stream"
        assert not self.problems, self.problems

    def wait_for(self, wanted: Callable[[dict], bool], timeout: float = 10) -> dict:
        """The first event received that is ``wanted``, waiting for it."""
        deadline = time.monotonic() + timeout
        with self._new:
            while True:
                found = next((event for event in self.events if wanted(event)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                assert not self.problems, self.problems
                assert left > 0, (
                    f"no such event in {timeout} s: {len(self.events)} received, the last "
                    f"{self.events[-1]['token'] if self.events else None!r}, "
                    f"refused {self.refused}"
                )
                self._new.wait(left)

    def _run(self) -> None:
        timeout = httpx.Timeout(10.0, read=60.0)
        with httpx.Client(timeout=timeout, cookies=self.cookies) as http:
            while not self._stop.is_set():
                try:
                    self._read(http)
                except httpx.HTTPError:
                    pass  # the server went away: as EventSource, try again after retry
                except Exception as exc:  # a stream no page could read: the test fails
                    self.problems.append(repr(exc))
                    with self._new:
                        self._new.notify_all()
                    return
                self._stop.wait(self.retry)

    def _read(self, http: httpx.Client) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
        with http.stream("GET", self.url, headers=headers) as response:
            if response.status_code != 200:
                self.refused.append(response.status_code)
                return
            assert response.headers["content-type"].startswith("text/event-stream")
            self.connections += 1
            fields: dict[str, str] = {}
            for line in response.iter_lines():
                if self._stop.is_set():
                    return
                if not line:  # the event is complete
                    if "data" in fields:
                        self._received(fields)
                    fields = {}
                    continue
                if line.startswith(":"):  # a heartbeat
                    continue
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "retry":
                    self.retry = int(value) / 1000
                elif name == "data" and "data" in fields:
                    fields["data"] += "\n" + value
                else:
                    fields[name] = value

    def _received(self, fields: dict[str, str]) -> None:
        data = json.loads(fields["data"])
        assert fields.get("id") == data["token"], "the event's id is its table's token"
        with self._new:
            self.last_id = fields["id"]
            self.events.append(data)
            self._new.notify_all()
