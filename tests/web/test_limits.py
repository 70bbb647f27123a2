"""The public site's limits (web/limits.py, web/live/slots.py): tables created per session and per
address, long polls open at once per address, hard computers of visitors not signed in;
and the client address, believed from trusted proxies only (web/clients.py). A limit
reached is a 429 with a message (the form again, or JSON), and nothing is created."""

from __future__ import annotations

import math
import threading
import time
import uuid

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse

from games.play import services
from games.play.models import Game, Seat
from tests.web.test_play import init_data
from web import clients

pytestmark = pytest.mark.django_db(transaction=True)

TOO_MANY_TABLES = "You have set up many tables in the last hour."
TOO_MANY_THIS_MINUTE = "You have set up many tables in the last minute. Wait a moment."
TOO_MANY_PAGES = "Too many pages of tables are open from your connection."
HARD_LIMIT = "Without signing in through Telegram a table may have 1 hard computer."


@pytest.fixture(autouse=True)
def limits(settings):
    settings.TABLES_PER_HOUR_PER_SESSION = 2
    settings.TABLES_PER_HOUR_PER_ADDRESS = 3
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 2
    settings.HARD_COMPUTERS_UNSIGNED = 1
    settings.TABLE_WAIT_SECONDS = 0.5
    settings.TRUSTED_PROXIES = []
    settings.TELEGRAM_BOT_TOKEN = "123456:TEST-TOKEN"
    settings.MINIAPP_MAX_AGE = 3600


def create(client: Client, levels=("normal",), name="Ann", **extra):
    data = {"game": "felix", "name": name, "computers": str(len(levels)), "level": list(levels)}
    return client.post(reverse("web:play-create"), {**data, **extra}, HTTP_ACCEPT="text/html")


def refused_on_the_form(response, message: str) -> None:
    assert response.status_code == 429
    page = response.content.decode()
    assert message in page and 'name="computers"' in page  # the form, with the reason


# -- tables per session and per address ----------------------------------------------------
def test_a_session_that_made_its_tables_for_the_hour_gets_the_form_back():
    client = Client(REMOTE_ADDR="10.0.0.1")
    assert create(client).status_code == 302
    assert create(client).status_code == 302
    games = Game.objects.count()
    refused_on_the_form(create(client), TOO_MANY_TABLES)
    assert Game.objects.count() == games


def test_an_address_that_made_its_tables_for_the_hour_gets_the_form_back():
    for _ in range(3):  # three visitors without a session, from one address
        assert create(Client(REMOTE_ADDR="10.0.0.2")).status_code == 302
    games = Game.objects.count()
    refused_on_the_form(create(Client(REMOTE_ADDR="10.0.0.2")), TOO_MANY_TABLES)
    assert Game.objects.count() == games
    # Another address, and another /64 of IPv6, are counted apart; one /64 together.
    assert create(Client(REMOTE_ADDR="10.0.0.3")).status_code == 302
    for host in range(1, 4):
        assert create(Client(REMOTE_ADDR=f"2001:db8:0:1::{host}")).status_code == 302
    refused_on_the_form(create(Client(REMOTE_ADDR="2001:db8:0:1::99")), TOO_MANY_TABLES)


def test_a_table_that_was_not_made_does_not_count():
    client = Client(REMOTE_ADDR="10.0.0.4")
    for _ in range(5):
        assert create(client, name="").status_code == 400  # no name: nothing made
    assert create(client).status_code == 302
    assert create(client).status_code == 302


def test_an_address_that_made_its_tables_for_the_minute_waits_for_the_next_issue_25(
    settings, monkeypatch
):
    from web import limits

    settings.TABLES_PER_HOUR_PER_SESSION = settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 2
    now = [1_800_000_000.0]  # the start of a minute
    monkeypatch.setattr(limits.time, "time", lambda: now[0])
    for _ in range(2):  # two visitors from one address, each with a fresh session
        assert create(Client(REMOTE_ADDR="10.0.3.1")).status_code == 302
    games = Game.objects.count()
    now[0] += 30
    refused_on_the_form(create(Client(REMOTE_ADDR="10.0.3.1")), TOO_MANY_THIS_MINUTE)
    said = create(Client(REMOTE_ADDR="10.0.3.1", HTTP_ACCEPT_LANGUAGE="it"))
    refused_on_the_form(said, "ultimo minuto. Aspetta un momento.")
    assert Game.objects.count() == games
    assert create(Client(REMOTE_ADDR="10.0.3.2")).status_code == 302  # another address
    now[0] += 30  # the next minute
    assert create(Client(REMOTE_ADDR="10.0.3.1")).status_code == 302


