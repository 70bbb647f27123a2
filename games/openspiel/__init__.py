"""The games as OpenSpiel games (issue 27), for OpenSpiel's tools and algorithms.

Optional: it needs ``pyspiel`` (``pip install .[openspiel]``) and nothing in the product
imports it. Importing it registers with pyspiel each catalog game whose package declares
its deals (``openspiel.DEAL``), as ``catclub_<slug>``; the table size is the ``players``
parameter::

    import games.openspiel
    game = pyspiel.load_game(games.openspiel.short_name(slug), {"players": 3})

``game.py`` says how an engine becomes an OpenSpiel game, ``games.engines.deals`` how its
deals become chance nodes, ``deals.py`` where each game's are found.
"""

from __future__ import annotations

import pyspiel

from .deals import DEALS
from .game import game_class, short_name

GAMES = {slug: game_class(deal, slug) for slug, deal in DEALS.items()}

_registered = set(pyspiel.registered_names())
for _slug, _cls in GAMES.items():
    # Registering twice is an error in pyspiel (a reload of this module in one process).
    if short_name(_slug) not in _registered:
        pyspiel.register_game(_cls.TYPE, _cls)

__all__ = ["GAMES", "short_name"]
