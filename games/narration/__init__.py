"""What happened at a table, told once per game for every front-end (issue 23).

A game's narration (its catalog entry names the module, which has ``narrate(event)``)
turns one engine event into a ``Line``: a sentence, not yet translated, and its named
pieces (a seat, a card, some cards, an amount, a number). The bot and the web table
translate the sentence and format only the pieces, each its own way (a seat as a name, a
card as the front-end draws it in words): ``tell``. So each event has one sentence, in
one catalogue (``games/locale``), and both front-ends say the same thing.

Pure: no Django. The sentences are marked with ``gettext_noop`` below, the name that
``makemessages`` looks for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


def gettext_noop(message: str) -> str:
    """Marks a sentence for the catalogues; the front-end translates it when it tells."""
    return message


@dataclass(frozen=True)
class Seat:
    number: int | None


@dataclass(frozen=True)
class Seats:
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Card:
    """A card by its engine code; ``family`` names the kind of card where a game has
    several (a game with food, action and animal cards)."""

    code: str
    family: str = "card"


@dataclass(frozen=True)
class Cards:
    codes: tuple[str, ...]
    family: str = "card"


@dataclass(frozen=True)
class Amount:
    """A count of something the game counts in words ("3 mice")."""

    count: int
    unit: str


@dataclass(frozen=True)
class PerSeat:
    """A value per seat, told as "Anna CA · Bruno C": the values are the game's own marks
    (how much of a word each seat has, say), never translated."""

    values: tuple[tuple[int, str], ...]


Piece = Seat | Seats | Card | Cards | Amount | PerSeat | int | str


@dataclass(frozen=True)
class Line:
    message: str  # untranslated, with a %(name)s placeholder per piece
    pieces: Mapping[str, Piece] = field(default_factory=dict)
    then: Line | None = None  # a second sentence told after this one (what a card did)


def line(message: str, **pieces: Piece) -> Line:
    return Line(message, pieces)


@runtime_checkable
class Narration(Protocol):
    """A game's narration module (its catalog entry's ``narration``)."""

    def narrate(self, event: Mapping[str, Any]) -> Line | None:
        """The event's ``Line``, or None when the game does not tell it."""
        ...


Format = Callable[[str], str]


def tell(
    told: Line | None,
    *,
    translate: Callable[[str], str],
    seat: Callable[[int | None], str],
    formats: Mapping[str, Callable],
) -> str | None:
    """The front-end's sentence: ``told``'s message translated, its pieces formatted by
    ``seat`` (a seat's name) and ``formats`` (a card family or an amount's unit -> its
    words; ``"cards"`` joins a list of cards, ", " if absent). First character capitalised: a
    piece may open the sentence."""
    if told is None:
        return None
    return _sentence(told, translate, seat, formats)


def _sentence(told: Line, translate, seat, formats) -> str:
    values = {key: _formatted(piece, seat, formats) for key, piece in told.pieces.items()}
    text = translate(told.message) % values
    text = text[:1].upper() + text[1:]
    if told.then is None:
        return text
    return text + " " + _sentence(told.then, translate, seat, formats)


def _formatted(piece: Piece, seat, formats) -> object:
    if isinstance(piece, Seat):
        return seat(piece.number)
    if isinstance(piece, Seats):
        return ", ".join(seat(n) for n in piece.numbers)
    if isinstance(piece, Card):
        return formats[piece.family](piece.code)
    if isinstance(piece, Cards):
        words = [formats[piece.family](code) for code in piece.codes]
        return formats.get("cards", ", ".join)(words) or "—"
    if isinstance(piece, Amount):
        return formats[piece.unit](piece.count)
    if isinstance(piece, PerSeat):
        return " · ".join(f"{seat(number)} {value}" for number, value in piece.values)
    return piece
