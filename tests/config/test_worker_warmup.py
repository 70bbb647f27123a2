"""A starting worker loads every engine and computer player before its first task."""

import dataclasses
import logging
import weakref

from celery.signals import worker_init

from config.celery import load_engines
from games import catalog


def record_loads(monkeypatch) -> tuple[list, list]:
    """The modules the catalog imports, engines and computer players apart."""
    engines, computers = [], []
    load, strategies = catalog._load, catalog._strategies
    monkeypatch.setattr(catalog, "_load", lambda module: engines.append(module) or load(module))
    monkeypatch.setattr(
        catalog, "_strategies", lambda module: computers.append(module) or strategies(module)
    )
    return engines, computers


def test_worker_start_loads_every_engine(monkeypatch):
    receivers = [
        ref() if isinstance(ref, weakref.ref) else ref for _key, ref in worker_init.receivers
    ]
    assert load_engines in receivers  # connected to the worker's start
    engines, computers = record_loads(monkeypatch)
    load_engines()
    assert set(engines) == {kind.engine for kind in catalog.all_games()}
    assert set(computers) == {kind.computers for kind in catalog.all_games()}


def test_a_broken_engine_is_logged_and_the_others_still_load(monkeypatch, caplog):
    broken = dataclasses.replace(catalog.get("felix"), engine="games.engines.no_such_module")
    monkeypatch.setitem(catalog._GAMES, "felix", broken)
    engines, _computers = record_loads(monkeypatch)
    with caplog.at_level(logging.ERROR, logger="config.celery"):
        load_engines()
    assert "could not load the felix engine" in caplog.text
    others = {kind.engine for kind in catalog.all_games() if kind.slug != "felix"}
    assert others <= set(engines)
