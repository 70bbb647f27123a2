"""The benches' Telegram (the soak's and the taps'): the tests' Bot API on loopback
(``tests.bot.telegram_http``: the recording Bot API with Telegram's limits), so that real
bot, web and worker processes talk to it through ``TELEGRAM_API_URL`` as they would to
api.telegram.org.

On top of it, it times every call and injects faults on demand: a 429 storm (every
message call is refused with ``retry_after``) and a 5xx burst. It checks that 429s are
honoured: after a 429 for a chat, the next call to that chat must come after
``retry_after``.

The worker sends the state a message was rendered from in the context header
(``bench.harness.telegram_worker``); it becomes the call's ``context`` for the leak check.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from tests.bot.telegram_fake import Call, Shown
from tests.bot.telegram_http import BotApiServer, too_many_requests

# The calls a flood limit or an outage refuses: the messages. Answers to taps and polling
# are left alone (Telegram limits messages, not answers).
MESSAGE_METHODS = {"sendMessage", "editMessageText", "deleteMessage"}
# A call may come this much before ``retry_after`` passed and still count as honouring it:
# the sender's sleep starts when it reads the answer, a little after the server sent it.
RETRY_TOLERANCE = 0.05


@dataclass
class TimedCall(Call):
    at: float = 0.0  # time.monotonic() when the call arrived


class ByChat(dict):
    """The recorder's messages, also listed per chat: hundreds of simulated users look at
    their chats ten times a second."""

    def __init__(self):
        super().__init__()
        self.chats: dict[int, list[Shown]] = {}

    def __setitem__(self, key, shown):
        super().__setitem__(key, shown)
        self.chats.setdefault(key[0], []).append(shown)


class SoakTelegram(BotApiServer):
    def __init__(self, token: str, seed: int = 0):
        super().__init__(token)
        self.recorder.messages = ByChat()
        self.rng = random.Random(seed)
        self.mode = ""  # "", "429" or "5xx"
        self.mode_until = 0.0
        self.retry_until: dict[int, float] = {}  # chat -> when its last 429 lapses
        self.sent_429 = 0
        self.honoured_429 = 0
        self.early: list[tuple[int, str, float]] = []  # (chat, method, seconds too early)
        self.sent_5xx = 0

    # -- faults --------------------------------------------------------------------------
    def storm(self, mode: str, seconds: float) -> None:
        with self.lock:
            self.mode, self.mode_until = mode, time.monotonic() + seconds

    def _fault(self, method: str, chat_id: int | None, now: float) -> tuple[int, dict] | None:
        """Checks the 429 discipline and answers with the current fault, if any."""
        if chat_id is not None and chat_id in self.retry_until:
            until = self.retry_until.pop(chat_id)
            if now < until - RETRY_TOLERANCE:
                self.early.append((chat_id, method, until - now))
            else:
                self.honoured_429 += 1
        if method not in MESSAGE_METHODS or now >= self.mode_until:
            return None
        if self.mode == "429":
            retry_after = self.rng.randint(1, 3)
            self.sent_429 += 1
            if chat_id is not None:
                self.retry_until[chat_id] = now + retry_after
            return too_many_requests(retry_after)
        if self.mode == "5xx":
            self.sent_5xx += 1
            status = self.rng.choice([500, 502])
            return status, {"ok": False, "error_code": status, "description": "Bad Gateway"}
        return None

    # -- one call ------------------------------------------------------------------------
    def call(self, method: str, params: dict, context) -> tuple[int, dict]:
        if method == "getUpdates":
            return super().call(method, params, context)
        chat = params.get("chat_id")
        chat_id = int(chat) if chat is not None else None
        with self.lock:
            fault = self._fault(method, chat_id, time.monotonic())
        return self.record(method, params, context, fault)

    def new_call(self, method: str, params: dict, status: int, result, context) -> Call:
        return TimedCall(method, params, status, result, context, at=time.monotonic())

    def screen(self, chat_id: int) -> list[Shown]:
        """The live messages of a chat, oldest first."""
        with self.recorder.lock:
            return [m for m in self.recorder.messages.chats.get(chat_id, []) if not m.deleted]
