"""Telegram Mini App sign-in: the page sends the ``initData`` Telegram gave it, and the
server checks Telegram's signature before it believes a word of it (as Telegram documents
it: secret = HMAC-SHA256(key="WebAppData", message=bot token); the hash is
HMAC-SHA256(key=secret, message=the other fields sorted, "key=value" joined by newlines)).

A user id sent by the page any other way is never trusted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl


class InvalidInitData(ValueError):
    """Missing, forged, or too old: the request is refused."""


@dataclass(frozen=True)
class WebAppUser:
    id: int
    first_name: str
    last_name: str = ""
    username: str = ""
    language_code: str = ""

    @property
    def display_name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p) or str(self.id)


@dataclass(frozen=True)
class InitData:
    user: WebAppUser
    auth_date: int
    start_param: str = ""


def sign(fields: dict[str, str], bot_token: str) -> str:
    """The ``hash`` Telegram puts in ``initData`` for these fields."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


# Telegram's initData is well under a kilobyte; anything far longer is not from Telegram.
MAX_LENGTH = 16 * 1024


def validate(raw: str | None, bot_token: str, max_age: int, now: float | None = None) -> InitData:
    if not raw or not bot_token:
        raise InvalidInitData("no initData")
    if len(raw) > MAX_LENGTH:
        raise InvalidInitData("initData too long")
    fields = dict(parse_qsl(raw, keep_blank_values=True, strict_parsing=False))
    given = fields.pop("hash", "")
    # compare_digest takes str of ASCII only (TypeError otherwise): Telegram's hash is hex.
    if not given or not given.isascii():
        raise InvalidInitData("bad signature")
    if not hmac.compare_digest(sign(fields, bot_token), given):
        raise InvalidInitData("bad signature")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        web_user = WebAppUser(
            id=int(user["id"]),
            first_name=str(user.get("first_name", "")),
            last_name=str(user.get("last_name", "")),
            username=str(user.get("username", "")),
            language_code=str(user.get("language_code", "")),
        )
    except (KeyError, ValueError, TypeError, OverflowError) as exc:
        raise InvalidInitData("incomplete initData") from exc
    if (now if now is not None else time.time()) - auth_date > max_age:
        raise InvalidInitData("expired")
    return InitData(web_user, auth_date, fields.get("start_param", ""))
