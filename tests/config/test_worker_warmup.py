"""A starting worker loads every engine and computer player before its first task."""

import logging
import weakref

from celery.signals import worker_init

from config.celery import load_engines
from games import engines


def test_worker_start_loads_every_engine(monkeypatch):
    receivers = [
        ref() if isinstance(ref, weakref.ref) else ref for _key, ref in worker_init.receivers
    ]
    assert load_engines in receivers  # connected to the worker's start
    monkeypatch.setattr(engines, "_cache", {})
    load_engines()
    assert set(engines._cache) == set(engines.catalog.slugs())


def test_a_broken_engine_is_logged_and_the_others_still_load(monkeypatch, caplog):
    monkeypatch.setattr(engines, "_cache", {})
    modules = {**engines.ENGINE_MODULES, "felix": "games.engines.no_such_module"}
    monkeypatch.setattr(engines, "ENGINE_MODULES", modules)
    with caplog.at_level(logging.ERROR, logger="config.celery"):
        load_engines()
    assert "could not load the felix engine" in caplog.text
    assert set(engines._cache) == set(engines.catalog.slugs()) - {"felix"}
