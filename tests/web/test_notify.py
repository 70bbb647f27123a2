"""One notification per change, fanned out (issue 24): a change of a game reaches every
connection of this process waiting on it, through one subscription per process (Redis
pub/sub with REDIS_URL, the process itself without), and a reader that falls behind is
given the latest change, not a backlog."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.test import Client
from django.urls import reverse

from games.play.models import Game
from games.play.signals import game_updated
from tests import services
from web import changes, notify


@pytest.fixture(autouse=True)
def open_limits(settings):
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0


@pytest.fixture(autouse=True)
def no_earlier_pages():
    """The tests count the hub's connections: a browser page of an earlier test may still
    have a poll waiting on the live server for up to its ``TABLE_WAIT_SECONDS``. Each test
    starts once it has ended."""
    deadline = time.monotonic() + 30
    while notify.hub.connections() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert notify.hub.connections() == 0, "an earlier test left a page waiting"


def lobby() -> Game:
    data = {"game": "felix", "name": "Ann", "computers": "1", "level": ["normal"], "friends": "1"}
    assert Client().post(reverse("web:play-create"), data).status_code == 302
    return Game.objects.order_by("-pk").first()


async def heard(game_ids: list[int], announce, connections: int = 3) -> list[list[str]]:
    """What ``connections`` connections per game hear once ``announce`` ran."""
    subs = [notify.hub.join(game_id) for game_id in game_ids for _ in range(connections)]
    try:
        await asyncio.sleep(0)
        await asyncio.to_thread(announce)
        return [[await sub.next(5)] for sub in subs]
    finally:
        for sub in subs:
            notify.hub.leave(sub)


def test_a_change_reaches_every_connection_waiting_on_its_game(transactional_db, settings):
    settings.REDIS_URL = ""
    game, other = lobby(), lobby()
    got = asyncio.run(heard([game.pk], lambda: game_updated.send(Game, game_id=game.pk)))
    assert got == [[changes.token(game.pk)]] * 3
    # A game nobody here follows costs nothing: no token read, nothing queued.
    notify.publish(game_id=other.pk)
    assert notify.hub.connections() == 0


def test_a_reader_that_falls_behind_is_given_the_latest_change_only(transactional_db, settings):
    """Issue 24 item 5: nothing piles up for a slow reader; it takes the table as it is."""
    settings.REDIS_URL = ""
    game = lobby()

    async def flood():
        sub = notify.hub.join(game.pk)
        try:
            for n in range(50):
                sub.offer(f"t{n}")
            return await sub.next(5), await sub.next(0.01)
        finally:
            notify.hub.leave(sub)

    assert asyncio.run(flood()) == ("t49", None)
    assert notify.hub.connections() == 0


@pytest.mark.services
def test_through_redis_one_subscription_per_process(transactional_db, settings):
    settings.REDIS_URL = services.redis_url()
    game = lobby()

    def announce():
        assert notify.hub.subscribed.wait(10), "the process never subscribed"
        # As a worker's process does: only the message reaches this one.
        notify._redis().publish(f"{notify.channel_prefix()}{game.pk}", str(game.pk))

    got = asyncio.run(heard([game.pk], announce, connections=4))
    assert got == [[changes.token(game.pk)]] * 4
    listeners = [t for t in threading.enumerate() if t.name == "table-subscription"]
    assert len(listeners) == 1


def test_the_recheck_reads_every_followed_game_in_one_query_and_wakes_those_that_moved(
    transactional_db, settings, django_assert_num_queries
):
    """Issue 25: a crowd of followed lobbies (a hostile client's polls) cost the hub a
    connection and a query each per recheck, and announced changes waited behind them."""
    settings.REDIS_URL = ""
    games = [lobby() for _ in range(6)]
    moved = games[2]
    loop = asyncio.new_event_loop()

    async def join_all():
        return [notify.hub.join(game.pk) for game in games]

    def given() -> dict[int, str | None]:
        """What each page was handed since the last look (the hub wakes them in their loop)."""
        loop.run_until_complete(asyncio.sleep(0.05))
        found = {sub.game_id: sub.token for sub in subs}
        for sub in subs:
            sub.token = None
        return found

    subs = loop.run_until_complete(join_all())
    try:
        notify.hub._wake({game.pk for game in games}, {})  # as the hub last read them
        assert given() == {game.pk: changes.token(game.pk) for game in games}
        # A change nobody announced (the bot's process on the embedded default).
        Game.objects.filter(pk=moved.pk).update(version=moved.version + 1)
        with django_assert_num_queries(1):
            rechecked = notify.hub._recheck(set())
        assert list(rechecked) == [moved.pk]
        notify.hub._wake(set(), rechecked)
        woken = given()
        assert woken.pop(moved.pk) == changes.token(moved.pk)
        assert set(woken.values()) == {None}, "an unchanged table is not woken"
    finally:
        for sub in subs:
            notify.hub.leave(sub)
        loop.close()
