"""Hand-built vector motifs, each drawn in a 100 x 100 box (``svg.place`` sizes them): the
shapes more than one deck draws. A drawing only one deck uses lives in that game's
``art`` module, drawn with the same helpers (``stroke``, ``svg.attrs``).

The style is a flat cartoon: bold warm-brown outlines (``INK``), flat fills, round joins.
Shapes are paths with integer coordinates so a card stays a few kilobytes.
"""

from __future__ import annotations

from .svg import INK, attrs, outlined

PINK = "#f29ca3"
WHITE = "#fffdf8"


def stroke(w: float = 3) -> str:
    # The colour and the round joins come from the card's root (``svg.document``).
    return f' stroke-width="{w:g}"'


# -- cats ------------------------------------------------------------------------------

CAT_HEAD = (
    "M18 42L22 8L45 26Q50 25 55 26L78 8L82 42Q90 58 82 74Q70 92 50 92Q30 92 18 74Q10 58 18 42Z"
)
# What a cat's eyes and mouth say, good and bad.
MOODS = ("happy", "calm", "grumpy", "sly", "smug")


def cat_head(
    fur: str,
    *,
    eyes: str = "#9ccc3c",
    mood: str = "calm",
    muzzle: str | None = WHITE,
    stripes: str | None = None,
    patch: str | None = None,
    ears: str = PINK,
) -> str:
    """A cat's face: every deck's cats, court cards included, are this one cat, dressed
    differently."""
    out = f'<path d="{CAT_HEAD}"{attrs(fill=fur)}{stroke(4)}/>'
    out += f'<path d="M26 34L28 17L40 28ZM74 34L72 17L60 28Z"{attrs(fill=ears)}/>'
    if patch:  # a patch over one eye (calico, tuxedo)
        out += f'<path d="M22 46Q30 34 44 40Q48 54 40 62Q26 64 20 56Z"{attrs(fill=patch)}/>'
    if stripes:
        out += (
            f'<path d="M50 30V42M40 31L43 41M60 31L57 41M14 58H24M86 58H76M16 66H25M84 66H75"'
            f'{attrs(stroke=stripes)} stroke-width="3.5"/>'
        )
    if muzzle:
        muzzle_d = "M36 70Q36 60 50 62Q64 60 64 70Q64 82 50 82Q36 82 36 70Z"
        out += f'<path d="{muzzle_d}"{attrs(fill=muzzle)}/>'
    out += _eyes(mood, eyes)
    out += f'<path d="M45 63H55L50 69Z"{attrs(fill=PINK)}{stroke(1.5)}/>'
    mouth = {
        "happy": "M40 72Q45 79 50 72Q55 79 60 72",
        "grumpy": "M42 78Q50 72 58 78",
        "smug": "M42 73Q46 77 50 73Q54 77 58 73",
    }.get(mood, "M43 73Q47 77 50 72Q53 77 57 73")
    out += f'<path d="{mouth}" fill="none"{stroke(2.5)}/>'
    out += f'<path d="M34 70L12 66M34 74L12 78M66 70L88 66M66 74L88 78" fill="none"{stroke(1.5)}/>'
    return out


def _eyes(mood: str, iris: str) -> str:
    if mood == "happy":  # closed, smiling eyes
        return f'<path d="M30 52Q36 44 42 52M58 52Q64 44 70 52" fill="none"{stroke(3.5)}/>'
    if mood == "smug":  # half-closed lids
        return (
            f'<path d="M29 50H43Q42 58 36 58Q30 58 29 50ZM57 50H71Q70 58 64 58Q58 58 57 50Z"'
            f"{attrs(fill=iris)}{stroke(2.5)}/>"
        )
    out = (
        f'<ellipse cx="36" cy="51" rx="7" ry="8"{attrs(fill=iris)}{stroke(2.5)}/>'
        f'<ellipse cx="64" cy="51" rx="7" ry="8"{attrs(fill=iris)}{stroke(2.5)}/>'
        f'<path d="M36 45V57M64 45V57"{stroke(3.5)}/>'
    )
    if mood == "grumpy":  # heavy brows pulled down to the nose
        out += f'<path d="M26 38L44 44M74 38L56 44" fill="none"{stroke(4)}/>'
    elif mood == "sly":  # one brow up
        out += f'<path d="M28 40L44 42M58 38L72 36" fill="none"{stroke(3)}/>'
    return out


def cat_body(coat: str, trim: str | None = None) -> str:
    """Shoulders and a chest under a ``cat_head`` placed above: a court card's bust."""
    out = f'<path d="M8 100Q8 62 34 56Q50 64 66 56Q92 62 92 100Z"{attrs(fill=coat)}{stroke(4)}/>'
    if trim:
        out += f'<path d="M34 57L50 84L66 57" fill="none"{attrs(stroke=trim)} stroke-width="6"/>'
    return out


