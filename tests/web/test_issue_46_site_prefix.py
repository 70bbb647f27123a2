"""Two sites on one Redis (issue 46 item 4): every key and pub/sub channel a site writes
carries its ``SITE_PREFIX``. Pub/sub ignores Redis's database number, so before it a move
published by one site woke the pages of the other's table with the same id."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from games.play.models import Game
from server.cache import RedisCache
from tests import services
from web.live import changes, notify

SITE_A = f"site-a-{uuid.uuid4().hex[:8]}:"
SITE_B = f"site-b-{uuid.uuid4().hex[:8]}:"


@pytest.fixture(autouse=True)
def open_limits(settings):
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0


def lobby() -> Game:
    data = {"game": "felix", "name": "Ann", "computers": "1", "level": ["normal"], "friends": "1"}
    assert Client().post(reverse("web:play-create"), data).status_code == 302
    return Game.objects.order_by("-pk").first()


@pytest.mark.services
def test_issue_46_a_move_published_by_one_site_wakes_no_page_of_another(transactional_db, settings):
    """Site B's process follows its table N; site A publishes a change of its own table N
    on the same Redis: B's page sleeps on. B's own change of N wakes it."""
    settings.REDIS_URL = services.redis_url()
    game = lobby()
    # This process is site B (its hub subscribed under the run's own prefix); site A is
    # another site's worker on the same Redis, whose table has the same id.
    site_b = notify.hub
    own = settings.SITE_PREFIX
    assert own not in (SITE_A, "")

    def publish_as(prefix: str) -> None:
        settings.SITE_PREFIX = prefix
        try:
            notify._send(game.pk)  # as ``game_updated`` sends it, after the commit
        finally:
            settings.SITE_PREFIX = own

    async def follow() -> tuple[str | None, str | None]:
        sub = site_b.join(game.pk)
        try:
            assert await asyncio.to_thread(site_b.subscribed.wait, 10)
            # A new subscription reads every followed game once (``Hub.recheck_all``):
            # that wake is not a message's. Waited for whole (a busy machine delays it
            # past a second), so that it cannot be taken for site A's below.
            await sub.next(10)
            await asyncio.to_thread(publish_as, SITE_A)
            # Longer than a message takes; shorter than the hub's recheck (5 s with Redis),
            # which would read the token and, unchanged, wake nobody anyway.
            from_a = await sub.next(1.5)
            await asyncio.to_thread(publish_as, own)
            from_b = await sub.next(5)
            return from_a, from_b
        finally:
            site_b.leave(sub)

    from_a, from_b = asyncio.run(follow())
    assert from_a is None, "site A's move woke a page of site B"
    assert from_b == changes.token(game.pk)


def test_issue_46_the_channels_carry_the_site_prefix(settings):
    settings.SITE_PREFIX = SITE_A
    assert notify.channel_prefix() == f"{SITE_A}table:"
    settings.SITE_PREFIX = SITE_B
    assert notify.channel_prefix() == f"{SITE_B}table:"


@pytest.mark.services
def test_issue_46_two_sites_keys_do_not_collide_on_one_redis_database(settings):
    """The same cache key (a table's change marker) written by two sites on one database
    of one Redis: each reads its own."""
    url = services.redis_url()
    site_a = RedisCache(url, {"KEY_PREFIX": SITE_A})
    site_b = RedisCache(url, {"KEY_PREFIX": SITE_B})
    key = "table:marker:1"
    try:
        site_a.set(key, "a's", 30)
        site_b.set(key, "b's", 30)
        assert (site_a.get(key), site_b.get(key)) == ("a's", "b's")
        site_a.delete(key)
        assert (site_a.get(key), site_b.get(key)) == (None, "b's")
    finally:
        site_a.delete(key)
        site_b.delete(key)


def _site_settings(**env: str) -> dict:
    """What ``config.settings`` makes of ``env`` in a process of its own (no SITE_PREFIX
    given: its default)."""
    code = (
        "import json; from django.conf import settings; "
        "print(json.dumps({'prefix': settings.SITE_PREFIX, "
        "'cache': settings.CACHES['default'].get('KEY_PREFIX'), "
        "'broker': settings.CELERY_BROKER_TRANSPORT_OPTIONS.get('global_keyprefix'), "
        "'results': settings.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS.get('global_keyprefix')}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("SITE_PREFIX", "CELERY_QUEUE")}
    base.update(DJANGO_SETTINGS_MODULE="config.settings", REDIS_URL="redis://127.0.0.1:6379/3")
    base.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=base,
        cwd=django_settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_issue_46_two_sites_on_one_redis_get_different_prefixes_by_default():
    """Two sites with their own database (and the same Redis, even the same database
    number): different prefixes, with no setting made. One site's processes (the same
    environment): the same one. Every Redis name of the site carries it."""
    secret = "a-secret-for-this-test-only-0123456789-abcdefghijklmnopqrstuvwxyz"
    one = _site_settings(DATABASE_URL="postgres://u@db:5432/one", DJANGO_SECRET_KEY=secret)
    # Another machine of the same site, which reaches the database by its address.
    again = _site_settings(DATABASE_URL="postgres://u@10.0.0.5:5432/one", DJANGO_SECRET_KEY=secret)
    two = _site_settings(DATABASE_URL="postgres://u@db:5432/two", DJANGO_SECRET_KEY=secret)
    other_secret = _site_settings(
        DATABASE_URL="postgres://u@db:5432/one", DJANGO_SECRET_KEY=secret[::-1]
    )
    assert len({one["prefix"], two["prefix"], other_secret["prefix"]}) == 3
    assert one == again
    for site in (one, two):
        assert site["cache"] == site["broker"] == site["results"] == site["prefix"]
    named = _site_settings(
        DATABASE_URL="postgres://u@db:5432/two", DJANGO_SECRET_KEY=secret, SITE_PREFIX="mine:"
    )
    assert named["prefix"] == named["cache"] == "mine:"
