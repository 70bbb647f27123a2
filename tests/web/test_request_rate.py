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


def test_a_refused_request_costs_its_client_more_and_others_nothing_issue_25(
    client, limited, settings, db
):
    """A script probing other people's tables or odd addresses is refused at every other
    request, each one a whole request; a refusal costs its client
    ``REQUEST_COST_OF_REFUSAL`` requests, so that it reaches its rate far sooner than a
    person, whose pages are not refused."""
    settings.REQUEST_COST_OF_REFUSAL = 3
    assert client.get("/no-such-page/", REMOTE_ADDR="203.0.113.20").status_code == 404
    assert client.get("/no-such-page/", REMOTE_ADDR="203.0.113.20").status_code == 404
    # 2 requests + 2 refusals × 3 > the burst of 5: refused at once now.
    assert client.get("/rules/", REMOTE_ADDR="203.0.113.20").status_code == 429
    for _ in range(5):  # answered, never refused: the plain rate
        assert client.get("/rules/", REMOTE_ADDR="203.0.113.21").status_code == 200
    assert client.get("/rules/", REMOTE_ADDR="203.0.113.21").status_code == 429


def test_a_refusal_takes_the_bucket_below_empty_by_a_burst_at_most(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(request_rate.time, "monotonic", lambda: now[0])
    buckets = request_rate.Buckets()
    for _ in range(10):
        buckets.charge("a", 10, 2, 4)
    assert buckets.level("a", 2, 4) == -4
    assert buckets.take("a", 2, 4) == pytest.approx(2.5), "(1 + 4) / 2 seconds to wait"
