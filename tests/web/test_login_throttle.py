"""Failed admin logins slow the next attempt down, per address and per username, and never
lock the owner out (admin_ui/login_throttle.py)."""

import time

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import resolve

URL = "/admin/login/"
THROTTLED = "Too many failed login attempts"


class Clock:
    """``time.time`` under the test's control: the throttle and the local-memory cache's
    expiry both read it."""

    def __init__(self):
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch, settings):
    # A cache of this process, whose expiry follows the clock (Redis keeps its own time).
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    return clock


@pytest.fixture
def staff(db, django_user_model, settings, clock):
    settings.LOGIN_THROTTLE_BASE_SECONDS = 2
    settings.LOGIN_THROTTLE_MAX_SECONDS = 60
    settings.LOGIN_THROTTLE_SECONDS = 900
    return django_user_model.objects.create_user("boss", password="right-pw", is_staff=True)


def login(username, password, address="10.0.0.1", language="en"):
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(URL, {"username": username, "password": password, "next": "/admin/"})
    return client, response


def throttled(response) -> bool:
    return response.status_code == 200 and THROTTLED in response.content.decode()


def logged_in(client, response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in client.session


def test_the_throttled_form_is_admin_sites_own_login():
    """The login page served at /admin/login/ is admin.site's, with the throttled form."""
    match = resolve(URL)
    site = match.func.__self__
    assert match.func.__name__ == "login" and site.name == admin.site.name == "admin"
    assert site.login_form.__name__ == "ThrottledAdminAuthenticationForm"


def test_each_failure_doubles_the_wait_up_to_the_cap_and_the_form_says_it(staff, clock):
    for wait in [2, 4, 8, 16, 32, 60, 60]:
        assert not throttled(login("boss", "wrong")[1])  # checked: a wrong password
        response = login("boss", "wrong")[1]
        page = response.content.decode()
        assert throttled(response) and f"Please wait {wait} seconds" in page
        assert 'name="password"' in page
        clock.advance(wait - 0.5)
        assert throttled(login("boss", "wrong")[1])
        clock.advance(1)


def test_the_right_password_logs_in_once_the_wait_has_passed(staff, clock):
    for failure in range(5):  # waits of 2, 4, 8, 16 and 32 s
        clock.advance(40 if failure else 0)
        assert not throttled(login("boss", "wrong")[1])
    client, response = login("boss", "right-pw")
    assert throttled(response) and not logged_in(client, response)
    clock.advance(32)
    client, response = login("boss", "right-pw")
    assert logged_in(client, response)


def test_a_throttled_attempt_answers_at_once_without_sleeping(staff, clock):
    login("boss", "wrong")
    started = time.perf_counter()
    response = login("boss", "right-pw")[1]
    assert throttled(response)
    assert time.perf_counter() - started < 0.5


def test_spraying_usernames_from_one_address_is_slowed_down(staff, clock, django_user_model):
    for name in ("alice", "bob", "carol"):
        django_user_model.objects.create_user(name, password="pw", is_staff=True)
    assert not throttled(login("alice", "guess")[1])
    assert throttled(login("bob", "guess")[1])  # another username, the same address
    clock.advance(2)
    assert not throttled(login("bob", "guess")[1])
    assert throttled(login("carol", "guess")[1])
    # Another address is not held up by this one, nor is its right password refused.
    client, response = login("carol", "pw", address="10.0.0.9")
    assert logged_in(client, response)


def test_guessing_one_username_from_many_addresses_is_slowed_down(staff, clock):
    assert not throttled(login("boss", "wrong", address="10.0.0.1")[1])
    assert throttled(login("BOSS ", "wrong", address="10.0.0.2")[1])  # however typed
    clock.advance(2)
    client, response = login("boss", "right-pw", address="10.0.0.3")
    assert logged_in(client, response)


def test_a_success_forgets_the_usernames_failures(staff, clock):
    for _ in range(3):
        login("boss", "wrong")
        clock.advance(10)
    assert logged_in(*login("boss", "right-pw", address="10.0.0.2"))
    # From a fresh address, the username starts over: the first failure costs 2 s again.
    login("boss", "wrong", address="10.0.0.3")
    response = login("boss", "wrong", address="10.0.0.4")[1]
    assert throttled(response) and "Please wait 2 seconds" in response.content.decode()


def test_failures_are_forgotten_after_a_quiet_while(staff, clock):
    for _ in range(4):
        login("boss", "wrong")
        clock.advance(20)
    clock.advance(900)
    login("boss", "wrong")
    response = login("boss", "wrong")[1]
    assert "Please wait 2 seconds" in response.content.decode()


def test_the_message_is_translated(staff, clock):
    login("boss", "wrong")
    assert "Troppi tentativi" in login("boss", "x", language="it")[1].content.decode()
    assert "Muitas tentativas" in login("boss", "x", language="pt")[1].content.decode()


def test_a_burst_of_parallel_attempts_gets_one_guess(staff, clock):
    """While an attempt is checked it holds the gates: a second one arriving meanwhile, for
    the same username or from the same address, waits instead of guessing too."""
    from admin_ui.login_throttle import Counts, Throttled

    checking = Counts("boss", "10.0.0.1")
    checking.take()
    for username, address in (("boss", "10.0.0.2"), ("alice", "10.0.0.1")):
        with pytest.raises(Throttled):
            Counts(username, address).take()
    checking.succeeded()
    Counts("boss", "10.0.0.2").take()
