"""The compact callback data of the bot's buttons (Telegram allows 64 bytes).

    g<game>:<version>:<action>   a move; the action is an engine action string (≤ 40 bytes)
    m<game>:<version>:<prefix>   open a step-by-step menu of the actions starting with prefix
                                 (an empty prefix goes back to the main keyboard)
    l<game>:<op>                 a lobby button: j join, x leave, c[<level>] add computer
                                 (at a level; none: the everyday player), s start,
                                 q cancel, r<seat> computer instead of a player, k<seat> remove,
                                 v<seat><level> the next level for a computer seat showing
                                 <level> (e easy, n normal, h hard)
    n:<slug>                     /new: the game picked
    s:<op>:<arg>                 /settings of a group (the chat comes from the update)
    L:<code>                     /lang: the player's language
    r:<slug>                     /rules of one game
    t:<slug>.<f>.<n>.<m>         /tournament, organised step by step: the game, the format
                                 (s Swiss, a arena, k knockout), the rounds (Swiss) or the
                                 minutes (arena; 0 for a knockout), the minutes to the start;
                                 each step adds one part, "t:" goes back to the game, "t:x"
                                 closes the organiser
    T<tournament>:<op>           a tournament's announcement: j sign up, x withdraw,
                                 s start now, q cancel (the last two for administrators)

The data never says who tapped: the player is always ``update.effective_user``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
_GAME = re.compile(r"^([gml])(\d{1,12}):(.*)$", re.S)
_VERSIONED = re.compile(r"^(\d{1,9}):(.*)$", re.S)
_PLAIN = re.compile(r"^([nsLrt]):(.*)$", re.S)
_TOURNAMENT = re.compile(r"^T(\d{1,12}):([jxsq])$")
# /tournament's steps: nothing (the game picker), "x" (close), or the choices so far.
_ORGANISE = re.compile(
    r"^(?:x|([a-z][a-z0-9_]{0,19})(?:\.([sak])(?:\.(\d{1,3})(?:\.(\d{1,4}))?)?)?)?$"
)
FORMAT_CODES = {"swiss": "s", "arena": "a", "knockout": "k"}
_FORMAT_NAMES = {code: name for name, code in FORMAT_CODES.items()}
# Engine actions and menu prefixes are short printable ASCII without spaces.
_TOKEN = re.compile(r"^[\x21-\x7e]{0,40}$")
# ``m``: "Play at my level" (issue 47).
_LOBBY_OP = re.compile(r"^(?:[jxsqm]|c[benth]?|[rk]\d{1,2}|v\d{1,2}[benth])$")
# A computer level in a lobby button: one character each.
# The ladder's levels (issue 47); the first three codes are those buttons have always sent.
LEVEL_CODES = {"beginner": "b", "easy": "e", "normal": "n", "strong": "t", "hard": "h"}
_LEVEL_NAMES = {code: name for name, code in LEVEL_CODES.items()}


class BadData(ValueError):
    """Callback data that the bot did not make (or made by an older version)."""


@dataclass(frozen=True)
class Data:
    kind: str  # one of g m l n s L r t T
    game_id: int | None = None
    version: int | None = None
    arg: str = ""
    tournament_id: int | None = None

    def encode(self) -> str:
        if self.kind in "gm":
            text = f"{self.kind}{self.game_id}:{self.version}:{self.arg}"
        elif self.kind == "l":
            text = f"l{self.game_id}:{self.arg}"
        elif self.kind == "T":
            text = f"T{self.tournament_id}:{self.arg}"
        else:
            text = f"{self.kind}:{self.arg}"
        if len(text.encode()) > MAX_BYTES:
            raise ValueError(f"callback data over {MAX_BYTES} bytes: {text!r}")
        return text


def move(game_id: int, version: int, action: str) -> str:
    return Data("g", game_id, version, action).encode()


def menu(game_id: int, version: int, prefix: str = "") -> str:
    return Data("m", game_id, version, prefix).encode()


def lobby(game_id: int, op: str) -> str:
    return Data("l", game_id, None, op).encode()


def level(game_id: int, seat: int, shown: str) -> str:
    """The button that moves a lobby computer on from the level ``shown``."""
    return lobby(game_id, f"v{seat}{LEVEL_CODES[shown]}")


def level_tapped(arg: str) -> tuple[int, str]:
    """The seat and the level shown of a decoded ``v`` lobby op."""
    return int(arg[1:-1]), _LEVEL_NAMES[arg[-1]]


def add_computer(game_id: int, level: str | None = None) -> str:
    """The button that adds a computer (at ``level``; None: the game's everyday player)."""
    return lobby(game_id, "c" + (LEVEL_CODES[level] if level else ""))


def added_level(arg: str) -> str | None:
    """The level of a decoded ``c`` lobby op (None for the plain one)."""
    return _LEVEL_NAMES[arg[1]] if len(arg) > 1 else None


def plain(kind: str, arg: str) -> str:
    return Data(kind, None, None, arg).encode()


def tournament(tournament_id: int, op: str) -> str:
    """A button of a tournament's announcement (``op``: j, x, s or q)."""
    return Data("T", arg=op, tournament_id=tournament_id).encode()


@dataclass(frozen=True)
class Organising:
    """The choices made so far in /tournament's steps (None: not yet chosen)."""

    slug: str | None = None
    format: str | None = None  # swiss, arena or knockout
    count: int | None = None  # the rounds (Swiss), the minutes (arena), 0 (knockout)
    start: int | None = None  # minutes from now
    close: bool = False

    def then(self, **choice) -> str:
        """The data of the button that adds ``choice`` to these choices."""
        return organise(**{**self.__dict__, "close": False, **choice})


def organise(
    slug: str | None = None,
    format: str | None = None,
    count: int | None = None,
    start: int | None = None,
    close: bool = False,
) -> str:
    if close:
        return plain("t", "x")
    parts = [slug, FORMAT_CODES[format] if format else None, count, start]
    return plain("t", ".".join(str(p) for p in parts if p is not None))


def organising(arg: str) -> Organising:
    """The choices a decoded ``t`` button carries (``BadData`` for anything else)."""
    found = _ORGANISE.match(arg)
    if not found:
        raise BadData("bad tournament step")
    if arg == "x":
        return Organising(close=True)
    slug, fmt, count, start = found.groups()
    return Organising(
        slug,
        _FORMAT_NAMES[fmt] if fmt else None,
        int(count) if count is not None else None,
        int(start) if start is not None else None,
    )


def decode(text: str | None) -> Data:
    if not text or len(text.encode()) > MAX_BYTES:
        raise BadData("empty or too long")
    found = _GAME.match(text)
    if found:
        kind, game_id, rest = found.group(1), int(found.group(2)), found.group(3)
        if kind == "l":
            if not _LOBBY_OP.match(rest):
                raise BadData("unknown lobby button")
            return Data("l", game_id, None, rest)
        versioned = _VERSIONED.match(rest)
        if not versioned or not _TOKEN.match(versioned.group(2)):
            raise BadData("bad game button")
        arg = versioned.group(2)
        if kind == "g" and not arg:
            raise BadData("a move needs an action")
        return Data(kind, game_id, int(versioned.group(1)), arg)
    found = _TOURNAMENT.match(text)
    if found:
        return Data("T", arg=found.group(2), tournament_id=int(found.group(1)))
    found = _PLAIN.match(text)
    if found and _TOKEN.match(found.group(2)):
        if found.group(1) == "t":
            organising(found.group(2))  # refused here unless it is a step the bot makes
        return Data(found.group(1), None, None, found.group(2))
    raise BadData("unknown button")
