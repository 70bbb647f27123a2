"""Failed admin logins slow the next attempt down; they never lock the owner out.

Each failure doubles the wait before the next attempt is checked at all
(``LOGIN_THROTTLE_BASE_SECONDS``, twice that, four times, ... up to
``LOGIN_THROTTLE_MAX_SECONDS``), counted twice over: per client address, whatever the
usernames tried (spraying one password over many accounts), and per username, whatever the
address (guessing one account from many). An attempt waits for both. The form comes back at
once saying how long to wait: the request never sleeps, so no server thread is held. After
the wait the right password logs in; a success forgets the username's failures, and failures
are forgotten ``LOGIN_THROTTLE_SECONDS`` after the last one.

While an attempt is being checked it holds each count's gate (``cache.add``, atomic in every
cache backend) for as long as the next failure would make everyone wait: a burst of
parallel requests gets one guess per gate, not one each. The counts live in Django's cache,
which Redis shares between the web processes in production. ``config/urls.py`` gives the
form to ``admin.site``, whose login page is the only login of the site.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext

from web import clients

log = logging.getLogger(__name__)


def cache_key(kind: str, value: str) -> str:
    # Hashed: usernames are user input, cache keys have a limited alphabet and length.
    return f"admin-login-{kind}:" + hashlib.sha256(value.encode()).hexdigest()


def client_address(request) -> str:
    return clients.client_address(request)


def delay(failures: int) -> float:
    """Seconds to wait after this many failures in a row."""
    if failures <= 0:
        return 0.0
    base, cap = settings.LOGIN_THROTTLE_BASE_SECONDS, settings.LOGIN_THROTTLE_MAX_SECONDS
    return min(cap, base * 2 ** min(failures - 1, 62))


class Throttled(Exception):
    def __init__(self, until: float):
        self.until = until


class Counts:
    """The failure counts an attempt is checked against: its address's and its username's."""

    def __init__(self, username: str, address: str):
        self.keys = [cache_key("address", address), cache_key("user", username.strip().casefold())]
        self.held: list[str] = []

    def take(self) -> None:
        """Hold every gate for this attempt, or raise ``Throttled`` with when to come back."""
        now = time.time()
        for key in self.keys:
            wait = delay((cache.get(key + ":n") or 0) + 1)
            until = now + wait
            if not cache.add(key + ":gate", until, timeout=math.ceil(wait)):
                self.release()
                raise Throttled(cache.get(key + ":gate") or until)
            self.held.append(key)

    def release(self) -> None:
        cache.delete_many([key + ":gate" for key in self.held])
        self.held = []

    def failed(self) -> None:
        # Each gate is held: nobody else writes these counts meanwhile.
        for key in self.held:
            cache.set(key + ":n", (cache.get(key + ":n") or 0) + 1, settings.LOGIN_THROTTLE_SECONDS)
        self.held = []  # the gates stay, for the wait this failure earned

    def succeeded(self) -> None:
        # The username's slate is clean; the address keeps its count (a sprayer who owns
        # one account must not wipe it by logging in to it).
        cache.delete(self.keys[1] + ":n")
        self.release()


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request)
        counts = Counts(username, address)
        try:
            counts.take()
        except Throttled as throttled:
            log.warning("admin login throttled for %r from %s", username, address)
            seconds = max(1, math.ceil(throttled.until - time.time()))
            raise ValidationError(
                ngettext(
                    "Too many failed login attempts. Please wait %(seconds)d second, "
                    "then try again.",
                    "Too many failed login attempts. Please wait %(seconds)d seconds, "
                    "then try again.",
                    seconds,
                ),
                code="throttled",
                params={"seconds": seconds},
            ) from None
        try:
            cleaned = super().clean()
        except ValidationError:
            counts.failed()
            raise
        except BaseException:
            counts.release()  # not a verdict on the password: no wait earned
            raise
        counts.succeeded()
        return cleaned
