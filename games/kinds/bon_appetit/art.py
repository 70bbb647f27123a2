"""Bon Appétit!: cheese, cats and mice with 1 to 3 paw prints (B1, B2).

Codes: the engine's public card names (``games.kinds.bon_appetit.engine.CARD_NAMES`` values, as
in the view's ``common`` pile): "cheese", "cat", "mouse1", "mouse2", "mouse3". A mouse
shows its paws, the number of cards the next player turns up to catch it (B9). Backs:
blue for the full deck, "red" for the red-backed deck of 2 and 3 players (B3).
"""

from __future__ import annotations

from games.art import motifs as m
from games.art.svg import corner_symbols, frame, indices, place
from games.kinds.bon_appetit.engine import CARD_NAMES, PAWS

# The drawings only this deck uses (the shared ones are games.art.motifs).


def cheese(fill: str = "#ffc93c", side: str = "#f2a900", hole: str = "#d98e04") -> str:
    """A wedge of cheese with its holes."""
    return (
        f'<path d="M6 52L80 22L94 44V82H6Z"{m.attrs(fill=fill)}{m.stroke(4)}/>'
        f'<path d="M6 52L80 22L94 44Z"{m.attrs(fill=side)}{m.stroke(3)}/>'
        f'<g{m.attrs(fill=hole)}><circle cx="26" cy="66" r="7"/><circle cx="52" cy="72" r="5"/>'
        '<circle cx="74" cy="62" r="8"/><circle cx="44" cy="58" r="3"/>'
        '<circle cx="86" cy="76" r="3"/><ellipse cx="62" cy="36" rx="5" ry="2.5"/></g>'
        f'<path d="M6 64Q12 70 6 76" fill="{m.WHITE}"{m.stroke(2.5)}/>'
    )


PAPER = "#fff8ea"
EDGE = "#1f4e8c"
INK = "#3b2314"
FIELD = {"cheese": "#dcecf7", "cat": "#f9d9c6", "mouse": "#e6efd9"}
BACKS = {"": ("#2c5d9e", "#173a66", "#3f74b8"), "red": ("#b3261e", "#6e1410", "#cc4a3a")}
CAT_LOOK = dict(fur="#f08c2b", stripes="#b8560f", eyes="#7cbf3a", mood="sly")

TEXT_COLOURS = [(INK, FIELD["mouse"]), (INK, PAPER)]


def codes() -> list[str]:
    return list(CARD_NAMES.values())


def default_label(code: str) -> str:
    if code.startswith("mouse"):
        paws = int(code[5:])
        return f"Mouse with {paws} paw" + ("s" if paws > 1 else "")
    return {"cheese": "Cheese", "cat": "Cat"}[code]


def face(code: str) -> str:
    if code == "cheese":
        return (
            frame(PAPER, EDGE, FIELD["cheese"])
            + corner_symbols(cheese(), 18)
            + place(cheese(), 50, 72, 78)
        )
    if code == "cat":
        out = frame(PAPER, EDGE, FIELD["cat"]) + corner_symbols(m.cat_head(**CAT_LOOK), 18)
        out += place(m.cat_head(**CAT_LOOK), 50, 64, 70)
        # Two front paws over the bottom edge: the cat is about to pounce.
        out += place(m.paw("#f08c2b"), 34, 110, 22) + place(m.paw("#f08c2b"), 66, 110, 22)
        return out
    paws = PAWS[code[5:]]
    out = frame(PAPER, EDGE, FIELD["mouse"]) + indices(str(paws), INK, m.paw(INK))
    out += place(m.mouse(), 50, 56, 66, flip=paws % 2 == 0)
    for i in range(paws):
        x = 50 + (i - (paws - 1) / 2) * 19
        out += place(m.paw("#7a5a46"), x, 104, 17)
    return out


BACK_VARIANTS = ("", "red")  # what ``back()`` draws


def back(variant: str = "") -> str:
    """The deck's colour with a ring of paw prints round a cheese."""
    main, dark, light = BACKS[variant]
    out = frame(main, dark, inset_line="#fff3d6")
    for x, y in ((26, 26), (74, 26), (26, 114), (74, 114), (50, 18), (50, 122)):
        out += place(m.paw(light), x, y, 14)
    out += '<circle cx="50" cy="70" r="30" fill="#fff3d6"' + f' stroke="{dark}" stroke-width="3"/>'
    out += place(cheese(), 50, 72, 42)
    return out


def legend() -> list[tuple[str, str]]:
    return [
        (cheese(), "Cheese: nothing happens"),
        (m.mouse(), "Mouse: the next player chases it"),
        (m.paw(), "Paw prints: how many cards the chaser may turn up"),
        (m.cat_head(**CAT_LOOK), "Cat: catches the mouse, wins the pile and a token"),
    ]
