"""Felix: The Cat in the Sack: cats worth -8 to 15, the rabbit, the two dogs, the mouse
cards and the cat-in-the-sack card.

Codes: the engine's card codes (``games.kinds.felix.engine.SET``: "-8" ... "15", "R" rabbit,
"D" big dog, "d" small dog), plus the table's cards that are not in a hand: "mouse:<n>"
for the mouse card printed n (the view's ``mouse_cards``) and "sack" for the cat in the
sack. Good cats sit on honey, bad cats on rose, so a row reads at a glance.
"""

from __future__ import annotations

from games.art import motifs as m
from games.art.svg import badge, corner_symbols, frame, indices, place
from games.kinds.felix.engine import CATS, SET

# The drawings only this deck uses (the shared ones are games.art.motifs).


def sack(cloth: str = "#c9a36a", tie: str = "#8a2b1d", fur: str = "#3b3b3b") -> str:
    """The cat in the sack: a tied sack with a cat peeking out, paws on the rim."""
    rim = "#a9844c"
    return (
        f'<path d="M24 46Q22 22 32 16L34 2L46 12Q50 11 54 12L66 2L68 16Q78 22 76 46Z"'
        f"{m.attrs(fill=fur)}{m.stroke(3.5)}/>"
        f'<path d="M35 12L36 7L42 12ZM65 12L64 7L58 12Z"{m.attrs(fill=m.PINK)}/>'
        f'<ellipse cx="40" cy="28" rx="5.5" ry="5" fill="#f6d23b"{m.stroke(2)}/>'
        f'<ellipse cx="60" cy="28" rx="5.5" ry="5" fill="#f6d23b"{m.stroke(2)}/>'
        f'<path d="M40 24V32M60 24V32"{m.stroke(2.5)}/>'
        f'<path d="M46 36H54L50 40Z"{m.attrs(fill=m.PINK)}/>'
        f'<path d="M22 46Q8 68 16 84Q22 98 50 98Q78 98 84 84Q92 68 78 46Z"'
        f"{m.attrs(fill=cloth)}{m.stroke(4)}/>"
        f'<path d="M18 46Q50 36 82 46Q84 52 80 55Q50 46 20 55Q16 52 18 46Z"'
        f"{m.attrs(fill=rim)}{m.stroke(3)}/>"
        f'<path d="M28 44Q28 36 36 36Q44 36 44 43ZM56 43Q56 36 64 36Q72 36 72 44Z"'
        f"{m.attrs(fill=fur)}{m.stroke(3)}/>"
        f'<path d="M32 38V42M38 37V41M62 37V41M68 38V42" fill="none" stroke="#777"'
        ' stroke-width="1.5"/>'
        f'<path d="M24 62Q50 70 76 62" fill="none"{m.attrs(stroke=tie)} stroke-width="6"/>'
        f'<path d="M32 74Q36 82 32 90M64 72Q60 82 68 90M48 78V86" fill="none"'
        ' stroke="#9c7a45" stroke-width="2.5"/>'
    )


PAPER = "#fff6e6"
EDGE = "#7a4a22"
INK = "#3b2314"  # index text: 13:1 on the paper
GOOD, BAD = "#fbe3a6", "#f6d2cc"  # the fields of positive and negative cats
MINUS = "#a3241b"  # negative values: 6.9:1 on the paper
MOUSE_NUMBERS = (2, 3, 4, 6)  # the four printed mouse cards (F2)
SACK = "sack"

# One cat per value, from the scruffy -8 to the crowned 15 (fur, eyes, mood, extras).
CAT_LOOKS = {
    "-8": dict(fur="#3d3a3a", eyes="#f2c335", mood="grumpy", muzzle="#5c5757"),
    "-5": dict(fur="#8d8f96", eyes="#f2c335", mood="sly", stripes="#5f6168"),
    "3": dict(fur="#f4a24a", eyes="#7cbf3a", mood="calm", stripes="#c96f1e"),
    "5": dict(fur="#b0875c", eyes="#7cbf3a", mood="happy", stripes="#6e4e30"),
    "8": dict(fur="#fbf7ef", eyes="#4fa3e0", mood="calm", patch="#e8923a"),
    "11": dict(fur="#efe2c8", eyes="#3f8fe0", mood="smug", patch="#6b4a35"),
    "15": dict(fur="#f08c2b", eyes="#7cbf3a", mood="happy", stripes="#b8560f"),
}

# What a player reads in the corner: the value, or the animal's sign.
LABELS = {
    "R": "Rabbit (0)",
    "D": "Big dog: chases the highest cat",
    "d": "Small dog: chases the lowest cat",
    SACK: "The cat in the sack",
}

TEXT_COLOURS = [
    (INK, PAPER),
    (MINUS, PAPER),
    (INK, GOOD),
    (MINUS, BAD),
    (INK, "#e3efd8"),
    (INK, "#efe3d0"),  # the mouse cards
    (PAPER, MINUS),  # the value badges
    (PAPER, EDGE),
]


