"""Hand-built vector motifs, each drawn in a 100 x 100 box (``svg.place`` sizes them).

The style is a flat cartoon: bold warm-brown outlines (``INK``), flat fills, round joins.
Shapes are paths with integer coordinates so a card stays a few kilobytes.
"""

from __future__ import annotations

from .svg import INK, attrs, outlined

PINK = "#f29ca3"
WHITE = "#fffdf8"


def _stroke(w: float = 3) -> str:
    # The colour and the round joins come from the card's root (``svg.document``).
    return f' stroke-width="{w:g}"'


# -- cats ------------------------------------------------------------------------------

CAT_HEAD = (
    "M18 42L22 8L45 26Q50 25 55 26L78 8L82 42Q90 58 82 74Q70 92 50 92Q30 92 18 74Q10 58 18 42Z"
)
# What a cat's eyes and mouth say: the moods of the Felix cats, good and bad.
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
    """A cat's face: the cats of Felix, of Bon Appétit, of Come Cani e Gatti and the
    court cards of Smoking Cat are all this one cat, dressed differently."""
    out = f'<path d="{CAT_HEAD}"{attrs(fill=fur)}{_stroke(4)}/>'
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
    out += f'<path d="M45 63H55L50 69Z"{attrs(fill=PINK)}{_stroke(1.5)}/>'
    mouth = {
        "happy": "M40 72Q45 79 50 72Q55 79 60 72",
        "grumpy": "M42 78Q50 72 58 78",
        "smug": "M42 73Q46 77 50 73Q54 77 58 73",
    }.get(mood, "M43 73Q47 77 50 72Q53 77 57 73")
    out += f'<path d="{mouth}" fill="none"{_stroke(2.5)}/>'
    out += f'<path d="M34 70L12 66M34 74L12 78M66 70L88 66M66 74L88 78" fill="none"{_stroke(1.5)}/>'
    return out


def _eyes(mood: str, iris: str) -> str:
    if mood == "happy":  # closed, smiling eyes
        return f'<path d="M30 52Q36 44 42 52M58 52Q64 44 70 52" fill="none"{_stroke(3.5)}/>'
    if mood == "smug":  # half-closed lids
        return (
            f'<path d="M29 50H43Q42 58 36 58Q30 58 29 50ZM57 50H71Q70 58 64 58Q58 58 57 50Z"'
            f"{attrs(fill=iris)}{_stroke(2.5)}/>"
        )
    out = (
        f'<ellipse cx="36" cy="51" rx="7" ry="8"{attrs(fill=iris)}{_stroke(2.5)}/>'
        f'<ellipse cx="64" cy="51" rx="7" ry="8"{attrs(fill=iris)}{_stroke(2.5)}/>'
        f'<path d="M36 45V57M64 45V57"{_stroke(3.5)}/>'
    )
    if mood == "grumpy":  # heavy brows pulled down to the nose
        out += f'<path d="M26 38L44 44M74 38L56 44" fill="none"{_stroke(4)}/>'
    elif mood == "sly":  # one brow up
        out += f'<path d="M28 40L44 42M58 38L72 36" fill="none"{_stroke(3)}/>'
    return out


def cat_body(coat: str, trim: str | None = None) -> str:
    """Shoulders and a chest under a ``cat_head`` placed above: a court card's bust."""
    out = f'<path d="M8 100Q8 62 34 56Q50 64 66 56Q92 62 92 100Z"{attrs(fill=coat)}{_stroke(4)}/>'
    if trim:
        out += f'<path d="M34 57L50 84L66 57" fill="none"{attrs(stroke=trim)} stroke-width="6"/>'
    return out


def crown(gold: str = "#f2b705", jewel: str = "#c62828") -> str:
    return (
        f'<path d="M14 80L10 30L32 54L50 20L68 54L90 30L86 80Z"{attrs(fill=gold)}{_stroke(4)}/>'
        f'<circle cx="50" cy="64" r="7"{attrs(fill=jewel)}{_stroke(2)}/>'
    )


