"""The table page's long poll under a crowd (issue 25): while its table does not change, a
waiting poll costs no query and holds no database connection; a change wakes it within a
fraction of a second; a process holds only ``LONG_POLLS_PER_PROCESS`` waiting polls, and
one past them is answered at once, without a query, with when to ask again. A poll waits
on the process's hub (``notify``), as a stream does: under ASGI it holds no thread."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.play import services
from games.play.models import Game
from games.play.table import Table
from web.live import changes, notify, renders, slots


@pytest.fixture(autouse=True)
def polls(settings):
    settings.TABLE_WAIT_SECONDS = 3.0
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 8
    settings.LONG_POLLS_PER_PROCESS = 4
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0


def lobby(client: Client) -> Game:
    """A browser lobby waiting for a friend: nothing changes there by itself."""
    data = {"game": "felix", "name": "Ann", "computers": "1", "level": ["normal"], "friends": "1"}
    assert client.post(reverse("web:play-create"), data).status_code == 302
    return Game.objects.order_by("-pk").first()


def state(client: Client, game: Game, token: str = "", wait: float | None = None):
    url = reverse("web:table-state", args=[game.pk]) + f"?token={token}"
    return client.get(url + ("" if wait is None else f"&wait={wait}"))


def test_a_poll_that_waited_in_vain_answers_its_token_alone(transactional_db):
    """A poll whose table did not change gets no table back (the page has it, and keeps
    it when the token is the one it sent): each render of a quiet lobby for each of its
    polls, five seconds apart, was most of what such pages cost (issue 25). A poll past
    its token still gets the table."""
    client = Client()
    game = lobby(client)
    first = state(client, game, wait=0).json()
    assert "tablebox" in first["html"]
    made = renders.made
    for wait in (0, 0.3):
        answer = state(client, game, first["token"], wait=wait)
        assert answer.status_code == 200 and answer.json() == {"token": first["token"]}
    assert renders.made == made
    assert "tablebox" in state(client, game, "an-older-token", wait=0).json()["html"]


def test_a_waiting_poll_makes_no_query_while_nothing_changes(transactional_db):
    client = Client()
    game = lobby(client)
    token = state(client, game, wait=0).json()["token"]
    with CaptureQueriesContext(connection) as answered_at_once:
        assert state(client, game, token, wait=0).status_code == 200
    started = time.monotonic()
    with CaptureQueriesContext(connection) as waited:
        assert state(client, game, token, wait=2.5).json()["token"] == token
    assert time.monotonic() - started >= 2.5
    # The same queries as a poll that does not wait, and one look at the database a
    # second (RECHECK_SECONDS) at most: the old loop asked it ten times a second.
    assert len(waited) <= len(answered_at_once) + 3, [q["sql"] for q in waited]


def poll_in_thread(client: Client, game: Game, token: str, seen: dict) -> threading.Thread:
    def poll():
        try:
            seen["answer"] = state(client, game, token).json()
            seen["at"] = time.monotonic()
        finally:
            connection.close()

    thread = threading.Thread(target=poll)
    thread.start()
    return thread


@pytest.mark.parametrize("change", ["a computer sits down", "a move"])
def test_a_change_wakes_a_waiting_poll_at_once(transactional_db, change):
    client = Client()
    game = lobby(client)
    if change == "a move":
        services.add_computer(game, by=services.SYSTEM)
        services.start(game, by=services.SYSTEM)
    token = state(client, game, wait=0).json()["token"]
    seen: dict = {}
    thread = poll_in_thread(client, game, token, seen)
    time.sleep(1.2)  # waiting, and past a look at the database of its own (RECHECK_SECONDS)
    assert "answer" not in seen
    changed_at = time.monotonic()
    if change == "a move":
        game.refresh_from_db()
        seat = game.seats.filter(player__isnull=False).get()
        action = Table(game).legal(seat.number)[0]
        services.submit_move(game.pk, seat.player, action, "k1", game.version)
    else:
        services.add_computer(game, by=services.SYSTEM)
    thread.join(5)
    assert seen["answer"]["token"] != token
    assert seen["at"] - changed_at < 0.5


@pytest.mark.parametrize("announced", [True, False])
def test_a_change_made_in_another_process_wakes_a_waiting_poll(
    transactional_db, settings, announced
):
    """A worker (production) or the bot's process changed the game and published it
    (``notify``: Redis pub/sub, or this process's hub on the embedded default): the poll
    wakes at once. A change that nobody announced shows at the hub's next recheck."""
    settings.TABLE_WAIT_SECONDS = notify.RECHECK_SECONDS_REDIS + 3
    client = Client()
    game = lobby(client)
    token = state(client, game, wait=0).json()["token"]
    seen: dict = {}
    thread = poll_in_thread(client, game, token, seen)
    time.sleep(0.5)
    changed_at = time.monotonic()
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)  # no signal here
    if announced:
        changes._move_marker(game.pk)
        notify._send(game.pk)
    thread.join(settings.TABLE_WAIT_SECONDS + 2)
    assert seen["answer"]["token"] != token
    took = seen["at"] - changed_at
    if announced:
        assert took < 0.5
    else:
        recheck = (
            notify.RECHECK_SECONDS_REDIS if settings.REDIS_URL else notify.RECHECK_SECONDS_LOCAL
        )
        assert took < recheck + 0.5


