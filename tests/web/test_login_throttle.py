"""Failed admin logins are throttled per username and address (admin_ui/login_throttle.py)."""

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import resolve

URL = "/admin/login/"
THROTTLED = "Too many failed login attempts"


@pytest.fixture
def staff(db, django_user_model, settings):
    settings.LOGIN_THROTTLE_ATTEMPTS = 3
    settings.LOGIN_THROTTLE_SECONDS = 600
    return django_user_model.objects.create_user("boss", password="right-pw", is_staff=True)


def login(username, password, address="10.0.0.1", language="en"):
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(URL, {"username": username, "password": password, "next": "/admin/"})
    return client, response


def test_the_throttled_form_is_admin_sites_own_login():
    """The login page served at /admin/login/ is admin.site's, with the throttled form."""
    match = resolve(URL)
    site = match.func.__self__
    assert match.func.__name__ == "login" and site.name == admin.site.name == "admin"
    assert site.login_form.__name__ == "ThrottledAdminAuthenticationForm"


def test_failed_logins_lock_that_username_and_address_out_with_the_login_form(staff):
    for _ in range(3):
        _client, response = login("boss", "wrong")
        assert response.status_code == 200 and THROTTLED not in response.content.decode()
    # Now even the right password gets the form back, with a message, not a 500.
    client, response = login("boss", "right-pw")
    assert response.status_code == 200
    page = response.content.decode()
    assert THROTTLED in page and "10 minutes" in page and 'name="password"' in page
    assert "_auth_user_id" not in client.session
    _client, response = login("BOSS ", "wrong")  # the same account, however typed
    assert THROTTLED in response.content.decode()


def test_other_addresses_and_usernames_are_not_locked_out(staff, django_user_model):
    django_user_model.objects.create_user("deputy", password="pw2", is_staff=True)
    for _ in range(3):
        login("boss", "wrong")
    client, response = login("boss", "right-pw", address="10.0.0.2")
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(staff.pk)
    client, response = login("deputy", "pw2")
    assert response.status_code == 302


def test_the_lock_lifts_when_the_window_has_passed(staff, settings):
    from django.core.cache import cache

    from admin_ui.login_throttle import cache_key

    for _ in range(3):
        login("boss", "wrong")
    assert THROTTLED in login("boss", "right-pw")[1].content.decode()
    cache.delete(cache_key("boss", "10.0.0.1"))  # what the window's expiry does
    _client, response = login("boss", "right-pw")
    assert response.status_code == 302


def test_a_success_clears_the_count(staff):
    for _ in range(2):
        login("boss", "wrong")
    assert login("boss", "right-pw")[1].status_code == 302
    for _ in range(2):
        login("boss", "wrong")
    assert login("boss", "right-pw")[1].status_code == 302


def test_the_message_is_translated(staff):
    for _ in range(3):
        login("boss", "wrong")
    assert "Troppi tentativi" in login("boss", "x", language="it")[1].content.decode()
    assert "Muitas tentativas" in login("boss", "x", language="pt")[1].content.decode()
