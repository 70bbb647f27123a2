"""The journeys: a whole path through the product as a person walks it (a newcomer, an
organiser, a reader who idles, a Telegram user in the Mini App, a player who places herself
against the computers), in Debian's Chromium at phone width. They share the web tests'
fixtures."""

from tests.web.browser import chromium, page  # noqa: F401
from tests.web.conftest import _fresh_cache, moderator, seeded, viewer  # noqa: F401
