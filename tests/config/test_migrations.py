"""Migrations apply from scratch on SQLite and on PostgreSQL, and none are missing."""

import os
import secrets
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from tests import services

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, **env):
    full = {**os.environ, "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), **env}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=full, capture_output=True, text=True
    )


def test_migrations_apply_on_sqlite(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.db'}"}
    proc = manage("migrate", "--noinput", **env)
    assert proc.returncode == 0, proc.stderr
    shown = manage("showmigrations", "--plan", **env)
    assert "[ ]" not in shown.stdout and "[X]  games.0001_initial" in shown.stdout


def test_no_migration_is_missing(tmp_path):
    proc = manage("makemigrations", "--check", "--dry-run", SQLITE_PATH=str(tmp_path / "m.db"))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def postgres_admin_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        services.unavailable(
            "needs PostgreSQL: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test"
        )
    return url


def test_migrations_apply_on_postgresql():
    import psycopg

    url = postgres_admin_url()
    name = f"catclub_migrate_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        fresh = url.rsplit("/", 1)[0] + f"/{name}"
        proc = manage("migrate", "--noinput", DATABASE_URL=fresh)
        assert proc.returncode == 0, proc.stderr
        with psycopg.connect(fresh) as conn:
            rows = conn.execute("SELECT indexname FROM pg_indexes WHERE schemaname='public'")
            indexes = {row[0] for row in rows}
        # The partial unique index that keeps one open game per chat exists in the database.
        assert "one_open_game_per_chat" in indexes
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db
def test_suite_database_is_what_the_environment_says():
    vendor = "postgresql" if "postgres" in os.environ.get("DATABASE_URL", "") else "sqlite"
    assert vendor == settings.DB_VENDOR
