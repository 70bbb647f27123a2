"""Where the web front-end finds a game's own files: its table's template and style live in
the game's package (``templates/`` and ``static/`` beside its ``web`` module), which is no
Django app. Both look the packages up in the catalog at each search, so a game the tests
register at run time is served like the others."""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.files.storage import FileSystemStorage
from django.template.loaders.filesystem import Loader

from games import catalog


def _folders(name: str) -> list[Path]:
    found = (kind.directory for kind in catalog.all_games())
    return [folder / name for folder in found if folder and (folder / name).is_dir()]


class TemplateLoader(Loader):
    """Templates from each game's ``templates/`` folder (``web/tables/<slug>.html``)."""

    def get_dirs(self):
        return _folders("templates")


class StaticFinder(FileSystemFinder):
    """Static files from each game's ``static/`` folder (``web/tables/<slug>.css``)."""

    def __init__(self, app_names=None, *args, **kwargs):
        # Not FileSystemFinder's: that one reads STATICFILES_DIRS once.
        pass

    # Read at each call: the games' folders, not settings'.
    @property
    def locations(self) -> list[tuple[str, Path]]:  # type: ignore[override]
        return [("", folder) for folder in _folders("static")]

    @property
    def storages(self) -> dict[Path, FileSystemStorage]:  # type: ignore[override]
        return {folder: FileSystemStorage(location=folder) for _prefix, folder in self.locations}

    def check(self, **kwargs):
        return []
