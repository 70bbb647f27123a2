"""How the bot reaches the Bot API: one place for the token, base URL and HTTP requests.

Nothing here contacts Telegram at import time. Tests replace ``default_request`` with a
recording request so that every outgoing call (handlers and worker alike) is seen.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from telegram import Bot
from telegram.request import BaseRequest, HTTPXRequest

from bot import cachekeys
from server import metrics


def default_request() -> BaseRequest:
    return HTTPXRequest(connection_pool_size=8, read_timeout=15, connect_timeout=10)


class CountedRequest(BaseRequest):
    """Another request (HTTPX, or the tests' recorder) whose every Bot API call is counted
    by method and outcome (``catclub_telegram_calls_total``): ok, too_many_requests (429),
    refused (another error answer) or network_error."""

    OUTCOMES = {200: "ok", 429: "too_many_requests"}

    def __init__(self, inner: BaseRequest):
        self.inner = inner

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    # The timeouts pass through as keywords, whatever the library names them.
    async def do_request(  # type: ignore[override]
        self, url, method, request_data=None, **timeouts
    ) -> tuple[int, bytes]:
        api = url.rsplit("/", 1)[-1]
        try:
            status, payload = await self.inner.do_request(url, method, request_data, **timeouts)
        except Exception:
            metrics.inc("telegram_calls_total", method=api, outcome="network_error")
            raise
        metrics.inc(
            "telegram_calls_total", method=api, outcome=self.OUTCOMES.get(status, "refused")
        )
        return status, payload


def token() -> str:
    return settings.TELEGRAM_BOT_TOKEN


def configured() -> bool:
    return bool(settings.TELEGRAM_BOT_TOKEN)


def make_bot(request: BaseRequest | None = None) -> Bot:
    """A plain Bot for the worker (no Application, no getMe needed to send)."""
    return Bot(
        token(),
        base_url=settings.TELEGRAM_API_URL,
        request=CountedRequest(request or default_request()),
        get_updates_request=request or default_request(),
    )


def remember_username(username: str) -> None:
    cache.set(cachekeys.key("username"), username, timeout=None)


def bot_username() -> str:
    """The bot's @username, for deep links: from the settings, else as getMe told."""
    return settings.TELEGRAM_BOT_USERNAME or cache.get(cachekeys.key("username")) or ""


def deep_link(payload: str) -> str:
    name = bot_username()
    return f"https://t.me/{name}?start={payload}" if name else ""


def miniapp_link(game_id: int) -> str:
    """The Direct Link to the Mini App at a game's table (``startapp`` carries the game),
    or "" when no Mini App is configured (``TELEGRAM_MINIAPP_SHORT_NAME``)."""
    name, app = bot_username(), settings.TELEGRAM_MINIAPP_SHORT_NAME
    return f"https://t.me/{name}/{app}?startapp={game_id}" if name and app else ""
