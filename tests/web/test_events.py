"""The table pushed to its page (issue 24): server-sent events from an async view. A
stream starts with the table when the page's is not the current one, sends each change
once, says nothing to a page that is up to date but its heartbeats, ends after its
lifetime; it reads its parameters strictly, counts against the address's live
connections, and shows each viewer what the long poll shows them: a spectator no card a
seat keeps secret. One render serves every spectator of a change."""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse

from games.play.models import Game
from games.play.table import Table
from web.live import changes, notify, renders

pytestmark = pytest.mark.django_db(transaction=True)  # the hub reads from its own thread

ACTION = re.compile(r'data-action="([^"]+)"')
CODE = re.compile(r'data-code="([^"]+)"')


@pytest.fixture(autouse=True)
def short_streams(settings):
    settings.LIVE_STREAM_SECONDS = 3.0
    settings.LIVE_HEARTBEAT_SECONDS = 0.5
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 8
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0


def new_table(client: Client, slug: str = "felix") -> Game:
    """A running table: Ann in this browser, with computers."""
    data = {"game": slug, "name": "Ann", "computers": "2"}
    assert client.post(reverse("web:play-create"), data).status_code == 302
    return Game.objects.order_by("-pk").first()


def url(game: Game, token: str = "") -> str:
    return reverse("web:table-events", args=[game.pk]) + f"?token={token}"


def as_async(client: Client | None = None) -> AsyncClient:
    other = AsyncClient()
    if client is not None:
        other.cookies = client.cookies
    return other


async def next_event(stream) -> tuple[str, dict] | None:
    """The next event's id and data (comments and the retry line skipped); None at the
    stream's end."""
    async for chunk in stream:
        text = chunk.decode()
        if text.startswith((":", "retry:")):
            continue
        fields = dict(line.split(": ", 1) for line in text.strip().split("\n"))
        return fields["id"], json.loads(fields["data"])
    return None


async def drained(stream) -> list[bytes]:
    return [chunk async for chunk in stream]


async def subscribed():
    """With Redis, a change is heard once this process's subscription stands."""
    from django.conf import settings

    if settings.REDIS_URL:
        assert await asyncio.to_thread(notify.hub.subscribed.wait, 10)


async def play_one(client: Client, game: Game) -> None:
    def move():
        html = client.get(reverse("web:table-state", args=[game.pk]) + "?wait=0").json()
        action = ACTION.findall(html["html"])[0]
        version = Game.objects.get(pk=game.pk).version
        data = {"action": action, "version": version, "key": f"k{version}"}
        assert client.post(reverse("web:table-move", args=[game.pk]), data).json()["ok"]

    await sync_to_async(move)()


def test_a_spectator_gets_the_table_at_once_then_each_change():
    ann = Client()
    game = new_table(ann)

    async def watch():
        response = await as_async().get(url(game))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert response["Cache-Control"] == "no-cache"
        stream = aiter(response.streaming_content)
        first_id, first = await next_event(stream)
        assert first_id == first["token"] == await sync_to_async(changes.token)(game.pk)
        assert 'class="tablebox"' in first["html"] and 'class="choices"' not in first["html"]
        await subscribed()
        await play_one(ann, game)
        second_id, second = await next_event(stream)
        assert second_id == second["token"] != first_id
        assert second["version"] > first["version"]
        rest = await drained(stream)  # ends by itself: its lifetime
        assert b":\n\n" in rest  # heartbeats meanwhile

    async_to_sync(watch)()
    assert notify.hub.connections() == 0


def test_a_page_that_has_the_table_gets_nothing_but_heartbeats_until_it_changes():
    game = new_table(Client())
    token = changes.token(game.pk)

    async def watch(**headers):
        response = await as_async().get(url(game, "stale"), headers=headers)
        return await drained(aiter(response.streaming_content))

    # A reconnection's Last-Event-ID wins over the address's token.
    chunks = async_to_sync(watch)(**{"Last-Event-ID": token})
    assert chunks[0].startswith(b"retry:")
    assert set(chunks[1:]) == {b":\n\n"}
    chunks = async_to_sync(watch)()
    assert any(c.startswith(b"id: " + token.encode()) for c in chunks)


