"""Each game's deals as chance nodes: the ``Deal`` its package declares (``games.kinds``:
``openspiel.DEAL``), found through the catalog. How a deal is drawn card by card, and why,
is ``games.engines.deals``; a game without such a module is not offered to OpenSpiel.
"""

from __future__ import annotations

from games import catalog
from games.engines.deals import Deal

DEALS: dict[str, Deal] = {
    kind.slug: deal for kind in catalog.all_games() if (deal := kind.deal) is not None
}
