"""Every game in the catalog keeps the typed contracts the generic code calls (issue 23):
its engine ``Engine``, its narration ``Narration``, its Telegram module
``TelegramRenderer`` and its web module ``WebTable``. mypy checks the callers against the
same Protocols; this checks each game's modules, which are found only at run time."""

from __future__ import annotations

import pytest

from bot.render import TelegramRenderer
from games import catalog
from games.engines import Engine
from games.kinds import _load
from games.narration import Narration
from web.tables import WebTable

KINDS = catalog.all_games()


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.slug)
def test_each_game_keeps_the_contracts_of_its_modules(kind):
    assert isinstance(kind.rules, Engine)
    assert kind.narration is not None
    assert isinstance(_load(kind.narration), Narration)
    assert isinstance(kind.renderer(catalog.TELEGRAM), TelegramRenderer)
    assert isinstance(kind.renderer(catalog.WEB), WebTable)


def test_a_module_missing_a_function_of_the_contract_is_caught():
    class Half:
        def table(self, view, ctx):
            return "", []

    assert not isinstance(Half(), TelegramRenderer)
    assert not isinstance(Half(), WebTable)
