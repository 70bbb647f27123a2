"""A small JSON document that every process of one machine shares: the embedded default's
stand-in for Redis (the bot, the site and their tasks run in separate processes there).

Each use opens the file, takes an exclusive ``flock`` (released when the file closes),
reads the document, lets the caller change it and writes it back. Threads of a process
take turns first, since ``flock`` is per open file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import threading
from collections.abc import Iterator
from pathlib import Path


class SharedJSON:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def read(self) -> dict:
        """The document as it is (a shared lock: readers do not rewrite it)."""
        with self._lock, self.path.open("a+") as file:
            fcntl.flock(file, fcntl.LOCK_SH)
            file.seek(0)
            return _parse(file.read())

    @contextlib.contextmanager
    def open(self) -> Iterator[dict]:
        """The document, for reading and changing under the lock; what the caller leaves
        in it is written back."""
        with self._lock, self.path.open("a+") as file:
            fcntl.flock(file, fcntl.LOCK_EX)
            file.seek(0)
            document = _parse(file.read())
            yield document
            file.seek(0)
            file.truncate()
            file.write(json.dumps(document))


def _parse(text: str) -> dict:
    try:
        return json.loads(text or "{}")
    except ValueError:  # a file cut short by a crash: start afresh
        return {}