def test_a_refusal_for_the_minute_does_not_count_for_the_hour_issue_25(settings, monkeypatch):
    from web import limits

    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 2
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 1
    now = [1_800_000_000.0]
    monkeypatch.setattr(limits.time, "time", lambda: now[0])
    assert create(Client(REMOTE_ADDR="10.0.3.3")).status_code == 302
    for _ in range(3):
        refused_on_the_form(create(Client(REMOTE_ADDR="10.0.3.3")), TOO_MANY_THIS_MINUTE)
    now[0] += 60
    assert create(Client(REMOTE_ADDR="10.0.3.3")).status_code == 302  # the hour's second
    now[0] += 60
    refused_on_the_form(create(Client(REMOTE_ADDR="10.0.3.3")), TOO_MANY_TABLES)


def test_the_limits_are_off_at_zero(settings):
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 0
    settings.TABLES_PER_MINUTE_PER_ADDRESS = 0
    client = Client()
    for _ in range(6):
        assert create(client).status_code == 302


# -- hard computers -----------------------------------------------------------------------
def test_a_visitor_not_signed_in_gets_one_hard_computer_per_table():
    client = Client()
    refused_on_the_form(create(client, levels=("hard", "hard")), HARD_LIMIT)
    assert not Game.objects.exists()
    assert create(client, levels=("hard", "easy"), friends="1").status_code == 302
    game = Game.objects.get()
    computer = reverse("web:table-computer", args=[game.pk])
    # Neither a second hard computer, nor the easy one made hard.
    page = client.post(computer, {"level": "hard"}, follow=True).content.decode()
    assert HARD_LIMIT in page
    page = client.post(computer, {"level": "hard", "seat": "2"}, follow=True).content.decode()
    assert HARD_LIMIT in page
    strategies = Seat.objects.filter(game=game, player=None).order_by("number")
    assert list(strategies.values_list("strategy", flat=True)) == ["hard", "easy"]
    # The hard one may change level and back.
    client.post(computer, {"level": "normal", "seat": "1"})
    client.post(computer, {"level": "hard", "seat": "1"})
    assert list(strategies.values_list("strategy", flat=True)) == ["hard", "easy"]


def test_a_player_signed_in_through_telegram_is_not_limited(quick_hard):
    app = Client()
    assert app.post(reverse("web:miniapp-signin"), {"init_data": init_data()}).status_code == 200
    response = create(app, levels=("hard", "hard", "hard"), friends="1")
    assert response.status_code == 302
    assert Seat.objects.filter(strategy="hard", player=None).count() == 3


# -- long polls -----------------------------------------------------------------------------
def table(client: Client) -> Game:
    assert create(client, friends="1").status_code == 302
    return Game.objects.order_by("-pk").first()


def held_poll(address: str):
    """A long poll of ``address`` in progress: its slot, entered and not yet left."""
    from web.live import slots as limits

    request = RequestFactory().get("/", REMOTE_ADDR=address)
    slot = limits.live_connection(request)
    slot.__enter__()
    return slot


def test_one_poll_too_many_from_an_address_gets_a_429_with_a_message():
    client = Client(REMOTE_ADDR="10.0.1.1")
    game = table(client)
    url = reverse("web:table-state", args=[game.pk]) + "?wait=0"
    first, second = held_poll("10.0.1.1"), held_poll("10.0.1.1")
    refused = client.get(url)
    assert refused.status_code == 429
    assert TOO_MANY_PAGES in refused.json()["message"]
    assert Client(REMOTE_ADDR="10.0.1.2").get(url).status_code == 200  # another address
    first.__exit__(None, None, None)  # that poll ended: its place is free
    assert client.get(url).status_code == 200
    second.__exit__(None, None, None)


def test_a_poll_that_fails_gives_its_place_back(settings):
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 1
    client = Client(REMOTE_ADDR="10.0.1.3", raise_request_exception=False)
    for _ in range(3):
        assert client.get(reverse("web:table-state", args=[10**9])).status_code == 404
    game = table(client)
    assert client.get(reverse("web:table-state", args=[game.pk]) + "?wait=0").status_code == 200


def test_the_place_of_a_poll_whose_process_died_frees_itself(settings, monkeypatch):
    from web.live import slots as limits

    settings.LIVE_CONNECTIONS_PER_ADDRESS = 1
    monkeypatch.setattr(limits, "LIVE_GRACE_SECONDS", 0.2)
    client = Client(REMOTE_ADDR="10.0.1.4")
    game = table(client)
    url = reverse("web:table-state", args=[game.pk]) + "?wait=0"
    # Never left (its process died); kept, since a collected generator would leave.
    dead = held_poll("10.0.1.4")
    assert client.get(url).status_code == 429
    time.sleep(math.ceil(settings.TABLE_WAIT_SECONDS + 0.2) + 0.2)
    assert client.get(url).status_code == 200
    assert dead is not None


# -- the client address ---------------------------------------------------------------------
def address(remote: str, forwarded: str | None = None) -> str:
    from web.clients import client_address

    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **headers))


