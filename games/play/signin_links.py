"""One-time sign-in links (issue 45): the bot hands a Telegram user a link to the site
that signs a browser in as their player once, within ``TTL``. Kept in the "shared" cache:
the bot's process makes them, the site's spends them."""

from __future__ import annotations

import re
import secrets

from django.core.cache import caches
from django.utils.connection import ConnectionProxy

TTL = 10 * 60
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
cache = ConnectionProxy(caches, "shared")


def _key(token: str) -> str:
    return f"signin-link:{token}"


def issue(player_id: int, next_path: str = "") -> str:
    """A new token for ``player_id``; ``next_path``, a path of the site, is where the
    browser goes once signed in (anything else is dropped)."""
    # A browser reads a backslash after the first slash as a slash: another host. (The site
    # checks the address again when it goes there.)
    if not next_path.startswith("/") or next_path[1:2] in ("/", "\\"):
        next_path = ""
    token = secrets.token_urlsafe(32)
    cache.set(_key(token), {"player": player_id, "next": next_path}, TTL)
    return token


def peek(token: str) -> dict | None:
    """What ``token`` holds, if it is one still unspent."""
    if not TOKEN.fullmatch(token):
        return None
    held = cache.get(_key(token))
    return held if isinstance(held, dict) else None


def spend(token: str) -> bool:
    """Spends ``token``: true for the one caller whose delete removed it."""
    return TOKEN.fullmatch(token) is not None and bool(cache.delete(_key(token)))
