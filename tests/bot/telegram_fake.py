"""A Bot API double for the tests: a request object that records every call and answers
as Telegram would, enforcing the limits the bot must respect, plus simulated users that
send real update JSON (messages and callback queries) to the bot.

Limits enforced: callback data of at most 64 bytes, text of at most 4096 characters
(after HTML parsing; the HTML must be well formed), at most 100 buttons (8 per row), edits
that change nothing fail with "message is not modified", a callback query is answered at
most once (with at most 200 characters), private messages only to users who started the
bot and did not block it, and 429 with ``retry_after`` on demand.
"""

from __future__ import annotations

import html
import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from telegram.request import BaseRequest

BOT_ID = 777000
BOT_USERNAME = "catclub_test_bot"
ALLOWED_TAGS = {"b", "i", "u", "s", "code", "pre", "a"}


@dataclass
class Call:
    method: str
    params: dict
    status: int
    result: Any
    context: Any = None  # what the bot rendered from (set by the tests' hooks)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | None:
        chat = self.params.get("chat_id")
        return int(chat) if chat is not None else None

    @property
    def text(self) -> str:
        return self.params.get("text", "")

    @property
    def buttons(self) -> list[dict]:
        markup = self.params.get("reply_markup") or {}
        if isinstance(markup, str):
            markup = json.loads(markup)
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    def everything(self) -> str:
        """Text plus every button label, callback data and URL."""
        parts = [self.text]
        for b in self.buttons:
            parts += [b.get("text", ""), b.get("callback_data", ""), b.get("url", "")]
        return "\n".join(parts)


@dataclass
class Shown:
    """A message as the chat shows it now."""

    chat_id: int
    message_id: int
    text: str  # plain text, as the user sees it
    html: str
    markup: dict | None
    deleted: bool = False

    @property
    def buttons(self) -> list[dict]:
        return [b for row in (self.markup or {}).get("inline_keyboard", []) for b in row]

    def button(self, label: str | None = None, data: str | None = None) -> dict:
        for b in self.buttons:
            if label is not None and label not in b["text"]:
                continue
            if data is not None and not b.get("callback_data", "").startswith(data):
                continue
            return b
        raise AssertionError(f"no button {label or data!r} in {[b['text'] for b in self.buttons]}")