def test_without_trusted_proxies_forwarded_for_is_ignored():
    assert address("203.0.113.5", "198.51.100.1") == "203.0.113.5"


def test_a_trusted_proxys_forwarded_for_gives_the_client(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8", "127.0.0.1/32"]
    # The proxy appended the peer it saw; what the client wrote before it is not read.
    assert address("10.1.2.3", "6.6.6.6, 198.51.100.7") == "198.51.100.7"
    # Two trusted proxies in a row.
    assert address("127.0.0.1", "198.51.100.7, 10.9.9.9") == "198.51.100.7"
    # Not from a trusted proxy: its header is the client's own word.
    assert address("203.0.113.5", "198.51.100.7") == "203.0.113.5"
    # A trusted proxy without the header, or with something that is no address in it.
    assert address("10.1.2.3") == "10.1.2.3"
    assert address("10.1.2.3", "garbage") == "10.1.2.3"


def test_the_admin_login_throttle_counts_clients_behind_the_proxy_apart(
    settings, django_user_model
):
    """Behind the trusted proxy, a client spraying passwords over usernames is slowed down by
    its own address: the owner, at another address, logs in to their account at once."""
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    settings.LOGIN_THROTTLE_BASE_SECONDS = 60
    django_user_model.objects.create_user("boss", password="right-pw", is_staff=True)

    def login(client_ip: str, username: str, password: str):
        client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=client_ip)
        data = {"username": username, "password": password, "next": "/admin/"}
        return client.post("/admin/login/", data)

    login("198.51.100.66", "alice", "wrong")
    sprayed = login("198.51.100.66", "carol", "wrong").content.decode()
    assert "Too many failed login attempts" in sprayed
    assert login("198.51.100.1", "boss", "right-pw").status_code == 302  # the owner, elsewhere


@pytest.mark.parametrize(
    ("language", "said"),
    [("it", "Hai preparato molti tavoli"), ("pt", "Montaste muitas mesas")],
)
def test_the_limits_message_is_in_the_visitors_language(settings, language, said):
    settings.TABLES_PER_HOUR_PER_SESSION = 0
    settings.TABLES_PER_HOUR_PER_ADDRESS = 1
    assert create(Client(REMOTE_ADDR="10.0.2.1")).status_code == 302
    refused = create(Client(REMOTE_ADDR="10.0.2.1", HTTP_ACCEPT_LANGUAGE=language))
    refused_on_the_form(refused, said)


# -- many polls at once, on each cache backend --------------------------------------------
def polls_at_once(n: int, limit: int) -> int:
    """How many of ``n`` long polls from one address, arriving together, get a place."""
    from web.live import slots as limits

    gate = threading.Barrier(n)
    got: list[bool] = []

    def poll():
        request = RequestFactory().get("/", REMOTE_ADDR="10.0.3.1")
        gate.wait()
        try:
            with limits.live_connection(request):
                got.append(True)
                gate.wait()  # every poll holds its place until all have asked
        except limits.LimitReached:
            got.append(False)
            gate.wait()

    threads = [threading.Thread(target=poll) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return sum(got)


def test_polls_arriving_together_never_take_more_places_than_the_limit(settings):
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 3
    assert polls_at_once(12, 3) == 3
    assert polls_at_once(12, 3) == 3  # and every place was given back


@pytest.mark.services
def test_on_redis_too(settings, redis_url):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"catclub-test-{uuid.uuid4().hex}",
        }
    }
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 3
    assert polls_at_once(12, 3) == 3
    assert polls_at_once(12, 3) == 3


@pytest.mark.services
def test_a_table_page_over_the_limit_says_so_and_follows_once_a_place_is_free(
    page, live_server, settings
):
    settings.LIVE_CONNECTIONS_PER_ADDRESS = 1
    settings.TABLE_WAIT_SECONDS = 1.0
    game = table(Client())
    # A page of an earlier test may still hold this address's place for a moment (it is
    # the same address, in the same cache): the test starts from none.
    network = clients.client_network(RequestFactory().get("/", REMOTE_ADDR="127.0.0.1"))
    cache.delete(f"limits:live:{network}:0")
    other = held_poll("127.0.0.1")  # another page's long poll holds the one place
    page.goto(live_server.url + reverse("web:table", args=[game.pk]))
    page.wait_for_function(
        f"() => document.getElementById('toast').textContent.includes({TOO_MANY_PAGES!r})"
    )
    other.__exit__(None, None, None)
    services.add_computer(
        game, by=services.SYSTEM
    )  # the table changes: the refused page, retrying, sees it
    page.wait_for_function(
        "() => document.querySelector('.seats').innerText.includes('Computer 3')", timeout=15000
    )
    errors = [p for p in page.problems if "429" not in p]  # the browser logs each refusal
    assert errors == []
