"""One notification per change, fanned out (issue 24): a change of a game reaches every
connection of this process waiting on it, through one subscription per process (Redis
pub/sub with REDIS_URL, the process itself without), and a reader that falls behind is
given the latest change, not a backlog."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent import futures

import pytest
from django.test import Client
from django.urls import reverse

from games.play.models import Game
from games.play.signals import game_updated
from tests import services
from web.live import changes, notify, renders


@pytest.fixture(autouse=True)
def open_limits(settings):
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0


@pytest.fixture(autouse=True)
def no_earlier_pages():
    """The tests count the hub's connections: a browser page of an earlier test may still
    have a poll waiting on the live server for up to its ``TABLE_WAIT_SECONDS``. Each test
    starts once it has ended."""
    deadline = time.monotonic() + 30
    while notify.hub.connections() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert notify.hub.connections() == 0, "an earlier test left a page waiting"


def close(loop: asyncio.AbstractEventLoop) -> None:
    """A test's own loop closed with nothing pending (the clock's ticker)."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.wait(pending))
    loop.close()


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
        futures.wait(notify.hub._wake({game.pk for game in games}, {}))  # as last read
        assert given() == {game.pk: changes.token(game.pk) for game in games}
        # A change nobody announced (the bot's process on the embedded default).
        Game.objects.filter(pk=moved.pk).update(version=moved.version + 1)
        with django_assert_num_queries(1):
            rechecked = notify.hub._recheck(set())
        assert list(rechecked) == [moved.pk]
        futures.wait(notify.hub._wake(set(), rechecked))
        woken = given()
        assert woken.pop(moved.pk) == changes.token(moved.pk)
        assert set(woken.values()) == {None}, "an unchanged table is not woken"
    finally:
        for sub in subs:
            notify.hub.leave(sub)
        close(loop)


def test_a_game_being_woken_holds_up_no_other_game_and_is_woken_again_after_issue_24(
    transactional_db, settings, monkeypatch
):
    """Twenty tables changing at once were woken in rounds, each waiting for its slowest
    game: the changes announced meanwhile waited 0.2-0.5 s (``bench watchers``). Now a
    slow game holds up only itself, and a change announced while it is being woken is
    given once that wake ends, never beside it."""
    settings.REDIS_URL = ""
    slow, quick = lobby(), lobby()
    gate, entered = threading.Event(), threading.Event()
    wake_one = notify.hub._wake_one
    woken: list[int] = []

    def held(game_id, announced, token=None):
        woken.append(game_id)
        if game_id == slow.pk and not gate.is_set():
            entered.set()
            assert gate.wait(10)
        wake_one(game_id, announced, token)

    monkeypatch.setattr(notify.hub, "_wake_one", held)
    loop = asyncio.new_event_loop()

    async def join_all():
        return {game.pk: notify.hub.join(game.pk) for game in (slow, quick)}

    subs = loop.run_until_complete(join_all())
    try:
        notify.hub._wake({slow.pk, quick.pk}, {})
        assert entered.wait(10)
        assert loop.run_until_complete(subs[quick.pk].next(5)) == changes.token(quick.pk)
        assert subs[slow.pk].token is None, "the slow game is still being woken"
        notify.hub._wake({slow.pk}, {})  # a change of the slow game meanwhile
        assert woken.count(slow.pk) == 1, "never woken twice at once"
        gate.set()
        assert loop.run_until_complete(subs[slow.pk].next(5)) == changes.token(slow.pk)
        deadline = time.monotonic() + 5
        while woken.count(slow.pk) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert woken.count(slow.pk) == 2, "the change announced meanwhile is woken after"
    finally:
        gate.set()
        for sub in subs.values():
            notify.hub.leave(sub)
        close(loop)