class _Html(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []
        self.error = ""

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED_TAGS:
            self.error = f"unsupported start tag {tag!r}"
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.error = f"unexpected end tag {tag!r}"

    def handle_data(self, data):
        self.text.append(data)


def parse_html(text: str) -> tuple[str, str]:
    """(plain text, error) as Telegram's HTML parse mode would see it."""
    parser = _Html()
    parser.feed(text)
    parser.close()
    if parser.stack and not parser.error:
        parser.error = f"unclosed tag {parser.stack[-1]!r}"
    return "".join(parser.text), parser.error


class Recorder(BaseRequest):
    """Records every Bot API call and answers like Telegram."""

    def __init__(self):
        self.lock = threading.RLock()
        self.calls: list[Call] = []
        self.messages: dict[tuple[int, int], Shown] = {}
        self._ids = itertools.count(1)
        self.answered: set[str] = set()
        self.started: set[int] = set()  # users who opened a private chat with the bot
        self.blocked: set[int] = set()
        self.admins: dict[int, set[int]] = {}
        self.failures: list[dict] = []
        self.context: Any = None
        self.users: dict[int, dict] = {}
        self.chats: dict[int, dict] = {}
        self.migrated: dict[int, int] = {}  # group id -> its supergroup's id

    # -- BaseRequest ---------------------------------------------------------------------
    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def do_request(self, url, method, request_data=None, **_timeouts) -> tuple[int, bytes]:
        api = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data else {}
        with self.lock:
            status, payload = self._handle(api, params)
            result = payload.get("result") if status == 200 else payload
            self.calls.append(Call(api, params, status, result, self.context))
        return status, json.dumps(payload).encode()

    # -- on demand -----------------------------------------------------------------------
    def fail_next(
        self,
        method: str,
        *,
        retry_after: int | None = None,
        times: int = 1,
        status: int = 429,
        description: str = "Too Many Requests: retry later",
    ):
        for _ in range(times):
            self.failures.append(
                {
                    "method": method,
                    "status": status,
                    "description": description,
                    "retry_after": retry_after,
                }
            )

    # -- answers -------------------------------------------------------------------------
    def _error(self, status: int, description: str, **parameters) -> tuple[int, dict]:
        body = {"ok": False, "error_code": status, "description": description}
        if parameters:
            body["parameters"] = parameters
        return status, body

    def _ok(self, result) -> tuple[int, dict]:
        return 200, {"ok": True, "result": result}

    def bot_user(self) -> dict:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "catclub",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def chat_json(self, chat_id: int) -> dict:
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id < 0:
            return {"id": chat_id, "type": "supergroup", "title": f"Group {chat_id}"}
        user = self.users.get(chat_id, {"first_name": str(chat_id)})
        return {"id": chat_id, "type": "private", "first_name": user["first_name"]}

    def _handle(self, api: str, params: dict) -> tuple[int, dict]:
        for failure in self.failures:
            if failure["method"] == api:
                self.failures.remove(failure)
                extra = {"retry_after": failure["retry_after"]} if failure["retry_after"] else {}
                return self._error(failure["status"], failure["description"], **extra)
        chat_id = params.get("chat_id")
        if chat_id is not None and int(chat_id) in self.migrated:
            return self._error(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=self.migrated[int(chat_id)],
            )
        handler = getattr(self, f"api_{api}", None)
        if handler is None:
            return self._error(404, f"Not Found: method {api} is not simulated")
        return handler(params)

    def api_getMe(self, params):
        return self._ok(self.bot_user())

    def api_setMyCommands(self, params):
        commands = params["commands"]
        if isinstance(commands, str):
            commands = json.loads(commands)
        for c in commands:
            assert re.fullmatch(r"[a-z0-9_]{1,32}", c["command"]), c
            assert 1 <= len(c["description"]) <= 256, c
        return self._ok(True)

    def api_deleteWebhook(self, params):
        return self._ok(True)

    def api_setWebhook(self, params):
        return self._ok(True)

    def api_getChatMember(self, params):
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        user = {
            "id": user_id,
            "is_bot": False,
            "first_name": self.users.get(user_id, {}).get("first_name", "x"),
        }
        if user_id in self.admins.get(chat_id, set()):
            return self._ok({"status": "creator", "user": user, "is_anonymous": False})
        return self._ok({"status": "member", "user": user})

    def api_answerCallbackQuery(self, params):
        query_id = params["callback_query_id"]
        if query_id in self.answered:
            return self._error(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        if len(params.get("text") or "") > 200:
            return self._error(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answered.add(query_id)
        return self._ok(True)

    def _check_content(self, params) -> tuple[str, str, dict | None] | tuple[int, dict]:
        text = params.get("text", "")
        plain, error = parse_html(text) if params.get("parse_mode") == "HTML" else (text, "")
        if error:
            return self._error(400, f"Bad Request: can't parse entities: {error}")
        if not plain.strip():
            return self._error(400, "Bad Request: message text is empty")
        if len(plain) > 4096:
            return self._error(400, "Bad Request: message is too long")
        markup = params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        rows = (markup or {}).get("inline_keyboard", [])
        in_group = int(params.get("chat_id", 0)) < 0
        if sum(len(r) for r in rows) > 100 or any(len(r) > 8 for r in rows):
            return self._error(400, "Bad Request: too many buttons")
        for row in rows:
            for b in row:
                data = b.get("callback_data")
                if not b.get("text"):
                    return self._error(400, "Bad Request: button text is empty")
                if data is not None and not 1 <= len(data.encode()) <= 64:
                    return self._error(400, "Bad Request: BUTTON_DATA_INVALID")
                if b.get("web_app") and in_group:  # Mini App buttons: private chats only
                    return self._error(400, "Bad Request: BUTTON_TYPE_INVALID")
                if data is None and not b.get("url") and not b.get("web_app"):
                    return self._error(400, "Bad Request: button has no action")
        return plain, text, markup or None

    def _reachable(self, chat_id: int) -> tuple[int, dict] | None:
        if chat_id > 0 and chat_id in self.blocked:
            return self._error(403, "Forbidden: bot was blocked by the user")
        if chat_id > 0 and chat_id not in self.started:
            return self._error(403, "Forbidden: bot can't initiate conversation with a user")
        return None

    def _message_json(self, shown: Shown) -> dict:
        data = {
            "message_id": shown.message_id,
            "date": int(time.time()),
            "chat": self.chat_json(shown.chat_id),
            "from": self.bot_user(),
            "text": shown.text,
        }
        if shown.markup:
            data["reply_markup"] = shown.markup
        return data

    def api_sendMessage(self, params):
        chat_id = int(params["chat_id"])
        refused = self._reachable(chat_id)
        if refused:
            return refused
        checked = self._check_content(params)
        if isinstance(checked[0], int):
            return checked
        plain, raw, markup = checked
        shown = Shown(chat_id, next(self._ids), plain, raw, markup)
        self.messages[(chat_id, shown.message_id)] = shown
        return self._ok(self._message_json(shown))

    def api_editMessageText(self, params):
        chat_id, message_id = int(params["chat_id"]), int(params["message_id"])
        refused = self._reachable(chat_id)
        if refused:
            return refused
        shown = self.messages.get((chat_id, message_id))
        if shown is None or shown.deleted:
            return self._error(400, "Bad Request: message to edit not found")
        checked = self._check_content(params)
        if isinstance(checked[0], int):
            return checked
        plain, raw, markup = checked
        if raw == shown.html and markup == shown.markup:
            return self._error(
                400,
                "Bad Request: message is not modified: specified new message content and reply"
                " markup are exactly the same as a current content and reply markup of the"
                " message",
            )
        shown.text, shown.html, shown.markup = plain, raw, markup
        return self._ok(self._message_json(shown))

    def api_deleteMessage(self, params):
        shown = self.messages.get((int(params["chat_id"]), int(params["message_id"])))
        if shown is None or shown.deleted:
            return self._error(400, "Bad Request: message to delete not found")
        shown.deleted = True
        return self._ok(True)

    # -- reading what was sent -----------------------------------------------------------
    def sent(self, chat_id: int | None = None, method: str | None = None, ok=True) -> list[Call]:
        with self.lock:
            return [
                c
                for c in self.calls
                if (chat_id is None or c.chat_id == chat_id)
                and (method is None or c.method == method)
                and (ok is None or c.ok == ok)
            ]

    def screen(self, chat_id: int) -> list[Shown]:
        """The live messages of a chat, oldest first."""
        with self.lock:
            return sorted(
                (m for (c, _), m in self.messages.items() if c == chat_id and not m.deleted),
                key=lambda m: m.message_id,
            )

    def last(self, chat_id: int) -> Shown:
        shown = self.screen(chat_id)
        assert shown, f"nothing was sent to chat {chat_id}"
        return shown[-1]

    def with_button(self, chat_id: int, data_prefix: str) -> Shown | None:
        for shown in reversed(self.screen(chat_id)):
            if any(b.get("callback_data", "").startswith(data_prefix) for b in shown.buttons):
                return shown
        return None


@dataclass
class FakeUser:
    tg: FakeTelegram
    id: int
    first_name: str
    language_code: str = "en"
    username: str = ""

    def json(self) -> dict:
        return {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "username": self.username or self.first_name.lower(),
            "language_code": self.language_code,
        }

    def say(self, chat: dict, text: str) -> None:
        self.tg.send_message(self, chat, text)

    def start_bot(self, payload: str = "") -> None:
        self.tg.recorder.started.add(self.id)
        self.tg.recorder.blocked.discard(self.id)
        self.say(self.tg.private(self), "/start" + (f" {payload}" if payload else ""))

    def tap(self, message: Shown, label: str | None = None, data: str | None = None) -> str:
        button = message.button(label, data)
        return self.tg.tap(self, message, button["callback_data"])


@dataclass
class FakeTelegram:
    """Sends updates as Telegram would, to a processing function."""

    recorder: Recorder
    process: Any  # callable(update_json)
    _update_ids: Any = field(default_factory=lambda: itertools.count(5000))
    _user_ids: Any = field(default_factory=lambda: itertools.count(1001))
    _query_ids: Any = field(default_factory=lambda: itertools.count(1))
    _message_ids: Any = field(default_factory=lambda: itertools.count(10_000))

    def user(self, first_name: str, language_code: str = "en") -> FakeUser:
        user = FakeUser(self, next(self._user_ids), first_name, language_code)
        self.recorder.users[user.id] = user.json()
        return user

    def group(self, chat_id: int = -100_123, title: str = "Cat lovers") -> dict:
        chat = {"id": chat_id, "type": "supergroup", "title": title}
        self.recorder.chats[chat_id] = chat
        return chat

    def basic_group(self, chat_id: int = -4_001, title: str = "Cat lovers") -> dict:
        """A basic group, as groups start out; ``upgrade`` makes it a supergroup."""
        chat = {"id": chat_id, "type": "group", "title": title}
        self.recorder.chats[chat_id] = chat
        return chat

    def upgrade(self, group: dict, new_id: int, user: FakeUser, announce=(True, True)) -> dict:
        """Telegram turns a group into a supergroup: calls to the old id fail from now on
        with ``migrate_to_chat_id``, and a service message in each chat announces the move
        (``announce``: whether the old group's and the new chat's are delivered)."""
        supergroup = self.group(new_id, group["title"])
        self.recorder.migrated[group["id"]] = new_id
        old_side, new_side = announce
        if old_side:
            self.deliver(self.service_update(user, group, migrate_to_chat_id=new_id))
        if new_side:
            self.deliver(self.service_update(user, supergroup, migrate_from_chat_id=group["id"]))
        return supergroup

    def service_update(self, user: FakeUser, chat: dict, **fields) -> dict:
        message = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": user.json(),
            **fields,
        }
        return {"update_id": self.next_update_id(), "message": message}

    def private(self, user: FakeUser) -> dict:
        return {"id": user.id, "type": "private", "first_name": user.first_name}

    def next_update_id(self) -> int:
        return next(self._update_ids)

    def message_update(self, user: FakeUser, chat: dict, text: str) -> dict:
        if chat["type"] == "private":  # writing to the bot opens the private chat
            self.recorder.started.add(user.id)
        message = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": user.json(),
            "text": text,
        }
        command = re.match(r"/[A-Za-z0-9_]+(@\w+)?", text)
        if command:
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": command.end()}]
        return {"update_id": self.next_update_id(), "message": message}

    def deliver(self, update: dict) -> None:
        # What the bot renders while handling this update says which game it shows.
        self.recorder.context = None
        self.process(update)

    def send_message(self, user: FakeUser, chat: dict, text: str) -> None:
        self.deliver(self.message_update(user, chat, text))

    def callback_update(self, user: FakeUser, message: Shown, data: str) -> dict:
        query_id = f"q{next(self._query_ids)}"
        return {
            "update_id": self.next_update_id(),
            "callback_query": {
                "id": query_id,
                "from": user.json(),
                "chat_instance": str(message.chat_id),
                "data": data,
                "message": self.recorder._message_json(message),
            },
        }

    def tap(self, user: FakeUser, message: Shown, data: str) -> str:
        update = self.callback_update(user, message, data)
        self.deliver(update)
        return update["callback_query"]["id"]

    def answer_to(self, query_id: str) -> Call:
        answers = [
            c
            for c in self.recorder.sent(method="answerCallbackQuery", ok=None)
            if c.params.get("callback_query_id") == query_id
        ]
        assert len(answers) == 1, f"query {query_id} answered {len(answers)} times"
        return answers[0]

    def toast(self, query_id: str) -> str:
        return self.answer_to(query_id).params.get("text") or ""


def unescape(text: str) -> str:
    return html.unescape(text)
