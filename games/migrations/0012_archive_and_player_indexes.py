"""Indexes of the public lists (issue 17): the game archive pages by start time, in all
games and in one league, and the players' list by name (``web.paging``); the
league list counts each league's finished games.

The search by name walks the name index and tests each name (``bench.pages``: 10 to 25 ms
with 20,000 players). A trigram index was tried and left out: for a page in name order
PostgreSQL preferred walking the name index, so it only cost writes."""

import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_league_computer_level"),
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
            model_name="game",
            index=models.Index(
                condition=models.Q(("status", "finished")),
                fields=["league", "id"],
                name="game_finished_by_league",
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
    ]
