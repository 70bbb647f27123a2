"""Inline keyboards as plain data, so renderers stay free of Telegram objects and a
message's content can be hashed to skip edits that would change nothing."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

MAX_PER_ROW = 8
MAX_BUTTONS = 100


@dataclass(frozen=True)
class Button:
    label: str
    data: str | None = None
    url: str | None = None
    # A Mini App opened in place (Telegram allows these in private chats only).
    web_app: str | None = None


Rows = list[list[Button]]


def grid(buttons: list[Button], per_row: int) -> Rows:
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


def to_markup(rows: Rows | None) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup([[_button(b) for b in row] for row in rows if row])


def _button(b: Button) -> InlineKeyboardButton:
    if b.web_app:
        return InlineKeyboardButton(b.label, web_app=WebAppInfo(b.web_app))
    if b.url:
        return InlineKeyboardButton(b.label, url=b.url)
    return InlineKeyboardButton(b.label, callback_data=b.data)


def content_hash(text: str, rows: Rows | None) -> str:
    payload = json.dumps(
        [text, [[[b.label, b.data, b.url, b.web_app] for b in row] for row in rows or []]],
        ensure_ascii=False,
    )
    return hashlib.sha1(payload.encode(), usedforsecurity=False).hexdigest()


def check(rows: Rows | None) -> None:
    """Telegram's limits on a keyboard (a renderer bug otherwise)."""
    rows = rows or []
    if sum(len(r) for r in rows) > MAX_BUTTONS or any(len(r) > MAX_PER_ROW for r in rows):
        raise ValueError("keyboard over Telegram's limits")