def codes() -> list[str]:
    return [*SET, *(f"mouse:{n}" for n in MOUSE_NUMBERS), SACK]


def default_label(code: str) -> str:
    if code in CATS:
        return f"Cat {CATS[code]:+d}" if CATS[code] < 0 else f"Cat {CATS[code]}"
    if code.startswith("mouse:"):
        return f"Mouse card {code[6:]}"
    return LABELS[code]


def face(code: str) -> str:
    if code in CATS:
        return _cat(code)
    if code == "R":
        return (
            frame(PAPER, EDGE, "#e3efd8")
            + indices("0", INK)
            + place(m.rabbit_head(), 50, 66, 70)
            + _clover()
        )
    if code in ("D", "d"):
        return _dog(code)
    if code.startswith("mouse:"):
        return _mouse_card(int(code[6:]))
    if code == SACK:
        return frame(PAPER, EDGE, "#f3dfbf") + place(sack(), 50, 72, 82)
    raise KeyError(code)


def _clover() -> str:
    """A tuft of clover under the rabbit."""
    return (
        '<path d="M26 120Q34 108 38 120M40 120Q50 104 58 120M60 120Q68 110 74 120"'
        ' fill="none" stroke="#4f8a2c" stroke-width="3"/>'
    )


def _cat(code: str) -> str:
    value = CATS[code]
    bad = value < 0
    colour = MINUS if bad else INK
    shown = code.replace("-", "\u2212")  # a true minus sign, as wide as the digits
    out = frame(PAPER, EDGE, BAD if bad else GOOD) + indices(shown, colour)
    if value == 15:  # the best cat is the king of the sack
        out += place(m.crown(), 50, 30, 30)
    out += place(m.cat_head(**CAT_LOOKS[code]), 50, 64 if value != 15 else 68, 72)
    if bad:  # the bad cats leave muddy paw prints
        out += place(m.paw("#c99a8a"), 20, 104, 10) + place(m.paw("#c99a8a"), 27, 114, 10)
    return out + badge(50, 116, shown, MINUS if bad else EDGE, PAPER, r=13)


def _dog(code: str) -> str:
    big = code == "D"
    out = frame(PAPER, EDGE, "#dbe4ef")
    if big:
        head = m.dog_head("#9a6a3f", "#5a3a22", ears="floppy", brows=True, spot="#6e4626")
        out += place(head, 50, 62, 80)
        # Up arrow over a cat: "chases the highest cat".
        out += _chase_sign(up=True)
    else:
        head = m.dog_head("#f1e6d2", "#c77b3a", ears="perky", spot="#c77b3a")
        out += place(head, 50, 70, 58)
        out += _chase_sign(up=False)
    return out + corner_symbols(_mini_dog(big), 20 if big else 16)


def _mini_dog(big: bool) -> str:
    if big:
        return m.dog_head("#9a6a3f", "#5a3a22", ears="floppy", tongue=False)
    return m.dog_head("#f1e6d2", "#c77b3a", ears="perky", tongue=False)


def _chase_sign(up: bool) -> str:
    """A small cat head with an arrow: which cat this dog chases away."""
    cat = m.cat_head("#f4a24a", mood="grumpy", muzzle=None)
    arrow = "M62 128V108M55 115L62 106L69 115" if up else "M62 106V126M55 119L62 128L69 119"
    return place(cat, 46, 117, 22) + m.arrow(arrow, EDGE, 4)


def _mouse_card(number: int) -> str:
    out = frame(PAPER, EDGE, "#efe3d0") + indices(str(number), INK)
    out += place(m.mouse(), 50, 52, 60)
    # One small mouse per mouse the card holds when it is full, three to a row.
    for i in range(number):
        row, col = divmod(i, 3)
        in_row = min(3, number - row * 3)
        x = 50 + (col - (in_row - 1) / 2) * 22
        out += place(m.mouse(), x, 94 + row * 18 + (0 if number > 3 else 8), 20)
    return out


BACK_VARIANTS = ("",)  # what ``back()`` draws


def back(variant: str = "") -> str:
    """The face-down card: paw prints round the sack on Felix orange."""
    out = frame("#d9772b", "#7a3a12", inset_line="#fff0d6")
    for x, y, r in ((22, 24, -20), (78, 26, 15), (20, 116, 10), (80, 114, -15), (50, 12, 0)):
        out += f'<g transform="rotate({r} {x} {y})">' + place(m.paw("#b85c1a"), x, y, 14) + "</g>"
    return out + place(sack(), 50, 72, 62)


def legend() -> list[tuple[str, str]]:
    """Motifs (100 x 100) and what they mean; the package wraps them as symbols."""
    return [
        (_mini_dog(True), LABELS["D"]),
        (_mini_dog(False), LABELS["d"]),
        (m.rabbit_head(), "Rabbit: worth 0, never chased"),
        (m.mouse(), "Mouse card: the mice a player takes on passing"),
    ]
