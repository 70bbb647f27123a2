"""Keyset paging for the public lists (the game archive, the players, the leaderboards).

A page starts after (or ends before) one row, named by its primary key in the address
(``?after=123``), instead of an offset: a deep page costs what the first one does, and no
page counts the whole list. Rows are ordered by a key and then by primary key, both in the
same direction, so that one index ``(key, id)`` gives each page straight (see the indexes
of migration 0011 and ``bench/pages.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.db.models import Expression, F, Q, QuerySet, Subquery

from . import params

PAGE_SIZE = 25
# Primary keys are 64-bit at most.
MAX_CURSOR = 2**63 - 1


@dataclass
class Page:
    items: list[Any]
    # The cursors of the neighbouring pages: ``?before=<newer>`` and ``?after=<older>``.
    before: int | None
    after: int | None
    # The list's other parameters (its filters), kept on the links to the other pages.
    query: dict[str, str] = field(default_factory=dict)

    @property
    def has_other_pages(self) -> bool:
        return self.before is not None or self.after is not None

    @property
    def before_url(self) -> str | None:
        return self._url(before=self.before) if self.before is not None else None

    @property
    def after_url(self) -> str | None:
        return self._url(after=self.after) if self.after is not None else None

    def _url(self, **mark: int) -> str:
        return "?" + urlencode({**self.query, **mark})


def cursor(request, name: str) -> int | None:
    """The cursor ``name`` (``after`` or ``before``) of the address, if any; one that is
    not a row's primary key raises ``params.BadParameter`` (a 400 in a strict view)."""
    return params.integer(request.GET.get(name), name, minimum=1, maximum=MAX_CURSOR)


def page(
    rows: QuerySet,
    key: str | Expression,
    *,
    descending: bool,
    after: int | None = None,
    before: int | None = None,
    query: dict[str, str] | None = None,
    size: int = PAGE_SIZE,
) -> Page:
    """One page of ``rows`` ordered by ``key`` then primary key: the first page, the page
    after the row ``after``, or the page before the row ``before``. One query.
    ``query``: the list's other parameters, for the links to the other pages."""
    query = query or {}
    order = F(key) if isinstance(key, str) else key
    rows = rows.annotate(_key=order)
    if after is None and before is None:
        items = list(_ordered(rows, descending)[: size + 1])
        more = len(items) > size
        items = items[:size]
        return Page(items, None, items[-1].pk if more else None, query)
    mark, forward = (after, True) if after is not None else (before, False)
    # The cursor row's key, read in the same query; a row that no longer exists gives an
    # empty page.
    mark_row = rows.model._base_manager.filter(pk=mark).annotate(_key=order).order_by()
    value = Subquery(mark_row.values("_key")[:1])
    # "Further along" is smaller when descending; the first condition alone bounds the
    # index scan, the second breaks ties by primary key.
    beyond = forward == descending
    if beyond:
        rows = rows.filter(Q(_key__lte=value), Q(_key__lt=value) | Q(pk__lt=mark))
    else:
        rows = rows.filter(Q(_key__gte=value), Q(_key__gt=value) | Q(pk__gt=mark))
    items = list(_ordered(rows, descending if forward else not descending)[: size + 1])
    more = len(items) > size
    items = items[:size]
    if forward:
        return Page(items, items[0].pk if items else None, items[-1].pk if more else None, query)
    items.reverse()
    return Page(items, items[0].pk if more else None, items[-1].pk if items else None, query)


def _ordered(rows: QuerySet, descending: bool) -> QuerySet:
    return rows.order_by("-_key", "-pk") if descending else rows.order_by("_key", "pk")
