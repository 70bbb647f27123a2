"""Smoking Cat: the 32-card German-suited deck (S1).

Codes: the engine's (``games.kinds.smoking_cat.engine``): suit letter + rank letter, suits
L Leaves, H Hearts, B Bells, A Acorns; ranks 7 8 9 X(10) U O K A; e.g. "LO" is the Ober of
Leaves. Pip cards show their pips, the Unter, Ober and King are cats in the suit's coat
(the Unter holds the suit low, the Ober high, the King wears the crown), the Ace is the
big suit sign. Cards that cost penalty points (S3) carry them in a dark badge, and the
Ober of Leaves, worth 10, is the smoking cat himself.
"""

from __future__ import annotations

from games.art import motifs as m
from games.art.svg import SERIF, badge, frame, indices, num, place, text
from games.kinds.smoking_cat.engine import RANKS, SUIT_NAMES, SUITS

# The drawings only this deck uses (the shared ones are games.art.motifs).


def pipe(smoke: str = "#9e9e9e") -> str:
    """A pipe with its curl of smoke: the Smoking Cat."""
    return (
        f'<path d="M10 48Q30 52 52 50" fill="none"{m.stroke(5)}/>'
        f'<path d="M50 36H74V52Q74 66 62 66Q50 66 50 52Z"{m.attrs(fill="#7b4a26")}{m.stroke(3)}/>'
        f'<path d="M62 30Q54 20 64 12Q74 4 66 -6Q60 -14 70 -22" fill="none"'
        f'{m.attrs(stroke=smoke)} stroke-width="5"/>'
    )


def leaf(fill: str = "#3c8d2f", vein: str = "#1f5c18", detail: bool = True) -> str:
    """The German Leaves (Grün). ``detail=False`` is the lighter pip of a numeral card."""
    veins = "M50 20V82M50 44L34 34M50 44L66 34M50 62L28 52M50 62L72 52" if detail else "M50 24V80"
    return (
        f'<path d="M50 6C62 26 90 32 86 60C84 78 62 82 54 82L57 96H43L46 82C38 82 16 78 14 60'
        f'C10 32 38 26 50 6Z"{m.attrs(fill=fill)}{m.stroke(4)}/>'
        f'<path d="{veins}" fill="none"{m.attrs(stroke=vein)} stroke-width="3"/>'
    )


def heart(fill: str = "#d42a2a", shine: str = "#f07a6e", detail: bool = True) -> str:
    out = (
        f'<path d="M50 90C18 66 6 48 16 30C26 14 44 16 50 32C56 16 74 14 84 30C94 48 82 66 50 90Z"'
        f"{m.attrs(fill=fill)}{m.stroke(4)}/>"
    )
    if detail:
        out += f'<path d="M24 36Q28 26 38 28" fill="none"{m.attrs(stroke=shine)} stroke-width="5"/>'
    return out


def bell(fill: str = "#f2b705", band: str = "#c2311f", detail: bool = True) -> str:
    """A German sleigh bell (Schelle): a ball with a band, a ring and a slit below."""
    out = (
        f'<circle cx="50" cy="10" r="7" fill="none"{m.stroke(4)}/>'
        f'<circle cx="50" cy="54" r="38"{m.attrs(fill=fill)}{m.stroke(4)}/>'
        f'<path d="M13 46Q50 60 87 46V58Q50 72 13 58Z"{m.attrs(fill=band)}{m.stroke(2.5)}/>'
        f'<path d="M36 78Q50 86 64 78" fill="none"{m.stroke(5)}/>'
    )
    if detail:
        out += '<path d="M28 34Q32 26 40 24" fill="none" stroke="#fff2b3" stroke-width="5"/>'
    return out