@pytest.mark.services
def test_the_process_that_changed_a_table_sends_it_to_the_spectators_hubs_issue_24(
    transactional_db, settings, django_assert_num_queries
):
    """Every hub woken by a change read its token, took the table from Redis or waited for
    another hub to render it, and handed the game to its pool: under a crowd those steps
    were most of the wait. Now the process that made the change renders the table in the
    languages its spectators read (as their hubs noted) and sends it with the change; a
    hub wakes the pages with it, no query and no render."""
    settings.REDIS_URL = services.redis_url()
    game = lobby()
    made = renders.made
    assert notify._prepare(game.pk) == str(game.pk), "nobody watches: the id alone"
    assert renders.made == made, "a table no spectator follows is not rendered"
    loop = asyncio.new_event_loop()

    async def spectator():
        return notify.hub.join(game.pk, "it")

    sub = loop.run_until_complete(spectator())
    try:
        deadline = time.monotonic() + 10
        while notify.watched(game.pk) != ["it"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert notify.watched(game.pk) == ["it"], "the hub noted its spectator's language"
        token = changes.token(game.pk)
        message = notify._prepare(game.pk)
        assert renders.made == made + 1
        told = json.loads(message)
        assert (told["id"], told["token"], list(told["tables"])) == (game.pk, token, ["it"])
        renders.forget()  # as another process is: nothing made there
        with django_assert_num_queries(0):
            notify.hub._heard(message.encode())
        assert loop.run_until_complete(sub.next(5)) == token
        assert renders.made == made + 1, "the hub took the table the message carried"
        assert renders.peek(game.pk, token, None, "it") == told["tables"]["it"]
        # An older message (another process's, crossing this one) is not believed: the
        # hub reads the game instead, and the pages are given its token as it is.
        older = {**told, "token": "older"}
        older["tables"] = {"it": {**told["tables"]["it"], "version": -1, "token": "older"}}
        notify.hub._heard(json.dumps(older).encode())
        assert loop.run_until_complete(sub.next(5)) == token
        assert renders.peek(game.pk, "older", None, "it") is None, "its table is not kept"
    finally:
        notify.hub.leave(sub)
        close(loop)


def test_a_message_that_does_not_parse_changes_nothing_issue_24(monkeypatch):
    heard: list[tuple] = []
    monkeypatch.setattr(notify.hub, "announce", lambda *args: heard.append(args))
    monkeypatch.setattr(notify.hub, "_told", lambda *args: heard.append(args))
    for data in (b"", b"x1", b"{", b'{"id": 1}', b'{"id": "a", "token": 1, "tables": {}}'):
        notify.hub._heard(data)
    notify.hub._heard(b'{"id": 7, "token": "t", "tables": {"en": 3}}')
    notify.hub._heard(b'{"id": 7, "token": "t", "tables": {}}')
    assert heard == []
    notify.hub._heard(b"7")
    notify.hub._heard(b'{"id": 7, "token": "t", "tables": {"en": {"version": 3}}}')
    assert heard == [(7,), (7, "t", 3, {"en": {"version": 3}})]


def test_a_seats_page_is_woken_before_the_spectators_table_is_rendered_issue_25(
    transactional_db, settings, monkeypatch
):
    """The hub renders the spectators' table before waking them; a seat's page renders
    its own. Under the abuse bench, scripts long polling people's tables as spectators put
    that render in front of every click of the people playing there."""
    settings.REDIS_URL = ""
    game = lobby()
    gate, rendering = threading.Event(), threading.Event()
    payload = renders.payload

    def slow(game_id, token, player, language):
        if player is None:
            rendering.set()
            assert gate.wait(10)
        return payload(game_id, token, player, language)

    monkeypatch.setattr(renders, "payload", slow)
    loop = asyncio.new_event_loop()

    async def join_both():
        return notify.hub.join(game.pk), notify.hub.join(game.pk, "en")

    seat, spectator = loop.run_until_complete(join_both())
    try:
        notify.hub.announce(game.pk)
        assert rendering.wait(10)
        assert loop.run_until_complete(seat.next(5)) == changes.token(game.pk)
        assert spectator.token is None, "the spectators wait for their table"
        gate.set()
        assert loop.run_until_complete(spectator.next(5)) == changes.token(game.pk)
    finally:
        gate.set()
        notify.hub.leave(seat)
        notify.hub.leave(spectator)
        close(loop)
