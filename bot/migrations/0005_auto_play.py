# The chat's setting for forced moves named as the catalog names them (GameKind.auto_play),
# not after one game's move. Renamed in place, the data kept.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("bot", "0004_auto_flip_generic_label"),
    ]

    operations = [
        migrations.RenameField(
            model_name="chatsettings",
            old_name="auto_flip",
            new_name="auto_play",
        ),
    ]