def acorn(nut: str = "#c98a2e", cup: str = "#6b4423", detail: bool = True) -> str:
    out = (
        f'<path d="M30 48Q28 84 50 96Q72 84 70 48Z"{m.attrs(fill=nut)}{m.stroke(4)}/>'
        f'<path d="M20 46Q20 22 50 22Q80 22 80 46Q80 54 50 54Q20 54 20 46Z"'
        f"{m.attrs(fill=cup)}{m.stroke(4)}/>"
        f'<path d="M50 22Q50 12 58 4" fill="none"{m.stroke(5)}/>'
    )
    if detail:
        out += (
            '<path d="M30 34L40 46M42 28L56 46M58 28L70 42M32 46L44 30M48 46L62 28M64 46L74 34'
            '" fill="none" stroke="#8c5e34" stroke-width="2.5"/>'
            '<path d="M38 62Q38 78 46 86" fill="none" stroke="#e6b562" stroke-width="4"/>'
        )
    return out


PAPER = "#fffaf0"
EDGE = "#5a2e1a"
SUIT_MOTIF = {"L": leaf, "H": heart, "B": bell, "A": acorn}
# Index text per suit: dark enough for AA on the paper (bells' gold would not be).
SUIT_INK = {"L": "#1f5c18", "H": "#b3211b", "B": "#7a4e00", "A": "#6b4423"}
# The court cats' coats, in the suit's colour.
COAT = {"L": "#3c8d2f", "H": "#d42a2a", "B": "#f2b705", "A": "#8c5e34"}
TRIM = {"L": "#a8d98a", "H": "#ffd2c9", "B": "#c2311f", "A": "#e6b562"}
RANK_NAMES = {
    "7": "7",
    "8": "8",
    "9": "9",
    "X": "10",
    "U": "Unter",
    "O": "Ober",
    "K": "King",
    "A": "Ace",
}
INDEX = {"X": "10"}
FRENCH = {"L": "Spades", "H": "Hearts", "B": "Diamonds", "A": "Clubs"}
PENALTY = {"LO": 10, **{"H" + r: p for r, p in zip(RANKS, (1, 1, 1, 1, 2, 3, 4, 5), strict=True)}}
BADGE, BADGE_INK = "#3b2314", "#fffaf0"

# Pip positions (x, y) for 7 to 10, in two columns with the odd ones down the middle.
_COLS = (32, 68)
_ROWS4 = (34, 59, 84, 109)
PIPS = {
    "7": [(x, y) for x in _COLS for y in (36, 71, 106)] + [(50, 53)],
    "8": [(x, y) for x in _COLS for y in _ROWS4],
    "9": [(x, y) for x in _COLS for y in _ROWS4] + [(50, 71)],
    "X": [(x, y) for x in _COLS for y in _ROWS4] + [(50, 46), (50, 97)],
}
# The court cats: fur and eyes per rank, so U, O and K differ across the suits too.
FUR = {
    "U": dict(fur="#f4a24a", stripes="#c96f1e", eyes="#7cbf3a", mood="calm"),
    "O": dict(fur="#9a9ca3", stripes="#5f6168", eyes="#f2c335", mood="sly"),
    "K": dict(fur="#fbf7ef", patch="#3d3a3a", eyes="#4fa3e0", mood="smug"),
}

ACE_CAT = dict(fur="#3d3a3a", eyes="#f2c335", mood="calm", muzzle="#5c5757")

TEXT_COLOURS = [(ink, PAPER) for ink in SUIT_INK.values()] + [(BADGE_INK, BADGE)]


def codes() -> list[str]:
    return [s + r for s in SUITS for r in RANKS]


def default_label(code: str) -> str:
    suit = SUIT_NAMES[SUITS.index(code[0])]
    return f"{RANK_NAMES[code[1]]} of {suit}"


def face(code: str) -> str:
    suit, rank = code[0], code[1]
    motif = SUIT_MOTIF[suit]()
    pip = SUIT_MOTIF[suit](detail=False)  # the fine lines would not show at pip size
    out = frame(PAPER, EDGE, inset_line="#d9c3a5")
    out += indices(INDEX.get(rank, rank), SUIT_INK[suit], pip, family=SERIF)
    if rank in PIPS:
        out += "".join(place(pip, x, y, 21) for x, y in PIPS[rank])
    elif rank == "A":
        out += f'<circle cx="50" cy="72" r="33" fill="{TRIM[suit]}" opacity=".45"/>'
        # The house cat peeks over the Ace, as cats do over anything on a table.
        out += place(m.cat_head(**ACE_CAT), 66, 52, 30)
        out += place(motif, 50, 74, 56)
    else:
        out += _court(suit, rank, motif)
    if code in PENALTY:
        out += badge(15, 125, str(PENALTY[code]), BADGE, BADGE_INK, r=8)
    return out


