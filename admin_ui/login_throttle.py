"""Failed admin logins are throttled per username and client address.

After ``LOGIN_THROTTLE_ATTEMPTS`` failures for one username from one address, that pair
may not log in (not even with the right password) until ``LOGIN_THROTTLE_SECONDS`` after
its first failure have passed: the login form comes back with a message saying so. The
counts live in Django's cache, which Redis shares between the web processes in
production. ``config/urls.py`` gives the form to ``admin.site``, whose login page is the
only login of the site.

The address is ``REMOTE_ADDR``, never ``X-Forwarded-For``: anyone who reaches gunicorn
directly could write that header and get a fresh count per request. Behind a proxy the
address is the proxy's, so the count is then in effect per username.
"""

from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from . import clients

log = logging.getLogger(__name__)


def cache_key(username: str, address: str) -> str:
    # Hashed: usernames are user input, cache keys have a limited alphabet and length.
    pair = f"{username.strip().casefold()}\0{address}".encode()
    return "admin-login-failures:" + hashlib.sha256(pair).hexdigest()


def client_address(request) -> str:
    return clients.client_address(request)


def record_failure(key: str) -> None:
    # The window starts at the first failure: incr keeps the expiry that add set.
    if cache.add(key, 1, timeout=settings.LOGIN_THROTTLE_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # it expired between the two calls
        cache.add(key, 1, timeout=settings.LOGIN_THROTTLE_SECONDS)


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    def clean(self):
        username = self.cleaned_data.get("username") or ""
        key = cache_key(username, client_address(self.request))
        if (cache.get(key) or 0) >= settings.LOGIN_THROTTLE_ATTEMPTS:
            log.warning(
                "admin login throttled for %r from %s", username, client_address(self.request)
            )
            minutes = max(1, round(settings.LOGIN_THROTTLE_SECONDS / 60))
            raise ValidationError(
                _(
                    "Too many failed login attempts. Please wait %(minutes)d minutes, "
                    "then try again."
                ),
                code="throttled",
                params={"minutes": minutes},
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            record_failure(key)
            raise
        cache.delete(key)
        return cleaned
