# The league's word under a name of its own: a word the league gives the games that play
# for one, not one game's "game word". Renamed in place, the data kept.

import django.db.models.functions.text
import django.db.models.lookups
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_league_word_generic_label"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="league",
            name="league_game_word_length",
        ),
        migrations.RenameField(
            model_name="league",
            old_name="game_word",
            new_name="word",
        ),
        migrations.AddConstraint(
            model_name="league",
            constraint=models.CheckConstraint(
                condition=django.db.models.lookups.GreaterThanOrEqual(
                    django.db.models.functions.text.Length("word"), 3
                )
                & django.db.models.lookups.LessThanOrEqual(
                    django.db.models.functions.text.Length("word"), 12
                ),
                name="league_word_length",
            ),
        ),
    ]
