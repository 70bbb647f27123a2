"""What a player's name may be: shown to every other player of their tables, so it must be
something a person can read, and never pass for a computer seat.

A name is NFKC-normalised (full-width forms, ligatures and superscript digits become
their plain forms, so "Ｃｏｍｐｕｔｅｒ ²" is seen as what it looks like), loses every
control, format, private-use and unassigned character (right-to-left overrides, zero-width
spaces and joiners, NUL, which PostgreSQL refuses in text) and the Hangul fillers and
blank braille cell that draw nothing, keeps at most ``MAX_MARKS`` combining marks on a
character (a few stack in Thai or Vietnamese; hundreds are "Zalgo" text that draws over
its neighbours), and has its whitespace collapsed. Its length is counted in characters as
a reader sees them (a base and its marks), not code points.

"Computer 3" and its translations (``COMPUTER_WORDS``: how the tables, the lobby and the
standings label computer seats in English, Italian and Portuguese, with or without their
level) are reserved, in any case or spacing.
"""

from __future__ import annotations

import re
import unicodedata

from games.play import errors

# Combining marks kept on one character; the rest of a run is dropped.
MAX_MARKS = 4
# What ``Player.display_name`` holds, in code points.
MAX_CODE_POINTS = 128
# A name typed in the browser, in characters as a reader counts them.
BROWSER_LENGTH = 40
# Telegram's first and last name have 64 characters each.
TELEGRAM_LENGTH = 128
# Characters Unicode files as visible (its L and S categories) that draw nothing.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# The words a computer seat's label starts with ("Computer %(number)d", "Computer instead of
# %(name)s" in admin_ui, bot and games' catalogues), casefolded.
COMPUTER_WORDS = ("computer", "computador")
_RESERVED = re.compile(rf"^(?:{'|'.join(COMPUTER_WORDS)})(?:\d|insteadof|alpostodi|nolugarde|$)")


def clean(name: str) -> str:
    """The name as it will be shown: normalised, stripped of what draws nothing or
    misleads, whitespace collapsed. May be empty."""
    name = unicodedata.normalize("NFKC", name)
    kept: list[str] = []
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if category[0] == "C" or char in INVISIBLE:
            continue
        if category[0] == "M":
            # A mark with nothing to sit on, or beyond the cap, is dropped.
            if not kept or kept[-1].isspace() or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        kept.append(char)
    # Again: what was dropped may have left a base and a mark that compose.
    return unicodedata.normalize("NFKC", " ".join("".join(kept).split()))


def graphemes(name: str) -> list[str]:
    """The name's characters as a reader counts them: each base with its combining marks
    (an approximation of Unicode's grapheme clusters, which ``clean`` names fit)."""
    clusters: list[str] = []
    for char in name:
        if clusters and unicodedata.category(char)[0] == "M":
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


def truncate(name: str, length: int, code_points: int = MAX_CODE_POINTS) -> str:
    """At most ``length`` characters as a reader counts them, never splitting one, and at
    most ``code_points`` code points (what the database column holds)."""
    kept, size = [], 0
    for cluster in graphemes(name)[:length]:
        size += len(cluster)
        if size > code_points:
            break
        kept.append(cluster)
    return "".join(kept).strip()


def visible(name: str) -> bool:
    """Whether the name draws something: a character of Unicode's L, N, P or S categories."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in INVISIBLE for c in name)


def reserved(name: str) -> bool:
    """Whether the name reads as a computer seat's label ("Computer 2 (hard)",
    "computer  ２", "Computador 1"): compared casefolded, on its alphanumeric characters only."""
    skeleton = "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if c.isalnum())
    return bool(_RESERVED.match(skeleton))


def for_browser(name: str) -> str:
    """The name a browser visitor typed, cleaned, or a ``GameError`` saying what is wrong
    with it."""
    name = clean(name)
    if not name:
        raise errors.NameRequired()
    if not visible(name):
        raise errors.NameInvisible()
    if len(graphemes(name)) > BROWSER_LENGTH or len(name) > MAX_CODE_POINTS:
        raise errors.NameTooLong(max=BROWSER_LENGTH)
    if reserved(name):
        raise errors.NameReserved()
    return name


def for_telegram(display_name: str, username: str, telegram_id: int) -> str:
    """A Telegram user's name, cleaned. Telegram decides what a name is, so nothing is
    refused: a name that draws nothing or reads as a computer seat's gives way to the
    @username, and that to the numeric id (what an empty name showed before), which no
    person can choose and no computer seat carries."""
    name = truncate(clean(display_name), TELEGRAM_LENGTH)
    if visible(name) and not reserved(name):
        return name
    handle = clean(username)
    if handle and visible(handle) and not reserved(handle):
        return truncate("@" + handle, TELEGRAM_LENGTH)
    return str(telegram_id)
