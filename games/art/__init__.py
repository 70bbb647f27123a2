"""Card art: an original SVG deck for each game, drawn here in code (no printed card is
copied). Pure Python, standard library only, so the table, the public game and replay
pages and a PNG renderer for Telegram can all share it.

    card_svg(game_slug, code, label)  one card face, a standalone <svg> named by ``label``
    back_svg(game_slug, variant="")   a face-down card; ``variant`` names one of the
                                      deck's other backs (a second deck's colour, the
                                      back of one kind of card)
    codes(game_slug)                  every card code of the game, as the engine's views
                                      name them, plus the table's other cards
    default_label(game_slug, code)    an English label (the web layer passes translated ones)
    legend(game_slug, texts=None)     [(symbol_svg, text)] where a deck needs explaining;
                                      ``texts`` (translated by the caller) replace the
                                      English ones, in the same order
    back_variants(game_slug)          the variants ``back_svg`` knows
    sprite(game_slug)                 every face and back of the deck as <symbol>s, one
                                      document (what a page fetches once)
    sprite_version(game_slug)         a digest of the sprite, to name it in its address
    card_reference(game_slug, code, label, sprite_url)
    back_reference(game_slug, variant, label, sprite_url)
                                      a card drawn from the sprite at ``sprite_url``

Labels are passed in because they are translated by the caller; every card carries its
label as <title> and aria-label, so screen readers and alt text read the card.
"""

from __future__ import annotations

import hashlib
import re
from importlib import import_module

from .svg import document, place, reference, symbol

# The games with a deck: slug -> the module drawing it (a game package's ``art``, which
# also names its card backs, ``BACK_VARIANTS``). The catalog registers each game's as it
# installs the game (``games.catalog.register``), so a new package's cards are found with
# nothing else edited; this module, below the catalog, never names a game.
GAMES: dict[str, str] = {}

# A face never changes: drawn once per game, code and the module that drew it.
_FACES: dict[tuple[str, str, str], str] = {}


class UnknownCard(KeyError):
    """A game slug or card code with no art."""


def register(game_slug: str, module: str) -> None:
    """Give a game its deck: ``module`` (an import path) draws its cards."""
    GAMES[game_slug] = module


def unregister(game_slug: str) -> None:
    GAMES.pop(game_slug, None)


def _deck(game_slug: str):
    if game_slug not in GAMES:
        raise UnknownCard(f"no card art for game {game_slug!r}")
    return import_module(GAMES[game_slug])


def codes(game_slug: str) -> list[str]:
    return list(_deck(game_slug).codes())


def default_label(game_slug: str, code: str) -> str:
    deck = _deck(game_slug)
    if code not in deck.codes():
        raise UnknownCard(f"{game_slug}: no card {code!r}")
    return deck.default_label(code)


def _face(game_slug: str, code: str) -> str:
    # A table page draws the same cards again and again; the drawing never changes.
    key = (game_slug, code, GAMES.get(game_slug, ""))
    if key not in _FACES:
        deck = _deck(game_slug)
        if code not in deck.codes():
            raise UnknownCard(f"{game_slug}: no card {code!r}")
        _FACES[key] = deck.face(code)
    return _FACES[key]


def card_svg(game_slug: str, code: str, label: str) -> str:
    return document(label, _face(game_slug, code))


def back_variants(game_slug: str) -> tuple[str, ...]:
    return tuple(_deck(game_slug).BACK_VARIANTS)


def back_svg(game_slug: str, variant: str = "", label: str = "Face-down card") -> str:
    deck = _deck(game_slug)
    if variant not in deck.BACK_VARIANTS:
        raise UnknownCard(f"{game_slug}: no card back {variant!r}")
    return document(label, deck.back(variant))


def symbol_id(code: str) -> str:
    """A card's id in its sprite: its code, with what an XML id cannot hold (":") written
    as "." and its hex value."""
    return "c-" + re.sub(r"[^A-Za-z0-9_-]", lambda m: f".{ord(m[0]):x}", code)


def back_id(variant: str) -> str:
    return "back" + (f"-{symbol_id(variant)[2:]}" if variant else "")


_SPRITES: dict[tuple[str, str], tuple[str, str]] = {}


def sprite(game_slug: str) -> str:
    return _sprite(game_slug)[0]


def sprite_version(game_slug: str) -> str:
    return _sprite(game_slug)[1]


def _sprite(game_slug: str) -> tuple[str, str]:
    key = (game_slug, GAMES.get(game_slug, ""))
    if key not in _SPRITES:
        deck = _deck(game_slug)
        faces = [symbol(symbol_id(code), _face(game_slug, code)) for code in deck.codes()]
        backs = [symbol(back_id(v), deck.back(v)) for v in deck.BACK_VARIANTS]
        text = f'<svg xmlns="http://www.w3.org/2000/svg">{"".join(faces + backs)}</svg>'
        _SPRITES[key] = (text, hashlib.sha256(text.encode()).hexdigest()[:16])
    return _SPRITES[key]


def card_reference(game_slug: str, code: str, label: str, sprite_url: str) -> str:
    _face(game_slug, code)  # an unknown card is refused here as by card_svg
    return reference(label, f"{sprite_url}#{symbol_id(code)}")


def back_reference(game_slug: str, variant: str, label: str, sprite_url: str) -> str:
    if variant not in _deck(game_slug).BACK_VARIANTS:
        raise UnknownCard(f"{game_slug}: no card back {variant!r}")
    return reference(label, f"{sprite_url}#{back_id(variant)}")


def symbol_svg(motif: str, label: str) -> str:
    """A square symbol for a legend, a motif on a transparent ground."""
    body = place(motif, 50, 50, 92)
    return document(label, body).replace('viewBox="0 0 100 140"', 'viewBox="0 0 100 100"', 1)


def legend(game_slug: str, texts: list[str] | None = None) -> list[tuple[str, str]]:
    """What the symbols of a deck mean: (symbol_svg, text) pairs, in English unless the
    caller passes its own ``texts``, one for each of the deck's entries."""
    rows = _deck(game_slug).legend()
    if texts is None:
        texts = [text for _motif, text in rows]
    if len(texts) != len(rows):
        raise ValueError(f"{game_slug}: {len(rows)} legend entries, {len(texts)} texts")
    return [
        (symbol_svg(motif, text), text) for (motif, _english), text in zip(rows, texts, strict=True)
    ]
