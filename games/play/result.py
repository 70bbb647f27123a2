"""A finished game's result, typed: ``Result`` (scores, places, the game's details) and
its ``Termination`` (why the game ended). They belong to the engine contract
(``games.engines.base``), where engines make them; the front-ends, which never import an
engine, take them from here.
"""

from __future__ import annotations

from games.engines import Result, Termination

__all__ = ["Result", "Termination"]
