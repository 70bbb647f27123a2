"""A starting worker loads every engine and computer player before its first task."""

import logging
import weakref

from celery.signals import worker_init

from games import catalog
from games.play.tasks import load_games


def test_worker_start_loads_every_engine():
    receivers = [
        ref() if isinstance(ref, weakref.ref) else ref for _key, ref in worker_init.receivers
    ]
    assert load_games in receivers  # connected to the worker's start
    assert load_games() == list(catalog.slugs())


def test_a_broken_engine_is_logged_and_the_others_still_load(caplog):
    broken = catalog.GameKind(
        slug="broken", name="Broken", short_name="Broken", emoji="💥", engine="games.no_such"
    )
    catalog.register(broken)
    try:
        with caplog.at_level(logging.ERROR, logger="games.play.tasks"):
            loaded = load_games()
    finally:
        catalog.unregister("broken")
    assert "could not load the broken engine" in caplog.text
    assert loaded == list(catalog.slugs())
