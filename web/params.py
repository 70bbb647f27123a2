"""Request parameters, read strictly: every view that turns a parameter of the address,
a form or a header into a number or a bounded string reads it here.

Python's own parsers are too kind for a public site: ``float`` takes ``nan``, ``inf`` and
``1e309`` (a long poll whose deadline is NaN never ends), ``str.isdigit`` is true for
``²`` (which ``int`` then refuses) and ``int`` of a 5000-digit string raises under the
interpreter's digit limit. Here a number is ASCII digits (and one decimal point for a
fraction), never longer than its largest allowed value, and in its range. Whatever is not
raises ``BadParameter``, which ``strict`` views answer with a 400 and a message saying
which parameter is wrong, as JSON to a script and as a page to a browser; nothing is done.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import wraps
from typing import overload

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")


class BadParameter(ValueError):
    """A request parameter the view cannot take; answered 400 by ``strict``."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name

    @property
    def message(self) -> str:
        return _("The request's “%(name)s” is not valid.") % {"name": self.name}


@overload
def integer(raw: str | None, name: str, *, minimum: int = 0, maximum: int, default: int) -> int: ...
@overload
def integer(
    raw: str | None, name: str, *, minimum: int = 0, maximum: int, default: None = None
) -> int | None: ...
def integer(
    raw: str | None, name: str, *, minimum: int = 0, maximum: int, default: int | None = None
) -> int | None:
    """``raw`` as a whole number from ``minimum`` to ``maximum`` (both >= 0); ``default``
    when it is absent or empty."""
    if raw is None or raw == "":
        return default
    if len(raw) > len(str(maximum)) or not _DIGITS.fullmatch(raw):
        raise BadParameter(name)
    value = int(raw)
    if not minimum <= value <= maximum:
        raise BadParameter(name)
    return value


def number(
    raw: str | None, name: str, *, minimum: float = 0.0, maximum: float, default: float
) -> float:
    """``raw`` as a finite decimal from ``minimum`` to ``maximum`` (both >= 0), written
    as digits with at most one decimal point; ``default`` when absent or empty."""
    if raw is None or raw == "":
        return default
    if len(raw) > 32 or not _DECIMAL.fullmatch(raw):
        raise BadParameter(name)
    value = float(raw)
    if not minimum <= value <= maximum:
        raise BadParameter(name)
    return value


def text(raw: str | None, name: str, *, max_length: int, default: str = "") -> str:
    """``raw`` as it is, when no longer than ``max_length`` characters and free of NUL
    (which PostgreSQL cannot store or compare: a query with one fails)."""
    if raw is None:
        return default
    if len(raw) > max_length or "\x00" in raw:
        raise BadParameter(name)
    return raw


@overload
def choice(raw: str, name: str, choices: Iterable[str], *, default: str | None = None) -> str: ...
@overload
def choice(raw: str | None, name: str, choices: Iterable[str], *, default: str) -> str: ...
@overload
def choice(
    raw: str | None, name: str, choices: Iterable[str], *, default: None = None
) -> str | None: ...
def choice(
    raw: str | None, name: str, choices: Iterable[str], *, default: str | None = None
) -> str | None:
    """``raw`` when it is one of ``choices``; ``default`` when absent."""
    if raw is None:
        return default
    if raw not in choices:
        raise BadParameter(name)
    return raw


def wants_page(request: HttpRequest) -> bool:
    """A browser navigating asks for HTML by name; a script's fetch or curl does not."""
    return "text/html" in request.headers.get("Accept", "")


def refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """A refusal with its reason: ``{"ok": false, "message": ...}`` for a script, a page
    with the message for a browser (never a blank one)."""
    if wants_page(request):
        return render(request, "web/refused.html", {"message": message}, status=status)
    return JsonResponse({"ok": False, "message": message}, status=status)


def refused_unseen(request: HttpRequest, message, status: int) -> HttpResponse:
    """``refused`` for a request refused before the middleware saw it (no language
    activated yet): in the language the browser asks for."""
    with translation.override(translation.get_language_from_request(request)):
        return refused(request, str(message), status)


def strict(view: Callable) -> Callable:
    """A view whose malformed parameters are answered 400 (``refused``), not 500."""
    if iscoroutinefunction(view):

        @wraps(view)
        async def waiting(request, *args, **kwargs):
            try:
                return await view(request, *args, **kwargs)
            except BadParameter as exc:
                # A page renders a template (the session, the user): off the loop.
                return await sync_to_async(refused)(request, exc.message, 400)

        return waiting

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except BadParameter as exc:
            return refused(request, exc.message, 400)

    return wrapper
