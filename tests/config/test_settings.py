"""Settings load with and without the service URLs, and are safe by default."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEY = secrets.token_urlsafe(50)

PROBE = """
import json
from django.conf import settings
import django
django.setup()
from config.celery import app
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "options": settings.DATABASES["default"].get("OPTIONS", {}),
    "cache": settings.CACHES["default"]["BACKEND"],
    "broker": app.conf.broker_url,
    "eager": app.conf.task_always_eager,
    "acks_late": app.conf.task_acks_late,
    "prefetch": app.conf.worker_prefetch_multiplier,
    "accept": app.conf.accept_content,
    "debug": settings.DEBUG,
    "hosts": settings.ALLOWED_HOSTS,
    "secure_cookies": settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE,
    "refusal_cost": settings.REQUEST_COST_OF_REFUSAL,
}))
"""


def load(tmp_path, **env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    clean.pop("DATABASE_URL", None)
    clean.pop("REDIS_URL", None)
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", SQLITE_PATH=str(tmp_path / "x.db"))
    clean.update(env)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    return proc


def test_embedded_default_is_sqlite_wal_and_in_process_tasks(tmp_path):
    proc = load(tmp_path, DJANGO_SECRET_KEY=KEY)
    assert proc.returncode == 0, proc.stderr
    conf = json.loads(proc.stdout)
    assert conf["engine"] == "server.sqlite"  # Django's, its writers in turns (issue 25)
    assert "journal_mode=WAL" in conf["options"]["init_command"]
    assert conf["options"]["timeout"] >= 5
    assert conf["options"]["transaction_mode"] == "IMMEDIATE"
    assert conf["eager"] is True
    assert conf["cache"].endswith("LocMemCache")
    # Issue 25: a refusal costs its client requests, bringing its 429 sooner.
    assert conf["refusal_cost"] == 10


def test_service_urls_switch_to_postgres_and_redis(tmp_path):
    proc = load(
        tmp_path,
        DJANGO_SECRET_KEY=KEY,
        DATABASE_URL="postgres://u@db.invalid:5432/catclub",
        REDIS_URL="redis://cache.invalid:6379/0",
    )
    assert proc.returncode == 0, proc.stderr
    conf = json.loads(proc.stdout)
    assert conf["engine"] == "django.db.backends.postgresql"
    assert conf["broker"] == "redis://cache.invalid:6379/0"
    assert conf["eager"] is False
    assert conf["cache"].endswith("RedisCache")
    assert conf["acks_late"] is True and conf["prefetch"] == 1
    assert conf["accept"] == ["json"]
    # Issue 25: no request waits by standing there; a cost only made people wait longer.
    assert conf["refusal_cost"] == 0


def test_production_requires_a_secret_key(tmp_path):
    proc = load(tmp_path)
    assert proc.returncode != 0
    assert "DJANGO_SECRET_KEY is required" in proc.stderr


def test_production_is_safe_by_default(tmp_path):
    proc = load(
        tmp_path,
        DJANGO_SECRET_KEY=KEY,
        SITE_URL="https://catclub.example",
        DJANGO_ALLOWED_HOSTS="catclub.example",
    )
    conf = json.loads(proc.stdout)
    assert conf["debug"] is False
    assert conf["hosts"] == ["catclub.example"]
    assert conf["secure_cookies"] is True


def test_debug_allows_local_hosts_without_a_key(tmp_path):
    proc = load(tmp_path, DJANGO_DEBUG="1")
    conf = json.loads(proc.stdout)
    assert conf["debug"] is True and "127.0.0.1" in conf["hosts"]
    assert conf["secure_cookies"] is False


@pytest.mark.parametrize(
    "key",
    [
        "x",
        "k" * 49,  # too short
        "ab" * 40,  # long, but two characters
        "django-insecure-" + "a1b2c3d4e5" * 5,  # what startproject writes
    ],
)
def test_production_refuses_a_weak_secret_key(tmp_path, key):
    proc = load(tmp_path, DJANGO_SECRET_KEY=key)
    assert proc.returncode != 0
    assert "ImproperlyConfigured" in proc.stderr
    assert "DJANGO_SECRET_KEY is too weak for production" in proc.stderr


def test_debug_takes_any_key(tmp_path):
    proc = load(tmp_path, DJANGO_DEBUG="1", DJANGO_SECRET_KEY="x")
    assert proc.returncode == 0, proc.stderr