def crown(gold: str = "#f2b705", jewel: str = "#c62828") -> str:
    return (
        f'<path d="M14 80L10 30L32 54L50 20L68 54L90 30L86 80Z"{attrs(fill=gold)}{stroke(4)}/>'
        f'<circle cx="50" cy="64" r="7"{attrs(fill=jewel)}{stroke(2)}/>'
    )


# -- dogs, rabbits, mice -----------------------------------------------------------------


def dog_head(
    fur: str,
    ear: str,
    *,
    ears: str = "floppy",
    muzzle: str = WHITE,
    spot: str | None = None,
    tongue: bool = True,
    brows: bool = False,
) -> str:
    """A dog's face; floppy ears for the big dog, pricked ones for the terrier."""
    out = ""
    if ears == "floppy":
        out += (
            f'<path d="M28 26Q6 22 6 50Q6 72 22 70Q26 50 34 34ZM72 26Q94 22 94 50Q94 72 78 70'
            f'Q74 50 66 34Z"{attrs(fill=ear)}{stroke(4)}/>'
        )
    else:
        out += f'<path d="M22 44L16 6L44 26ZM78 44L84 6L56 26Z"{attrs(fill=ear)}{stroke(4)}/>'
    out += (
        f'<path d="M26 34Q50 10 74 34Q84 54 76 74Q66 94 50 94Q34 94 24 74Q16 54 26 34Z"'
        f"{attrs(fill=fur)}{stroke(4)}/>"
    )
    if spot:
        out += f'<path d="M58 30Q74 28 76 44Q74 56 62 54Q52 46 58 30Z"{attrs(fill=spot)}/>'
    out += f'<ellipse cx="50" cy="74" rx="18" ry="14"{attrs(fill=muzzle)}{stroke(2.5)}/>'
    if tongue:
        out += f'<path d="M44 80Q44 94 50 94Q56 94 56 80Z"{attrs(fill="#e5646e")}{stroke(2)}/>'
    out += f'<path d="M50 70V78M40 79Q50 86 60 79" fill="none"{stroke(2.5)}/>'
    out += f'<ellipse cx="50" cy="67" rx="8" ry="5.5"{attrs(fill=INK)}/>'
    out += (
        f'<circle cx="38" cy="50" r="5"{attrs(fill=INK)}/><circle cx="62" cy="50" r="5"'
        f'{attrs(fill=INK)}/><circle cx="40" cy="48" r="1.6"{attrs(fill=WHITE)}/>'
        f'<circle cx="64" cy="48" r="1.6"{attrs(fill=WHITE)}/>'
    )
    if brows:  # the big dog means business
        out += f'<path d="M30 40L44 44M70 40L56 44" fill="none"{stroke(3.5)}/>'
    return out


def rabbit_head(fur: str = "#e9e1d6") -> str:
    return (
        f'<path d="M36 52Q22 6 34 4Q46 4 46 50ZM54 50Q54 4 66 4Q78 6 64 52Z"'
        f"{attrs(fill=fur)}{stroke(4)}/>"
        f'<path d="M38 42Q32 14 35 11Q40 12 41 42ZM59 42Q60 12 65 11Q68 14 62 42Z"'
        f"{attrs(fill=PINK)}/>"
        f'<ellipse cx="50" cy="68" rx="28" ry="24"{attrs(fill=fur)}{stroke(4)}/>'
        f'<circle cx="39" cy="62" r="4.5"{attrs(fill=INK)}/><circle cx="61" cy="62" r="4.5"'
        f'{attrs(fill=INK)}/><circle cx="40.5" cy="60.5" r="1.4"{attrs(fill=WHITE)}/>'
        f'<circle cx="62.5" cy="60.5" r="1.4"{attrs(fill=WHITE)}/>'
        f'<path d="M46 72H54L50 76Z"{attrs(fill=PINK)}{stroke(1.5)}/>'
        f'<path d="M46 80H54V87H46Z"{attrs(fill=WHITE)}{stroke(2)}/>'
        f'<path d="M50 76V80M50 80V87M36 74L18 70M36 78L18 82M64 74L82 70M64 78L82 82"'
        f' fill="none"{stroke(1.5)}/>'
        f'<circle cx="31" cy="72" r="4" fill="{PINK}" opacity=".6"/>'
        f'<circle cx="69" cy="72" r="4" fill="{PINK}" opacity=".6"/>'
    )


