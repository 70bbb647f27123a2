"""The Celery app as ``python -m bench soak`` runs it: the same app, whose Telegram calls
carry the game state each message was rendered from (a header the soak's Bot API reads),
so that the soak can check every message for hidden information as the tests' recorder
does (``tests.bot.leaks``)."""

import json

from celery.signals import task_prerun, worker_init
from telegram.request import HTTPXRequest

from config.celery import app
from tests.bot.telegram_http import CONTEXT_HEADER

__all__ = ["app"]

# What the sync renders now. A solo-pool worker runs one task at a time, on one thread.
_current: dict = {"context": None}


class ContextRequest(HTTPXRequest):
    async def do_request(self, url, method, request_data=None, **kwargs):
        # Each sender owns its request and makes one call at a time: the client's headers
        # are this call's.
        headers = self._client.headers
        if _current["context"] is None:
            headers.pop(CONTEXT_HEADER, None)
        else:
            headers[CONTEXT_HEADER] = json.dumps(_current["context"], separators=(",", ":"))
        return await super().do_request(url, method, request_data, **kwargs)


@worker_init.connect
def remember_contexts(**kwargs):
    # Imported once the worker has set Django up: the screens import the models.
    from bot import transport
    from bot.screens import GameScreens
    from tests.bot.leaks import context_of

    original = GameScreens.__init__

    def remembering(self, game):
        original(self, game)
        _current["context"] = context_of(game)

    GameScreens.__init__ = remembering
    # The sender asks transport for its request on every sync: the same settings as there.
    transport.default_request = lambda: ContextRequest(
        connection_pool_size=8, read_timeout=15, connect_timeout=10
    )


@task_prerun.connect
def forget_context(**kwargs):
    _current["context"] = None
