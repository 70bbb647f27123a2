"""The four games as OpenSpiel games (issue 27), for OpenSpiel's tools and algorithms.

Optional: it needs ``pyspiel`` (``pip install .[openspiel]``) and nothing in the product
imports it. Importing it registers ``catclub_felix``, ``catclub_smoking_cat``,
``catclub_bon_appetit`` and ``catclub_cats_and_dogs`` with pyspiel; the table size is
the ``players`` parameter::

    import games.openspiel
    game = pyspiel.load_game("catclub_felix", {"players": 3})

``game.py`` says how an engine becomes an OpenSpiel game, ``deals.py`` how its deals
become chance nodes.
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
