"""Indexes of the public lists (issue 17): the game archive pages by start time, in all
games and in one league (``admin_ui.public.paging``); the players' list by name; and, on
PostgreSQL, the search by name: a trigram index serves ``display_name__icontains``
(``UPPER(display_name) LIKE UPPER('%…%')``), which a b-tree cannot. SQLite has no such
index and scans its (small) table."""

import django.db.models.functions.text
from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations, models

SEARCH_INDEX = "player_name_search"


def create_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{SEARCH_INDEX}" ON "games_player" '
            'USING gin ((UPPER("display_name"::text)) gin_trgm_ops)'
        )


def drop_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{SEARCH_INDEX}"')


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_view_secrets_permission"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("started_at__isnull", False)),
                fields=["-started_at", "-id"],
                name="game_archive",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("started_at__isnull", False)),
                fields=["league", "-started_at", "-id"],
                name="game_archive_league",
            ),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(
                django.db.models.functions.text.Lower("display_name"),
                models.F("id"),
                name="player_name",
            ),
        ),
        TrigramExtension(),  # nothing on SQLite
        migrations.RunPython(create_search_index, drop_search_index, elidable=False),
    ]
