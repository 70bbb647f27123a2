"""Update admin_ui's translation catalogues (it, pt).

The public pages and the admin show strings of the leagues, ratings and moderation code in
``games/`` too (model names, skip reasons, moderation errors). ``makemessages`` only reads
the current tree, so this links those files in for the run, then compiles the catalogues.
"""

from pathlib import Path

from django.core.management import BaseCommand, call_command

SOURCES = [
    "games/errors.py",
    "games/moderation.py",
    "games/ratings.py",
    "games/standings.py",
    "games/models/games.py",
    "games/models/leagues.py",
    "games/models/moderation.py",
    "games/models/players.py",
    "games/models/ratings.py",
]


class Command(BaseCommand):
    help = "Update and compile admin_ui/locale (it, pt), with the games strings it shows."

    def handle(self, *args, **options):
        import os

        app = Path(__file__).resolve().parents[2]
        root = app.parent
        links = app / "_msgsrc"
        links.mkdir(exist_ok=True)
        try:
            for source in SOURCES:
                link = links / source.replace("/", "_")
                if not link.exists():
                    link.symlink_to(os.path.relpath(root / source, links))
            cwd = Path.cwd()
            os.chdir(app)
            try:
                call_command(
                    "makemessages", locale=["it", "pt"], symlinks=True, ignore_patterns=["static/*"]
                )
                call_command("compilemessages", locale=["it", "pt"])
            finally:
                os.chdir(cwd)
        finally:
            for link in links.iterdir():
                link.unlink()
            links.rmdir()