def pipe(smoke: str = "#9e9e9e") -> str:
    """A pipe with its curl of smoke: the Smoking Cat."""
    return (
        f'<path d="M10 48Q30 52 52 50" fill="none"{_stroke(5)}/>'
        f'<path d="M50 36H74V52Q74 66 62 66Q50 66 50 52Z"{attrs(fill="#7b4a26")}{_stroke(3)}/>'
        f'<path d="M62 30Q54 20 64 12Q74 4 66 -6Q60 -14 70 -22" fill="none"'
        f'{attrs(stroke=smoke)} stroke-width="5"/>'
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
            f'Q74 50 66 34Z"{attrs(fill=ear)}{_stroke(4)}/>'
        )
    else:
        out += f'<path d="M22 44L16 6L44 26ZM78 44L84 6L56 26Z"{attrs(fill=ear)}{_stroke(4)}/>'
    out += (
        f'<path d="M26 34Q50 10 74 34Q84 54 76 74Q66 94 50 94Q34 94 24 74Q16 54 26 34Z"'
        f"{attrs(fill=fur)}{_stroke(4)}/>"
    )
    if spot:
        out += f'<path d="M58 30Q74 28 76 44Q74 56 62 54Q52 46 58 30Z"{attrs(fill=spot)}/>'
    out += f'<ellipse cx="50" cy="74" rx="18" ry="14"{attrs(fill=muzzle)}{_stroke(2.5)}/>'
    if tongue:
        out += f'<path d="M44 80Q44 94 50 94Q56 94 56 80Z"{attrs(fill="#e5646e")}{_stroke(2)}/>'
    out += f'<path d="M50 70V78M40 79Q50 86 60 79" fill="none"{_stroke(2.5)}/>'
    out += f'<ellipse cx="50" cy="67" rx="8" ry="5.5"{attrs(fill=INK)}/>'
    out += (
        f'<circle cx="38" cy="50" r="5"{attrs(fill=INK)}/><circle cx="62" cy="50" r="5"'
        f'{attrs(fill=INK)}/><circle cx="40" cy="48" r="1.6"{attrs(fill=WHITE)}/>'
        f'<circle cx="64" cy="48" r="1.6"{attrs(fill=WHITE)}/>'
    )
    if brows:  # the big dog means business
        out += f'<path d="M30 40L44 44M70 40L56 44" fill="none"{_stroke(3.5)}/>'
    return out


def rabbit_head(fur: str = "#e9e1d6") -> str:
    return (
        f'<path d="M36 52Q22 6 34 4Q46 4 46 50ZM54 50Q54 4 66 4Q78 6 64 52Z"'
        f"{attrs(fill=fur)}{_stroke(4)}/>"
        f'<path d="M38 42Q32 14 35 11Q40 12 41 42ZM59 42Q60 12 65 11Q68 14 62 42Z"'
        f"{attrs(fill=PINK)}/>"
        f'<ellipse cx="50" cy="68" rx="28" ry="24"{attrs(fill=fur)}{_stroke(4)}/>'
        f'<circle cx="39" cy="62" r="4.5"{attrs(fill=INK)}/><circle cx="61" cy="62" r="4.5"'
        f'{attrs(fill=INK)}/><circle cx="40.5" cy="60.5" r="1.4"{attrs(fill=WHITE)}/>'
        f'<circle cx="62.5" cy="60.5" r="1.4"{attrs(fill=WHITE)}/>'
        f'<path d="M46 72H54L50 76Z"{attrs(fill=PINK)}{_stroke(1.5)}/>'
        f'<path d="M46 80H54V87H46Z"{attrs(fill=WHITE)}{_stroke(2)}/>'
        f'<path d="M50 76V80M50 80V87M36 74L18 70M36 78L18 82M64 74L82 70M64 78L82 82"'
        f' fill="none"{_stroke(1.5)}/>'
        f'<circle cx="31" cy="72" r="4" fill="{PINK}" opacity=".6"/>'
        f'<circle cx="69" cy="72" r="4" fill="{PINK}" opacity=".6"/>'
    )


