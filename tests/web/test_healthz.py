import pytest

from server import health


@pytest.mark.django_db
def test_healthz_reports_database_and_redis(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "not configured"}


@pytest.mark.django_db
def test_healthz_fails_when_redis_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["redis"].startswith("error")


@pytest.mark.django_db
def test_healthz_with_real_redis(client, settings, redis_url):
    settings.REDIS_URL = redis_url
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok", "redis": "ok"}


def test_healthz_fails_when_database_is_down(client, monkeypatch):
    monkeypatch.setattr(health, "check_database", lambda: "error: OperationalError")
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"
