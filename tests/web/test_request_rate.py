"""Requests per client address (issue 25): a client asking faster than a person's pages
ever do is answered 429 at once, with a clear message, before the session or a view; the
webhook and the health check are not counted; other addresses are not affected."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from web import request_rate


@pytest.fixture
def limited(settings):
    settings.REQUESTS_PER_SECOND_PER_ADDRESS = 1
    settings.REQUEST_BURST_PER_ADDRESS = 5
    request_rate.buckets.clear()
    yield
    request_rate.buckets.clear()


def test_a_client_over_its_rate_is_refused_at_once_and_others_are_not(client, limited, db):
    for _ in range(5):
        assert client.get("/rules/", REMOTE_ADDR="203.0.113.7").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        over = client.get(
            "/play/1/state/", REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT="application/json"
        )
    assert over.status_code == 429
    assert over.json() == {
        "ok": False,
        "message": "Too many requests from your connection. Wait a moment, please.",
    }
    assert int(over["Retry-After"]) >= 1
    assert len(queries) == 0, "refused before the session and the view"
    assert client.get("/rules/", REMOTE_ADDR="203.0.113.8").status_code == 200


def test_a_browser_over_its_rate_reads_why_in_its_language(client, limited, db):
    for _ in range(5):
        client.get("/rules/", REMOTE_ADDR="203.0.113.9")
    page = client.get(
        "/rules/", REMOTE_ADDR="203.0.113.9", HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert page.status_code == 429
    assert "text/html" in page["Content-Type"]
    assert "Troppe richieste" in page.content.decode()


def test_the_webhook_and_the_health_check_are_not_counted(client, limited, db):
    for _ in range(20):
        assert client.get("/healthz", REMOTE_ADDR="203.0.113.10").status_code == 200
    assert client.get("/rules/", REMOTE_ADDR="203.0.113.10").status_code == 200


def test_the_bucket_refills_at_the_rate(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(request_rate.time, "monotonic", lambda: now[0])
    buckets = request_rate.Buckets()
    assert [buckets.take("a", 2, 3) for _ in range(3)] == [0, 0, 0]
    assert buckets.take("a", 2, 3) == pytest.approx(0.5)
    now[0] += 0.5
    assert buckets.take("a", 2, 3) == 0
    assert buckets.take("a", 2, 3) > 0