def mouse(fur: str = "#a7a2a0", belly: str = "#d9d4cf") -> str:
    """A mouse running left, tail up behind it."""
    return (
        f'<path d="M80 66Q98 70 94 54Q90 40 98 32" fill="none"{_stroke(3.5)}/>'
        f'<path d="M8 66Q12 44 40 38Q72 34 84 58Q90 74 74 76H24Q10 76 8 66Z"'
        f"{attrs(fill=fur)}{_stroke(4)}/>"
        f'<path d="M24 74Q34 62 52 66Q62 70 66 76Z"{attrs(fill=belly)}/>'
        f'<circle cx="40" cy="34" r="13"{attrs(fill=fur)}{_stroke(3.5)}/>'
        f'<circle cx="40" cy="34" r="7.5"{attrs(fill=PINK)}/>'
        f'<circle cx="24" cy="54" r="3.5"{attrs(fill=INK)}/>'
        f'<circle cx="25" cy="53" r="1.1"{attrs(fill=WHITE)}/>'
        f'<circle cx="8" cy="65" r="3.5"{attrs(fill=PINK)}{_stroke(1.5)}/>'
        f'<path d="M14 62L2 56M14 66L2 70M30 76V82H38M60 76V82H68" fill="none"{_stroke(2.5)}/>'
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


def cheese(fill: str = "#ffc93c", side: str = "#f2a900", hole: str = "#d98e04") -> str:
    """A wedge of cheese with its holes."""
    return (
        f'<path d="M6 52L80 22L94 44V82H6Z"{attrs(fill=fill)}{_stroke(4)}/>'
        f'<path d="M6 52L80 22L94 44Z"{attrs(fill=side)}{_stroke(3)}/>'
        f'<g{attrs(fill=hole)}><circle cx="26" cy="66" r="7"/><circle cx="52" cy="72" r="5"/>'
        '<circle cx="74" cy="62" r="8"/><circle cx="44" cy="58" r="3"/>'
        '<circle cx="86" cy="76" r="3"/><ellipse cx="62" cy="36" rx="5" ry="2.5"/></g>'
        f'<path d="M6 64Q12 70 6 76" fill="{WHITE}"{_stroke(2.5)}/>'
    )


def fish(fill: str = "#4f9fd9", fin: str = "#2f6fa8", belly: str = "#cfe8f7") -> str:
    """A fish swimming left."""
    return (
        f'<path d="M70 50L94 30Q90 50 94 70Z"{attrs(fill=fin)}{_stroke(4)}/>'
        f'<path d="M36 40Q44 16 64 40Z"{attrs(fill=fin)}{_stroke(3)}/>'
        f'<path d="M6 52Q30 20 74 50Q30 80 6 52Z"{attrs(fill=fill)}{_stroke(4)}/>'
        f'<path d="M14 58Q38 72 64 56Q40 76 14 58Z"{attrs(fill=belly)}/>'
        f'<path d="M30 38Q38 50 30 64M44 50Q48 46 52 50Q56 46 60 50" fill="none"{_stroke(2.5)}/>'
        f'<circle cx="18" cy="47" r="4"{attrs(fill=WHITE)}{_stroke(2)}/>'
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


def bowl(fill: str = "#d9534f", rim: str = "#f08a7e") -> str:
    """A pet's food bowl (Come Cani e Gatti's actions are about bowls)."""
    return (
        f'<path d="M6 50H94L84 82Q82 88 76 88H24Q18 88 16 82Z"{attrs(fill=fill)}{_stroke(4)}/>'
        f'<ellipse cx="50" cy="50" rx="44" ry="10"{attrs(fill=rim)}{_stroke(4)}/>'
        f'<ellipse cx="50" cy="50" rx="34" ry="5"{attrs(fill="#7a2e2a")}/>'
    )


def sack(cloth: str = "#c9a36a", tie: str = "#8a2b1d", fur: str = "#3b3b3b") -> str:
    """The cat in the sack: a tied sack with a cat peeking out, paws on the rim."""
    rim = "#a9844c"
    return (
        f'<path d="M24 46Q22 22 32 16L34 2L46 12Q50 11 54 12L66 2L68 16Q78 22 76 46Z"'
        f"{attrs(fill=fur)}{_stroke(3.5)}/>"
        f'<path d="M35 12L36 7L42 12ZM65 12L64 7L58 12Z"{attrs(fill=PINK)}/>'
        f'<ellipse cx="40" cy="28" rx="5.5" ry="5" fill="#f6d23b"{_stroke(2)}/>'
        f'<ellipse cx="60" cy="28" rx="5.5" ry="5" fill="#f6d23b"{_stroke(2)}/>'
        f'<path d="M40 24V32M60 24V32"{_stroke(2.5)}/>'
        f'<path d="M46 36H54L50 40Z"{attrs(fill=PINK)}/>'
        f'<path d="M22 46Q8 68 16 84Q22 98 50 98Q78 98 84 84Q92 68 78 46Z"'
        f"{attrs(fill=cloth)}{_stroke(4)}/>"
        f'<path d="M18 46Q50 36 82 46Q84 52 80 55Q50 46 20 55Q16 52 18 46Z"'
        f"{attrs(fill=rim)}{_stroke(3)}/>"
        f'<path d="M28 44Q28 36 36 36Q44 36 44 43ZM56 43Q56 36 64 36Q72 36 72 44Z"'
        f"{attrs(fill=fur)}{_stroke(3)}/>"
        f'<path d="M32 38V42M38 37V41M62 37V41M68 38V42" fill="none" stroke="#777"'
        ' stroke-width="1.5"/>'
        f'<path d="M24 62Q50 70 76 62" fill="none"{attrs(stroke=tie)} stroke-width="6"/>'
        f'<path d="M32 74Q36 82 32 90M64 72Q60 82 68 90M48 78V86" fill="none"'
        ' stroke="#9c7a45" stroke-width="2.5"/>'
    )


# -- the German suits (Smoking Cat) -----------------------------------------------------


def leaf(fill: str = "#3c8d2f", vein: str = "#1f5c18", detail: bool = True) -> str:
    """The German Leaves (Grün). ``detail=False`` is the lighter pip of a numeral card."""
    veins = "M50 20V82M50 44L34 34M50 44L66 34M50 62L28 52M50 62L72 52" if detail else "M50 24V80"
    return (
        f'<path d="M50 6C62 26 90 32 86 60C84 78 62 82 54 82L57 96H43L46 82C38 82 16 78 14 60'
        f'C10 32 38 26 50 6Z"{attrs(fill=fill)}{_stroke(4)}/>'
        f'<path d="{veins}" fill="none"{attrs(stroke=vein)} stroke-width="3"/>'
    )


def heart(fill: str = "#d42a2a", shine: str = "#f07a6e", detail: bool = True) -> str:
    out = (
        f'<path d="M50 90C18 66 6 48 16 30C26 14 44 16 50 32C56 16 74 14 84 30C94 48 82 66 50 90Z"'
        f"{attrs(fill=fill)}{_stroke(4)}/>"
    )
    if detail:
        out += f'<path d="M24 36Q28 26 38 28" fill="none"{attrs(stroke=shine)} stroke-width="5"/>'
    return out


def bell(fill: str = "#f2b705", band: str = "#c2311f", detail: bool = True) -> str:
    """A German sleigh bell (Schelle): a ball with a band, a ring and a slit below."""
    out = (
        f'<circle cx="50" cy="10" r="7" fill="none"{_stroke(4)}/>'
        f'<circle cx="50" cy="54" r="38"{attrs(fill=fill)}{_stroke(4)}/>'
        f'<path d="M13 46Q50 60 87 46V58Q50 72 13 58Z"{attrs(fill=band)}{_stroke(2.5)}/>'
        f'<path d="M36 78Q50 86 64 78" fill="none"{_stroke(5)}/>'
    )
    if detail:
        out += '<path d="M28 34Q32 26 40 24" fill="none" stroke="#fff2b3" stroke-width="5"/>'
    return out


def acorn(nut: str = "#c98a2e", cup: str = "#6b4423", detail: bool = True) -> str:
    out = (
        f'<path d="M30 48Q28 84 50 96Q72 84 70 48Z"{attrs(fill=nut)}{_stroke(4)}/>'
        f'<path d="M20 46Q20 22 50 22Q80 22 80 46Q80 54 50 54Q20 54 20 46Z"'
        f"{attrs(fill=cup)}{_stroke(4)}/>"
        f'<path d="M50 22Q50 12 58 4" fill="none"{_stroke(5)}/>'
    )
    if detail:
        out += (
            '<path d="M30 34L40 46M42 28L56 46M58 28L70 42M32 46L44 30M48 46L62 28M64 46L74 34'
            '" fill="none" stroke="#8c5e34" stroke-width="2.5"/>'
            '<path d="M38 62Q38 78 46 86" fill="none" stroke="#e6b562" stroke-width="4"/>'
        )
    return out


# -- markers, arrows, little signs -----------------------------------------------------


def pawn(fill: str) -> str:
    """A player's marker (a wooden pawn)."""
    return (
        f'<path d="M50 8Q64 8 64 22Q64 32 56 36L70 86Q70 92 62 92H38Q30 92 30 86L44 36Q36 32 36 22'
        f'Q36 8 50 8Z"{attrs(fill=fill)}{_stroke(4)}/>'
    )


def arrow(d: str, color: str = INK, width: float = 6) -> str:
    """A curved arrow along path ``d``; the head is added by the caller's path end."""
    return f'<path d="{d}" fill="none"{attrs(stroke=color)} stroke-width="{width:g}"/>'


def sparkle(fill: str = "#ffd54a") -> str:
    return (
        f'<path d="M50 4L60 40L96 50L60 60L50 96L40 60L4 50L40 40Z"{attrs(fill=fill)}{_stroke(3)}/>'
    )


def cross(color: str = "#c62828") -> str:
    """A bold X: something leaves the table."""
    return arrow("M18 18L82 82M82 18L18 82", color, 14)
