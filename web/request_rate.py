"""Requests per client address: one that asks faster than a person's pages ever do is
answered 429 at once, before the session, the database or a view (issue 25).

A table page asks a few times a second at most (its moves, its stream or poll, a burst of
static files when it loads). A script that reopens refused long polls in a loop asked
hundreds of times a second, and on the embedded default every one of those requests took
a thread, a session read and Python's interpreter lock from the people playing. Each
client network (``clients.client_network``: the trusted proxy's word, an IPv6 /64) has a
bucket of ``REQUEST_BURST_PER_ADDRESS`` requests, refilled at
``REQUESTS_PER_SECOND_PER_ADDRESS``; 0 turns the limit off.

A request answered with a refusal (``REFUSALS``: a malformed parameter, a table that is not
the client's to act on, an address that leads nowhere) costs its client
``REQUEST_COST_OF_REFUSAL`` requests (by default on the embedded server only; the setting
says what was measured): a person's pages are almost never refused, while a script trying
other people's tables or odd parameters is refused at every other request, and each of
those is a whole request (the session, the database, a page) that people's clicks waited
behind. Under the abuse bench such scripts took as many turns of the embedded server's
threads as the people playing.

The buckets are this process's own (no round trip to Redis on every request): with several
processes a client gets each process's rate, still far from a flood. The Telegram webhook
(Telegram's own servers, which deliver every group's updates), the health check and the
metrics scrape are not counted.
"""

from __future__ import annotations

import math
import threading
import time

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.utils.translation import gettext_lazy

from web import clients, params

TOO_MANY = gettext_lazy("Too many requests from your connection. Wait a moment, please.")
# Paths never counted: machines that the site trusts by other means. Exact paths (issue 46):
# matched by prefix, "/healthzANYTHING" was a way around the limit.
EXEMPT = frozenset({"/healthz", "/metrics", "/telegram/webhook"})
# The answers that cost a client ``REQUEST_COST_OF_REFUSAL`` requests. Not 429: a request
# refused for a limit has been counted already, and a person with many tabs meets the
# limit of live connections without doing anything wrong.
REFUSALS = frozenset({400, 403, 404, 405})
# Clients remembered at most; past it, those whose bucket is full again are forgotten.
MAX_CLIENTS = 100_000


class Buckets:
    def __init__(self):
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # network -> (tokens, at)

    def take(self, network: str, rate: float, burst: float) -> float:
        """One request of ``network``: 0 when allowed, else the seconds until it would be."""
        now = time.monotonic()
        with self._lock:
            tokens = self._held(network, now, rate, burst)
            if tokens < 1:
                self._buckets[network] = (tokens, now)
                return (1 - tokens) / rate
            self._buckets[network] = (tokens - 1, now)
            if len(self._buckets) > MAX_CLIENTS:
                self._forget_full(now, rate, burst)
            return 0.0

    def charge(self, network: str, cost: float, rate: float, burst: float) -> None:
        """``cost`` requests more taken from ``network``'s bucket: it may go below empty, by
        a burst at most (its client then waits ``burst / rate`` seconds at most)."""
        now = time.monotonic()
        with self._lock:
            tokens = self._held(network, now, rate, burst)
            self._buckets[network] = (max(-burst, tokens - cost), now)

    def level(self, network: str, rate: float, burst: float) -> float:
        """What ``network``'s bucket holds now (full for a client not seen lately)."""
        with self._lock:
            return self._held(network, time.monotonic(), rate, burst)

    def _held(self, network: str, now: float, rate: float, burst: float) -> float:
        """What ``network``'s bucket holds at ``now``, refilled (with _lock held)."""
        tokens, at = self._buckets.get(network, (burst, now))
        return min(burst, tokens + (now - at) * rate)

    def _forget_full(self, now: float, rate: float, burst: float) -> None:
        full = [n for n, (t, at) in self._buckets.items() if t + (now - at) * rate >= burst]
        for network in full:
            del self._buckets[network]

    def clear(self) -> None:
        with self._lock:
            self._buckets.clear()


buckets = Buckets()


def _limit() -> tuple[float, int]:
    """The rate (0: no limit) and the burst, as the settings say now."""
    return settings.REQUESTS_PER_SECOND_PER_ADDRESS, max(1, settings.REQUEST_BURST_PER_ADDRESS)


def over_rate(request) -> float:
    """Counts the request: 0 to serve it, else the seconds until its client may ask again."""
    rate, burst = _limit()
    if not rate or request.path in EXEMPT:
        return 0.0
    return buckets.take(clients.client_network(request), rate, burst)


def answered(request, status: int) -> None:
    """Counts the answer: a refusal (``REFUSALS``) costs its client
    ``REQUEST_COST_OF_REFUSAL`` requests more."""
    rate, burst = _limit()
    cost = settings.REQUEST_COST_OF_REFUSAL
    if not rate or not cost or status not in REFUSALS or request.path in EXEMPT:
        return
    buckets.charge(clients.client_network(request), cost, rate, burst)


def refused(request, wait: float):
    """The 429 of a request over its client's rate: a page for a browser, JSON for a
    script (the table's script backs off on it), in the visitor's language."""
    response = params.refused_unseen(request, TOO_MANY, 429)
    response["Retry-After"] = str(math.ceil(wait))
    return response


class RequestRateMiddleware:
    """First in the chain. The site's own ASGI handler (``server.asgi_handler``) runs the
    chain in a thread, as WSGI does; under Django's asynchronous handlers (its test
    client's) it counts on the event loop, and refuses a script without taking a thread
    (a page's refusal renders a template, on one)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        wait = over_rate(request)
        if wait:
            return refused(request, wait)
        response = self.get_response(request)
        answered(request, response.status_code)
        return response

    async def __acall__(self, request):
        wait = over_rate(request)
        if not wait:
            response = await self.get_response(request)
            answered(request, response.status_code)
            return response
        if params.wants_page(request):
            return await sync_to_async(refused)(request, wait)
        return refused(request, wait)