def test_a_spectator_and_a_seat_get_what_their_views_allow():
    ann = Client()
    game = new_table(ann)

    async def both():
        seat = aiter((await as_async(ann).get(url(game))).streaming_content)
        public = aiter((await as_async().get(url(game))).streaming_content)
        mine, theirs = (await next_event(seat))[1], (await next_event(public))[1]
        await asyncio.gather(drained(seat), drained(public))
        return mine, theirs

    mine, theirs = async_to_sync(both)()
    assert mine["token"] == theirs["token"] and mine["version"] == theirs["version"]
    table = Table(Game.objects.get(pk=game.pk))
    me = game.seats.get(player__isnull=False).number
    public = set(json.dumps(table.view(None)).split('"'))
    private = set(json.dumps(table.view(me)).split('"')) - public
    shown_to_seat, shown_to_all = set(CODE.findall(mine["html"])), set(CODE.findall(theirs["html"]))
    assert shown_to_seat & private, "the seat sees its own hand"
    assert not shown_to_all & private, "a spectator sees no card the seat keeps"
    assert 'class="choices"' in mine["html"] and 'class="choices"' not in theirs["html"]


def test_one_render_serves_every_spectator_of_a_change():
    ann = Client()
    game = new_table(ann)

    async def crowd():
        streams = [aiter((await as_async().get(url(game))).streaming_content) for _ in range(5)]
        firsts = [await next_event(s) for s in streams]
        await subscribed()
        before = renders.made
        await play_one(ann, game)  # its own state poll renders Ann's seat: one more
        seconds = [await next_event(s) for s in streams]
        made = renders.made - before
        await asyncio.gather(*(drained(s) for s in streams))
        return firsts, seconds, made

    firsts, seconds, made = async_to_sync(crowd)()
    assert len({json.dumps(f) for f in firsts}) == 1
    assert len({json.dumps(s) for s in seconds}) == 1
    assert made == 2, "Ann's seat once (her poll before the move), the public once"


def test_parameters_are_read_strictly():
    game = new_table(Client())

    async def asked():
        client = as_async()
        too_long = await client.get(url(game, "x" * 101))
        nul = await client.get(url(game, "a%00b"))
        header = await client.get(url(game), headers={"Last-Event-ID": "x" * 101})
        posted = await client.post(url(game))
        missing = await client.get(reverse("web:table-events", args=[game.pk + 1000]))
        return too_long, nul, header, posted, missing

    too_long, nul, header, posted, missing = async_to_sync(asked)()
    assert too_long.status_code == nul.status_code == header.status_code == 400
    assert header.json()["ok"] is False and "token" in header.json()["message"]
    assert posted.status_code == 405
    assert missing.status_code == 404


def test_streams_count_against_the_addresss_live_connections(settings):
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 1
    game = new_table(Client())

    async def two():
        first = await as_async().get(url(game))
        second = await as_async().get(url(game))
        chunks = await drained(aiter(first.streaming_content))
        third = await as_async().get(url(game))  # the first gave its slot back
        await drained(aiter(third.streaming_content))
        return first.status_code, second, chunks, third.status_code

    first, second, _chunks, third = async_to_sync(two)()
    assert first == 200 and third == 200
    assert second.status_code == 429 and "Too many pages" in second.json()["message"]
    # The long poll shares the address's slots: while nothing streams, it waits.
    assert Client().get(reverse("web:table-state", args=[game.pk]) + "?wait=0").status_code == 200


def test_past_the_process_limit_a_page_is_told_to_poll(settings):
    settings.LIVE_STREAMS_PER_PROCESS = 1
    game = new_table(Client())

    async def two():
        first = await as_async().get(url(game))
        stream = aiter(first.streaming_content)
        await next_event(stream)  # it waits in the hub now
        second = await as_async().get(url(game))
        await drained(stream)
        return second

    second = async_to_sync(two)()
    assert second.status_code == 429 and second.json()["retry_ms"] > 0


