"""A Celery app for the time-limit test: a task that hangs as a network call stuck in C
would, deaf to the soft time limit, so that only the hard limit can stop it."""

import contextlib
import time
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded

from config.celery import app

__all__ = ["app", "hang"]


@app.task(name="tests.hang", ignore_result=False)
def hang(seconds: float, started: str) -> str:
    Path(started).touch()  # tells the test that the worker is busy with it
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        # Not heard, as in a call that never returns to Python.
        with contextlib.suppress(SoftTimeLimitExceeded):
            time.sleep(left)
    return "woke up"
