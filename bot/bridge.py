"""Running the Application for the (synchronous) webhook view.

The Application and its HTTP client belong to one event loop, so they live on a loop of
their own in a daemon thread, initialized once; the view hands each update to it and
waits for the handlers to finish.
"""

from __future__ import annotations

import asyncio
import threading

from telegram import Update
from telegram.ext import Application

from bot import transport
from bot.application import build_application

PROCESS_TIMEOUT = 55  # Telegram gives up on a webhook call after about a minute


class Bridge:
    def __init__(self, factory):
        self._factory = factory
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._app: Application | None = None

    def _ensure(self) -> Application:
        with self._lock:
            if self._app is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="telegram-webhook", daemon=True
                )
                thread.start()
                app = self._factory()
                asyncio.run_coroutine_threadsafe(app.initialize(), loop).result(PROCESS_TIMEOUT)
                transport.remember_username(app.bot.username)
                self._loop, self._app = loop, app
            return self._app

    def process(self, payload: dict) -> None:
        app = self._ensure()

        async def handle():
            await app.process_update(Update.de_json(payload, app.bot))

        asyncio.run_coroutine_threadsafe(handle(), self._loop).result(PROCESS_TIMEOUT)

    def close(self) -> None:
        with self._lock:
            if self._app is not None:
                asyncio.run_coroutine_threadsafe(self._app.shutdown(), self._loop).result(10)
                self._loop.call_soon_threadsafe(self._loop.stop)
            self._app = self._loop = None


def _default_factory():
    return build_application(updater=False)


bridge = Bridge(_default_factory)