def test_under_wsgi_the_page_is_told_to_poll():
    """Django's WSGI handler would read the whole stream before sending any of it."""
    game = new_table(Client())
    assert Client().get(url(game)).status_code == 204


def test_with_redis_every_process_shares_the_publics_render(redis_url, settings):
    """Issue 24, "render once per audience" across the site's processes (the live
    service's workers, several machines): a process that did not render a table takes the
    public's render another made, from Redis, while it is fresh; a seat's is its own."""
    settings.REDIS_URL = redis_url
    ann = Client()
    game = new_table(ann)
    token = changes.token(game.pk)
    before = renders.made
    made_here = renders.payload(game.pk, token, None, "en")
    renders.forget()  # what another process has in memory: nothing
    taken = renders.payload(game.pk, token, None, "en")
    assert taken == made_here
    assert renders.made - before == 1, "the other process took the render, made none"

    renders.forget()
    renders.payload(game.pk, token, None, "it")  # another language: its own render
    assert renders.made - before == 2

    ann_player = Game.objects.get(pk=game.pk).seats.exclude(player=None).get().player
    renders.payload(game.pk, token, ann_player, "en")
    renders.forget()
    renders.payload(game.pk, token, ann_player, "en")
    assert renders.made - before == 4, "a seat's table is never taken from elsewhere"


def test_a_shared_render_past_its_freshness_is_made_again(redis_url, settings, monkeypatch):
    """The turn clock in a table counts from its render: one older than FRESH_SECONDS is
    not served, by this process or another."""
    settings.REDIS_URL = redis_url
    game = new_table(Client())
    token = changes.token(game.pk)
    before = renders.made
    renders.payload(game.pk, token, None, "en")
    renders.forget()
    later = time.time() + renders.FRESH_SECONDS + 1
    monkeypatch.setattr(renders.time, "time", lambda: later)
    renders.payload(game.pk, token, None, "en")
    assert renders.made - before == 2


def test_without_redis_at_hand_a_spectator_still_gets_the_table(redis_url, settings, monkeypatch):
    """The shared render is a saving, not a dependency: Redis away, the process renders
    the table itself (and logs it) instead of failing the page."""
    settings.REDIS_URL = redis_url
    game = new_table(Client())
    token = changes.token(game.pk)

    def away(*args, **kwargs):
        raise ConnectionError("Redis is restarting")

    monkeypatch.setattr(renders.cache, "get", away)
    monkeypatch.setattr(renders.cache, "set", away)
    before = renders.made
    data = renders.payload(game.pk, token, None, "en")
    assert data["token"] == token and "tablebox" in data["html"]
    assert renders.made - before == 1


def test_a_table_without_a_clock_is_rendered_once_while_it_stays(monkeypatch, settings):
    """A render is served for FRESH_SECONDS when its table shows a turn clock (the clock
    counts from the render) and for STILL_SECONDS when it shows none (a lobby): a page
    left open on a quiet lobby, reloaded or polled again and again, costs no render.
    (This process's renders only: the ones shared through Redis are tested above.)"""
    settings.REDIS_URL = ""
    client = Client()
    data = {"game": "felix", "name": "Ann", "computers": "1", "friends": "1"}
    assert client.post(reverse("web:play-create"), data).status_code == 302
    lobby = Game.objects.order_by("-pk").first()
    running = new_table(Client())
    assert running.deadline is not None, "a running table with its turn clock"
    now = time.monotonic()
    monkeypatch.setattr(renders.time, "monotonic", lambda: now)
    before = renders.made
    for game in (lobby, running):
        renders.payload(game.pk, changes.token(game.pk), None, "en")
    assert renders.made - before == 2

    now += renders.FRESH_SECONDS + 0.5
    for game in (lobby, running):
        renders.payload(game.pk, changes.token(game.pk), None, "en")
    assert renders.made - before == 3, "the running table's clock moved: rendered again"

    now += renders.STILL_SECONDS
    renders.payload(lobby.pk, changes.token(lobby.pk), None, "en")
    assert renders.made - before == 4, "no render is kept for ever"
