"""Pure rules engines, one module per game. Imports neither Django nor Celery.

Each game's module exposes ``RULES`` (the contract is ``base.Engine``, which ``base.Rules``
implements); the catalog (``games.catalog``) says which module is which game's.
"""

from __future__ import annotations

from .base import (
    MAX_ACTION_BYTES,
    Engine,
    IllegalAction,
    Result,
    Rules,
    Termination,
    event,
    observations,
    ranks_from,
    utilities,
    visible_to,
)

__all__ = [
    "MAX_ACTION_BYTES",
    "Engine",
    "IllegalAction",
    "Result",
    "Rules",
    "Termination",
    "event",
    "observations",
    "ranks_from",
    "utilities",
    "visible_to",
]
