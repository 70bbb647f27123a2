"""Running the Application for the (synchronous) webhook view.

The Application and its HTTP client belong to one event loop, so they live on a loop of
their own in a daemon thread, initialized once; the view hands each update to it and
waits for the handlers to finish.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time

from asgiref.sync import SyncToAsync
from telegram import Update
from telegram.ext import Application

from bot import transport
from bot.application import build_application

# The longest the view waits for one update, starting the Application included: Telegram
# gives up on a webhook call after about a minute. Gunicorn's worker timeout (Dockerfile,
# docker-compose.yml) must be longer: a worker killed mid-update leaves the update marked
# as seen, and Telegram's redelivery is then ignored as a duplicate.
PROCESS_TIMEOUT = 55


class BadUpdate(ValueError):
    """A body with an update id that is still not an update the library can read."""


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


class Bridge:
    def __init__(self, factory):
        self._factory = factory
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._app: Application | None = None

    def _ensure(self, deadline: float) -> Application:
        # Waiting for another request's start-up counts against this request's time too.
        if not self._lock.acquire(timeout=_left(deadline)):
            raise TimeoutError("the Telegram application is still starting")
        try:
            if self._app is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="telegram-webhook", daemon=True
                )
                thread.start()
                app = self._factory()
                init = asyncio.run_coroutine_threadsafe(app.initialize(), loop)
                init.result(_left(deadline))
                transport.remember_username(app.bot.username)
                self._loop, self._app = loop, app
            return self._app
        finally:
            self._lock.release()

    def process(self, payload: dict) -> None:
        deadline = time.monotonic() + PROCESS_TIMEOUT
        app = self._ensure(deadline)
        try:
            update = Update.de_json(payload, app.bot)
        except Exception as exc:  # whatever the library trips on in a malformed body
            raise BadUpdate(f"{type(exc).__name__}: {exc}") from exc

        async def handle():
            await app.process_update(update)

        # The update's handlers run in the bridge's loop, in a copy of this thread's context
        # (contextvars). Under ASGI that context names this request's own thread as where
        # Django's synchronous work goes (asgiref's ThreadSensitiveContext), and this thread
        # waits below: every handler's database call would wait for it, until the deadline.
        # They get the bridge's own thread instead, as under WSGI.
        context = contextvars.copy_context()
        # asgiref reads None as "no thread-sensitive context", though its variable's type
        # says a context.
        context.run(SyncToAsync.thread_sensitive_context.set, None)  # type: ignore[arg-type]
        loop = self._loop
        if loop is None:  # closed since ``_ensure``
            raise BadUpdate("the bot is closed")
        future = context.run(asyncio.run_coroutine_threadsafe, handle(), loop)
        future.result(_left(deadline))

    def close(self) -> None:
        with self._lock:
            if self._app is not None and self._loop is not None:
                asyncio.run_coroutine_threadsafe(self._app.shutdown(), self._loop).result(10)
                self._loop.call_soon_threadsafe(self._loop.stop)
            self._app = self._loop = None


def _default_factory():
    return build_application(updater=False)


bridge = Bridge(_default_factory)
