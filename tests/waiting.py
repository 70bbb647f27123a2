"""Waiting in tests for what another thread or process does."""

import time


def wait_until(predicate, timeout: float = 30, interval: float = 0.1, what: str = "condition"):
    """Poll ``predicate`` until it returns something true, and return that."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")