def mouse(fur: str = "#a7a2a0", belly: str = "#d9d4cf") -> str:
    """A mouse running left, tail up behind it."""
    return (
        f'<path d="M80 66Q98 70 94 54Q90 40 98 32" fill="none"{stroke(3.5)}/>'
        f'<path d="M8 66Q12 44 40 38Q72 34 84 58Q90 74 74 76H24Q10 76 8 66Z"'
        f"{attrs(fill=fur)}{stroke(4)}/>"
        f'<path d="M24 74Q34 62 52 66Q62 70 66 76Z"{attrs(fill=belly)}/>'
        f'<circle cx="40" cy="34" r="13"{attrs(fill=fur)}{stroke(3.5)}/>'
        f'<circle cx="40" cy="34" r="7.5"{attrs(fill=PINK)}/>'
        f'<circle cx="24" cy="54" r="3.5"{attrs(fill=INK)}/>'
        f'<circle cx="25" cy="53" r="1.1"{attrs(fill=WHITE)}/>'
        f'<circle cx="8" cy="65" r="3.5"{attrs(fill=PINK)}{stroke(1.5)}/>'
        f'<path d="M14 62L2 56M14 66L2 70M30 76V82H38M60 76V82H68" fill="none"{stroke(2.5)}/>'
    )


def paw(fill: str = INK) -> str:
    """A paw print: one pad and four toes."""
    return (
        f'<g{attrs(fill=fill)}><path d="M50 92Q30 94 28 78Q28 58 50 56Q72 58 72 78Q70 94 50 92Z"/>'
        '<ellipse cx="22" cy="46" rx="9" ry="12" transform="rotate(-20 22 46)"/>'
        '<ellipse cx="40" cy="30" rx="9" ry="12" transform="rotate(-6 40 30)"/>'
        '<ellipse cx="60" cy="30" rx="9" ry="12" transform="rotate(6 60 30)"/>'
        '<ellipse cx="78" cy="46" rx="9" ry="12" transform="rotate(20 78 46)"/></g>'
    )


# -- food ----------------------------------------------------------------------------------


def fish(fill: str = "#4f9fd9", fin: str = "#2f6fa8", belly: str = "#cfe8f7") -> str:
    """A fish swimming left."""
    return (
        f'<path d="M70 50L94 30Q90 50 94 70Z"{attrs(fill=fin)}{stroke(4)}/>'
        f'<path d="M36 40Q44 16 64 40Z"{attrs(fill=fin)}{stroke(3)}/>'
        f'<path d="M6 52Q30 20 74 50Q30 80 6 52Z"{attrs(fill=fill)}{stroke(4)}/>'
        f'<path d="M14 58Q38 72 64 56Q40 76 14 58Z"{attrs(fill=belly)}/>'
        f'<path d="M30 38Q38 50 30 64M44 50Q48 46 52 50Q56 46 60 50" fill="none"{stroke(2.5)}/>'
        f'<circle cx="18" cy="47" r="4"{attrs(fill=WHITE)}{stroke(2)}/>'
        f'<circle cx="17" cy="47" r="1.8"{attrs(fill=INK)}/>'
    )


def bone(fill: str = "#f4ead5") -> str:
    shapes = (
        '<circle cx="16" cy="38" r="12"/><circle cx="16" cy="62" r="12"/>'
        '<circle cx="84" cy="38" r="12"/><circle cx="84" cy="62" r="12"/>'
        '<rect x="16" y="38" width="68" height="24" rx="4"/>'
    )
    return outlined(shapes, fill, INK, 8) + (
        '<path d="M30 56H70" fill="none" stroke="#d8c7a3" stroke-width="4"/>'
    )


# -- markers, arrows, little signs -----------------------------------------------------


def pawn(fill: str) -> str:
    """A player's marker (a wooden pawn)."""
    return (
        f'<path d="M50 8Q64 8 64 22Q64 32 56 36L70 86Q70 92 62 92H38Q30 92 30 86L44 36Q36 32 36 22'
        f'Q36 8 50 8Z"{attrs(fill=fill)}{stroke(4)}/>'
    )


def arrow(d: str, color: str = INK, width: float = 6) -> str:
    """A curved arrow along path ``d``; the head is added by the caller's path end."""
    return f'<path d="{d}" fill="none"{attrs(stroke=color)} stroke-width="{width:g}"/>'


def sparkle(fill: str = "#ffd54a") -> str:
    return (
        f'<path d="M50 4L60 40L96 50L60 60L50 96L40 60L4 50L40 40Z"{attrs(fill=fill)}{stroke(3)}/>'
    )


def cross(color: str = "#c62828") -> str:
    """A bold X: something leaves the table."""
    return arrow("M18 18L82 82M82 18L18 82", color, 14)