def _court(suit: str, rank: str, motif: str) -> str:
    # The bust stays clear of the corner indices.
    out = place(m.cat_body(COAT[suit], TRIM[suit]), 50, 90, 66)
    out += place(m.cat_head(**FUR[rank]), 50, 70, 56)
    if rank == "K":
        out += place(m.crown(), 50, 40, 26)
        out += _medallion(motif, 50, 112)
    elif rank == "O":  # the Ober holds his suit up high
        out += place(motif, 74, 34, 22)
    else:  # the Unter holds it low
        out += _medallion(motif, 30, 108)
    if suit + rank == "LO":  # the smoking cat
        out += place(pipe(), 68, 85, 36)
    return out


def _medallion(motif: str, x: float, y: float) -> str:
    """The suit on a paper disc, so it reads against a coat of its own colour."""
    disc = f'<circle cx="{num(x)}" cy="{num(y)}" r="12" fill="{PAPER}" stroke-width="2"/>'
    return disc + place(motif, x, y, 17)


BACK_VARIANTS = ("",)  # what ``back()`` draws


def back(variant: str = "") -> str:
    """Tobacco brown with a lattice and the smoking cat's curl of smoke."""
    out = frame("#6d2a1a", "#3b1509", inset_line="#e8c9a0")
    lattice = "".join(
        _clipped(x, 10, x + 40, 130) + _clipped(x + 40, 10, x, 130) for x in range(-30, 100, 20)
    )
    out += (
        f'<path d="{lattice}" fill="none" stroke="#8a3a24" stroke-width="1.5"/>'
        '<rect x="9" y="9" width="82" height="122" rx="3" fill="none" stroke="#6d2a1a"'
        ' stroke-width="4"/>'
    )
    out += '<circle cx="50" cy="70" r="30" fill="#6d2a1a" stroke="#e8c9a0" stroke-width="2"/>'
    out += place(m.cat_head("#3d3a3a", eyes="#f2c335", mood="smug", muzzle="#5c5757"), 50, 72, 42)
    out += place(pipe("#e8c9a0"), 62, 84, 22)
    return out


def _clipped(x1: float, y1: float, x2: float, y2: float, lo: float = 9, hi: float = 91) -> str:
    """A lattice line cut to the card's inner field (no clipPath: it would need an id)."""
    t1 = max(0.0, min((lo - x1) / (x2 - x1), (hi - x1) / (x2 - x1)))
    t2 = min(1.0, max((lo - x1) / (x2 - x1), (hi - x1) / (x2 - x1)))
    if t1 >= t2:
        return ""
    ax, ay = x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1
    bx, by = x1 + (x2 - x1) * t2, y1 + (y2 - y1) * t2
    return f"M{num(ax)} {num(ay)}L{num(bx)} {num(by)}"


def legend() -> list[tuple[str, str]]:
    """The suits (with their French names), the ranks low to high, the penalty points."""
    rows = [
        (SUIT_MOTIF[s](), f"{name} (like {FRENCH[s]})")
        for s, name in zip(SUITS, SUIT_NAMES, strict=True)
    ]
    explain = {"U": "Unter (like a Jack)", "O": "Ober (like a Queen)", "K": "King", "A": "Ace"}
    for rank in RANKS:
        shown = INDEX.get(rank, rank)
        glyph = text(50, 78, shown, 70 if len(shown) < 2 else 56, EDGE, family=SERIF)
        rows.append((glyph, explain.get(rank, shown)))
    rows.append(
        (
            badge(50, 50, "10", BADGE, BADGE_INK, r=46),
            "Penalty points (Hearts 1 to 5, Ober of Leaves 10)",
        )
    )
    return rows
