"""Production is safe by default: the example settings pass `manage.py check --deploy`
without a warning, the example's placeholder key is refused, HTTPS is enforced when the
site is https. Each run starts a fresh Python with only the environment given."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def example_env() -> dict[str, str]:
    """The uncommented KEY=value lines of .env.example."""
    values = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def run(tmp_path, args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CELERY_", "TELEGRAM_", "SECURE_", "SITE_URL"))
        and k not in ("DATABASE_URL", "REDIS_URL")
    }
    # DJANGO_DEBUG=0 outweighs a developer's local .env (which turns DEBUG on).
    clean.update(DJANGO_DEBUG="0", SQLITE_PATH=str(tmp_path / "x.db"))
    clean.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def production(**overrides: str) -> dict[str, str]:
    return {**example_env(), "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), **overrides}


SECURITY = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({k: getattr(settings, k) for k in (
    "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SECURE_PROXY_SSL_HEADER", "DEBUG")}))
"""


def security(tmp_path, **env: str) -> dict:
    proc = run(tmp_path, ["-c", SECURITY], DJANGO_SETTINGS_MODULE="config.settings", **env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_check_deploy_is_clean_with_the_example_production_settings(tmp_path):
    """.env.example with its placeholder key replaced, DEBUG off, an https SITE_URL:
    no warning (W004 HSTS, W008 SSL redirect, W009 weak key were reported before)."""
    env = production()
    assert env["SITE_URL"].startswith("https://") and "DJANGO_DEBUG" not in example_env()
    proc = run(tmp_path, ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "System check identified no issues" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize("debug", ["0", "1"])
def test_the_placeholder_secret_key_of_the_example_is_refused_at_start(tmp_path, debug):
    env = example_env()
    from config.settings import PLACEHOLDER_SECRET_KEY

    assert env["DJANGO_SECRET_KEY"] == PLACEHOLDER_SECRET_KEY  # the example's, exactly
    proc = run(tmp_path, ["manage.py", "check"], **{**env, "DJANGO_DEBUG": debug})
    assert proc.returncode != 0
    assert "ImproperlyConfigured" in proc.stderr
    assert "DJANGO_SECRET_KEY is still the placeholder from .env.example" in proc.stderr


def test_a_missing_secret_key_is_refused_in_production(tmp_path):
    env = {k: v for k, v in example_env().items() if k != "DJANGO_SECRET_KEY"}
    proc = run(tmp_path, ["manage.py", "check"], **env)
    assert proc.returncode != 0
    assert "DJANGO_SECRET_KEY is required when DJANGO_DEBUG is off" in proc.stderr


def test_hsts_and_ssl_redirect_are_on_by_default_when_the_site_is_https(tmp_path):
    conf = security(tmp_path, **production())
    assert conf["DEBUG"] is False
    assert conf["SECURE_SSL_REDIRECT"] is True
    assert conf["SECURE_HSTS_SECONDS"] >= 365 * 24 * 3600
    assert conf["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert conf["SECURE_HSTS_PRELOAD"] is False  # the domain owner's decision (W021 silenced)
    assert conf["SESSION_COOKIE_SECURE"] and conf["CSRF_COOKIE_SECURE"]
    assert conf["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_the_environment_can_still_turn_hsts_and_the_redirect_off_or_preload_on(tmp_path):
    conf = security(
        tmp_path,
        **production(
            DJANGO_SSL_REDIRECT="0",
            DJANGO_HSTS_SECONDS="0",
            DJANGO_HSTS_INCLUDE_SUBDOMAINS="0",
        ),
    )
    assert conf["SECURE_SSL_REDIRECT"] is False and conf["SECURE_HSTS_SECONDS"] == 0
    assert conf["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert security(tmp_path, **production(DJANGO_HSTS_PRELOAD="1"))["SECURE_HSTS_PRELOAD"]


def test_a_plain_http_site_neither_redirects_nor_sends_hsts(tmp_path):
    conf = security(tmp_path, **production(SITE_URL="http://127.0.0.1:8000"))
    assert conf["SECURE_SSL_REDIRECT"] is False and conf["SECURE_HSTS_SECONDS"] == 0
    conf = security(tmp_path, DJANGO_DEBUG="1", SITE_URL="https://catclub.example.org")
    assert conf["SECURE_SSL_REDIRECT"] is False and conf["SECURE_HSTS_SECONDS"] == 0


@pytest.mark.django_db
def test_the_redirect_spares_the_health_check_that_asks_gunicorn_over_http(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.REDIS_URL = ""
    assert client.get("/healthz").status_code == 200
    response = client.get("/admin/login/")
    assert response.status_code == 301 and response["Location"].startswith("https://")
    https = client.get("/admin/login/", HTTP_X_FORWARDED_PROTO="https", secure=True)
    assert https.status_code == 200
