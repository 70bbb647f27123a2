"""Pure rules engines for the four games. Imports neither Django nor Celery.

``get_rules(slug)`` returns a game's rules object (see ``base.Rules`` for the contract).
"""

from __future__ import annotations

from importlib import import_module

from .base import MAX_ACTION_BYTES, IllegalAction, Rules, event, ranks_from, visible_to

# slug -> module that defines RULES; imported on first use so one broken engine
# cannot stop the others from loading.
ENGINE_MODULES = {
    "felix": "games.engines.felix",
    "smoking_cat": "games.engines.smoking_cat",
    "bon_appetit": "games.engines.bon_appetit",
    "cats_and_dogs": "games.engines.cats_and_dogs",
}
SLUGS = tuple(ENGINE_MODULES)

_cache: dict[str, Rules] = {}


def get_rules(slug: str) -> Rules:
    try:
        return _cache[slug]
    except KeyError:
        pass
    if slug not in ENGINE_MODULES:
        raise KeyError(f"unknown game {slug!r}; known: {', '.join(SLUGS)}")
    rules = import_module(ENGINE_MODULES[slug]).RULES
    _cache[slug] = rules
    return rules


__all__ = [
    "MAX_ACTION_BYTES",
    "SLUGS",
    "IllegalAction",
    "Rules",
    "event",
    "get_rules",
    "ranks_from",
    "visible_to",
]
