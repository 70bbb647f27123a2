"""Where a finished game's league and rating update plugs in (the leagues code)."""

import logging

log = logging.getLogger(__name__)


def run(game_id: int) -> None:
    log.debug("game %s finished; no rating update is configured", game_id)
