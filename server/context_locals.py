"""Django's per-request state (the active language, time zone, URL prefix and urlconf)
kept without a lock on every read.

Django keeps these in asgiref ``Local`` objects. A ``Local`` that is not thread-critical
guards every read and write with one lock that all the process's threads share, and
``gettext`` reads the active language for every string it translates. Under load a thread
that holds that lock can lose the interpreter lock (every 5 ms a waiting thread asks for
it), and every other thread's next ``gettext`` then waits for it too. py-spy found the
embedded default's table renders spending 65% of their time waiting there, taking eight
times their CPU time (issue 25's abuse bench, with people only).

``ContextLocal`` keeps the same values in a context variable instead, holding a mapping
that is replaced whole, never changed in place: reading it takes no lock. It follows a
request as asgiref's does: ``sync_to_async`` runs the function in a copy of the caller's
context and copies the changes back, and ``async_to_sync`` likewise; a thread started
anew begins with an empty context, so nothing leaks between requests.
"""

from __future__ import annotations

import contextvars
from types import MappingProxyType
from typing import Any

EMPTY: MappingProxyType = MappingProxyType({})


class ContextLocal:
    """Attributes per context (a request's task and the threads it runs code in)."""

    __slots__ = ("_values",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_values", contextvars.ContextVar(name, default=EMPTY))

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values.get()[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        self._values.set(MappingProxyType({**self._values.get(), key: value}))

    def __delattr__(self, key: str) -> None:
        values = dict(self._values.get())
        if values.pop(key, EMPTY) is EMPTY:
            raise AttributeError(key)
        self._values.set(MappingProxyType(values))


def install() -> None:
    """Put Django's locals in context variables, before any request sets them."""
    from django.urls import base as urls
    from django.utils import timezone
    from django.utils.translation import trans_real

    for module, name in (
        (trans_real, "_active"),
        (timezone, "_active"),
        (urls, "_prefixes"),
        (urls, "_urlconfs"),
    ):
        if not isinstance(getattr(module, name), ContextLocal):
            setattr(module, name, ContextLocal(f"{module.__name__}.{name}"))
