"""What the rules pages show: each game's full rules from ``games.rules`` in the page's
language, with the catalog's interpretations beside the clauses they interpret and the
cards drawn by ``games.art``; and how to start playing, in Telegram or in the browser.

No database: the rules are documents and the catalog is code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import art, catalog
from games import rules as documents
from games.catalog import GameKind

from .tables import web_module


@dataclass
class Line:
    """One clause as the page shows it."""

    clause: documents.Clause
    reading: str = ""  # the catalog's interpretation of this clause, in the page's language
    cards: list[SafeString] = field(default_factory=list)


def card(kind: GameKind, code: str) -> SafeString | None:
    """A card of ``kind`` named in the page's language; None for a game without art."""
    if kind.slug not in art.GAMES or catalog.WEB not in kind.renderers:
        return None
    label = web_module(kind.slug).card_label(code)
    # Drawn by games.art, which escapes the label it writes into the picture.
    return mark_safe(art.card_svg(kind.slug, code, label))  # noqa: S308


def document(kind: GameKind) -> documents.Document | None:
    return documents.document(kind.slug, get_language(), kind.directory)


def index_entry(kind: GameKind) -> dict:
    doc = document(kind)
    cover = kind.cover
    return {
        "kind": kind,
        "cover": card(kind, cover) if cover else None,
        "tagline": doc.tagline if doc and doc.tagline else (kind.summary or ("",))[0],
    }


def sections(kind: GameKind, doc: documents.Document) -> list[tuple[str, list[Line]]]:
    """The document's sections, each clause with its interpretation and its cards."""
    readings = {clause: str(text) for clause, text in kind.interpretations}
    drawn = kind.pictures

    def line(clause: documents.Clause) -> Line:
        cards = (card(kind, code) for code in drawn.get(clause.id, ()))
        return Line(clause, readings.get(clause.id, ""), [c for c in cards if c])

    return [(s.title, [line(c) for c in s.clauses]) for s in doc.sections]


def telegram_links() -> dict[str, str]:
    """Links to the bot when its username is configured, else nothing (the page then says
    what to look for instead)."""
    username = settings.TELEGRAM_BOT_USERNAME.lstrip("@")
    if not username:
        return {}
    return {
        "username": username,
        "chat": f"https://t.me/{username}",
        # Telegram's own link for "add this bot to a group of yours".
        "group": f"https://t.me/{username}?startgroup=true",
    }
