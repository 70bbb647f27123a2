"""The card itself: the SVG document, the frame, the corner indices, placed motifs.

Every card is drawn on the same 100 x 140 grid (a 5:7 card) and scales through its
viewBox. Output is compact and deterministic: no ids in a card (many cards share one HTML
page, and ids would collide; only a sprite names its symbols), no gradients, no fonts but
the generic families, numbers rounded.
"""

from __future__ import annotations

from html import escape

W, H = 100, 140
RADIUS = 7
SANS = "sans-serif"
INK = "#3b2314"  # the one outline colour of every deck: a warm dark brown
SERIF = "serif"


def num(x: float) -> str:
    """A coordinate as short as it can be written: 12, 12.5, never 12.000001."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attrs(**values: object) -> str:
    """XML attributes, escaped; underscores become dashes (``stroke_width``), None skips
    an attribute."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.replace("_", "-")
        if isinstance(value, float):
            value = num(value)
        parts.append(f' {name}="{escape(str(value))}"')
    return "".join(parts)


# How every card's lines are drawn: on a standalone card's <svg>, on a sprite's symbol.
STROKES = f'stroke="{INK}" stroke-width="0" stroke-linejoin="round" stroke-linecap="round"'


def document(label: str, body: str) -> str:
    """A standalone SVG: an image for assistive technology, named by its label."""
    text = escape(label, quote=False)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img"'
        f' aria-label="{escape(label)}" {STROKES}><title>{text}</title>{body}</svg>'
    )


def symbol(symbol_id: str, body: str) -> str:
    """A card in a sprite (``games.art.sprite``): drawn as ``document`` draws it, for
    ``reference`` to show."""
    return (
        f'<symbol id="{escape(symbol_id)}" viewBox="0 0 {W} {H}"><g {STROKES}>{body}</g></symbol>'
    )


def reference(label: str, href: str) -> str:
    """A card drawn from its sprite (``<use>``), an image named by its label as
    ``document``'s: the page carries a few dozen bytes a card, and the browser fetches
    the game's sprite once."""
    text = escape(label, quote=False)
    return (
        f'<svg viewBox="0 0 {W} {H}" role="img" aria-label="{escape(label)}"><title>{text}'
        f'</title><use href="{escape(href)}"/></svg>'
    )


def place(motif: str, x: float, y: float, size: float, flip: bool = False) -> str:
    """A motif drawn in its 100 x 100 box, scaled to ``size`` and centred on (x, y)."""
    s = size / 100
    tx, ty = x - size / 2, y - size / 2
    if flip:  # mirrored left to right, e.g. a mouse running the other way
        return (
            f'<g transform="translate({num(tx + size)} {num(ty)}) scale({num(-s)} {num(s)})">'
            f"{motif}</g>"
        )
    return f'<g transform="translate({num(tx)} {num(ty)}) scale({s:g})">{motif}</g>'


def frame(paper: str, edge: str, field: str | None = None, inset_line: str | None = None) -> str:
    """The card blank: rounded paper, a coloured edge and an optional inner field."""
    out = f'<rect x="1" y="1" width="98" height="138" rx="{RADIUS}"{attrs(fill=paper)}' + (
        f'{attrs(stroke=edge)} stroke-width="2"/>'
    )
    if field:
        out += f'<rect x="7" y="7" width="86" height="126" rx="4"{attrs(fill=field)}/>'
    if inset_line:
        out += (
            f'<rect x="7" y="7" width="86" height="126" rx="4" fill="none"'
            f'{attrs(stroke=inset_line)} stroke-width="1"/>'
        )
    return out


def text(x: float, y: float, content: str, size: float, fill: str, *, family: str = SANS) -> str:
    """One line of bold text, centred on ``x`` with its baseline at ``y``."""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-family="{family}" font-size="{num(size)}"'
        f' font-weight="bold" text-anchor="middle"{attrs(fill=fill)}>'
        f"{escape(content, quote=False)}</text>"
    )


def indices(content: str, fill: str, symbol: str = "", *, size: float = 17, family=SANS) -> str:
    """The corner indices: top left, and the same turned half round at bottom right, so a
    card reads the same held either way up. ``symbol`` is a motif shown under the text."""
    x = 8 + size * (0.31 if len(content) < 2 else 0.5)  # "10" and "-8" need more room
    one = text(x, 6 + size * 0.8, content, size, fill, family=family)
    if symbol:
        one += place(symbol, x, 16 + size * 0.8, 13)
    return one + _turned(one)


def _turned(drawing: str) -> str:
    """The same drawing turned half round about the card's centre."""
    return f'<g transform="rotate(180 50 70)">{drawing}</g>'


def outlined(shapes: str, fill: str, ink: str, width: float = 5) -> str:
    """Shapes with one outline round their union: drawn once fat in ink, then again in
    their colour on top, so overlapping parts (a bone's knobs) show no inner seams."""
    return (
        f'<g{attrs(fill=ink, stroke=ink)} stroke-width="{num(width)}">'
        f"{shapes}</g><g{attrs(fill=fill)}>{shapes}</g>"
    )


def badge(x: float, y: float, content: str, fill: str, ink: str, r: float = 9) -> str:
    """A round badge with a number: a penalty or a value that must be seen at a glance."""
    return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}"{attrs(fill=fill)}/>' + text(
        x, y + r * 0.4, content, r * (1.15 if len(content) < 2 else 0.95), ink
    )


def corner_symbols(symbol: str, size: float = 18) -> str:
    """Corner indices that are a motif only (a card with no number)."""
    one = place(symbol, 8 + size / 2, 8 + size / 2, size)
    return one + _turned(one)