def test_a_waiting_poll_holds_no_database_connection(transactional_db, monkeypatch):
    """While it waits, the poll's thread has given its connection back (to the pool on
    PostgreSQL): a crowd of waiting polls does not exhaust the database's connections."""
    client = Client()
    game = lobby(client)
    token = state(client, game, wait=0).json()["token"]
    held: list[bool] = []
    look = changes.token

    def watched(game_id):
        held.append(connection.connection is not None)
        return look(game_id)

    monkeypatch.setattr(changes, "token", watched)
    seen: dict = {}
    poll_in_thread(client, game, token, seen).join(10)
    assert seen["answer"]["token"] == token
    waiting = held[1:]  # the first look is on arrival, with the request's connection
    assert waiting and not any(waiting)


def test_a_poll_past_the_process_limit_is_answered_at_once_without_a_query(
    db, settings, django_capture_on_commit_callbacks
):
    settings.LONG_POLLS_PER_PROCESS = 1
    client = Client()
    game = lobby(client)
    token = state(client, game, wait=0).json()["token"]
    with slots.parked_poll() as placed:  # another page's poll waits in this process
        assert placed
        started = time.monotonic()
        first = state(client, game, token)
        with CaptureQueriesContext(connection) as again:
            second = state(client, game, token)
        assert time.monotonic() - started < 1
        for answer in (first, second):
            assert answer.status_code == 429
            assert 0 < answer.json()["retry_ms"] <= 1000
            assert answer["Retry-After"] == "1"
        assert len(again) == 0, [q["sql"] for q in again]
        # The table changed: past the limit too, the poll brings it at once.
        with django_capture_on_commit_callbacks(execute=True):
            services.add_computer(game, by=services.SYSTEM)
        changed = state(client, game, token)
        assert changed.status_code == 200 and changed.json()["token"] != token
    # Its place free again, a poll waits there.
    started = time.monotonic()
    assert state(client, game, changed.json()["token"], wait=0.5).status_code == 200
    assert time.monotonic() - started >= 0.5


def test_the_places_are_given_back_whatever_happens(db, settings):
    settings.LONG_POLLS_PER_PROCESS = 2
    client = Client(raise_request_exception=False)
    game = lobby(client)
    token = state(client, game, wait=0).json()["token"]
    for _ in range(3):
        assert state(client, game, token, wait=0.2).status_code == 200
        assert client.get(reverse("web:table-state", args=[10**9])).status_code == 404
    assert slots._parked == 0


@pytest.mark.services
def test_a_table_page_whose_poll_finds_no_place_asks_again_and_shows_the_change(
    page, live_server, settings
):
    """The page follows the server's ``retry_ms``: quietly (no message), and soon enough
    that a change shows within a second or so."""
    settings.LONG_POLLS_PER_PROCESS = 1
    client = Client()
    game = lobby(client)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    with slots.parked_poll():  # another page's poll holds this process's one place
        page.goto(live_server.url + reverse("web:table", args=[game.pk]))
        page.wait_for_timeout(1500)  # its polls are answered "ask again", and it does
        services.add_computer(game, by=services.SYSTEM)
        changed_at = time.monotonic()
        page.wait_for_function(
            "() => document.querySelector('.seats').innerText.includes('Computer 3')",
            timeout=5000,
        )
        took = time.monotonic() - changed_at
        toast = page.evaluate("() => document.getElementById('toast').textContent")
    assert took < 2.5
    assert toast.strip() == ""
    assert [p for p in page.problems if "429" not in p] == []
