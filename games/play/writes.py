"""Several writes of one transaction sent as one statement.

The game processor ends each step with a handful of writes (the game's row, the moves it
applied or refused, the computers' new moves); sent one by one they are as many round
trips to the database as the whole rest of the step. On PostgreSQL they go as one statement
whose writes are data-modifying ``WITH`` clauses: they run under the same snapshot and
touch different rows, so the result is the same as running them in turn. Elsewhere (SQLite,
the embedded default) they simply run in turn.

Django compiles every write (field preparation, JSON adaptation, ``auto_now_add``), so
nothing here spells a column by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.sql import InsertQuery, UpdateQuery


class Writes:
    def __init__(self, using: str = "default"):
        self.using = using
        self._statements: list[tuple[str, tuple]] = []

    def update(self, queryset: QuerySet, **values) -> None:
        """``queryset.update(**values)``, later."""
        query = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
        query.add_update_values(values)
        sql, params = query.get_compiler(self.using).as_sql()
        if sql:
            self._statements.append((sql, tuple(params)))

    def insert(self, objs: Sequence[Model]) -> None:
        """``bulk_create(objs)`` of objects with an automatic primary key, later (their
        primary keys stay unset)."""
        if not objs:
            return
        opts = objs[0]._meta
        fields = [f for f in opts.concrete_fields if f is not opts.pk and not f.generated]
        query = InsertQuery(type(objs[0]))
        query.insert_values(fields, list(objs))
        for sql, params in query.get_compiler(self.using).as_sql():
            self._statements.append((sql, tuple(params)))

    def run(self) -> None:
        statements, self._statements = self._statements, []
        if not statements:
            return
        connection = connections[self.using]
        with connection.cursor() as cursor:
            if connection.vendor != "postgresql" or len(statements) == 1:
                for sql, params in statements:
                    cursor.execute(sql, params)
                return
            *first, (last_sql, last_params) = statements
            clauses = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
            params = tuple(p for _, ps in first for p in ps) + last_params
            cursor.execute(f"WITH {clauses} {last_sql}", params)
