"""The Django project, set up for the benches that need it (``python -m bench`` does it
before importing such a bench; a pure bench that may go on to the database calls it)."""

from __future__ import annotations

import os

import django


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
