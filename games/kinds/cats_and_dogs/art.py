"""Come Cani e Gatti: the 18 animals, the bone and fish food cards, the nine action cards.

Codes:
- "animal:<id>": the animal whose ``id`` the view's ``animals`` entries carry (the row of
  ``data.ANIMALS``); the card shows its name and its marker squares;
- food cards as the engine writes them: "b1" ... "b6" bones, "f1" ... "f6" fish;
- action cards by their engine codes: "shoo", "wander", "switch", "snatch", "bowl",
  "trade", "swap", "clean", "helping".

Action cards carry pictures, not words (labels are translated by the web layer; the legend
names them). Backs: "" the box's back, "food" the draw pile, "action" the hidden hands.
"""

from __future__ import annotations

from games.art import motifs as m
from games.art.svg import badge, corner_symbols, frame, indices, place, text
from games.kinds.cats_and_dogs.data import ACTION_CARDS, ANIMALS, FAVOURITE, food_deck

# The drawings only this deck uses (the shared ones are games.art.motifs).


def bowl(fill: str = "#d9534f", rim: str = "#f08a7e") -> str:
    """A pet's food bowl (Come Cani e Gatti's actions are about bowls)."""
    return (
        f'<path d="M6 50H94L84 82Q82 88 76 88H24Q18 88 16 82Z"{m.attrs(fill=fill)}{m.stroke(4)}/>'
        f'<ellipse cx="50" cy="50" rx="44" ry="10"{m.attrs(fill=rim)}{m.stroke(4)}/>'
        f'<ellipse cx="50" cy="50" rx="34" ry="5"{m.attrs(fill="#7a2e2a")}/>'
    )


PAPER = "#fff8ec"
INK = "#3b2314"
EDGE = {"dog": "#8a4b1f", "cat": "#6b3b7a", "b": "#8a5a2b", "f": "#1f5f8c", "act": "#2f5d50"}
FIELD = {"dog": "#f5dfbf", "cat": "#eadcef", "b": "#f6e7c9", "f": "#d9ebf6", "act": "#fbeccb"}
PLUS, MINUS = "#1e6b2a", "#a3241b"
BANNER = "#fffdf8"
# Marker colours on action pictures: the first two seats' colours of the table.
RED, BLUE = "#d9443a", "#3a78c9"

DOG_LOOKS = (
    dict(fur="#c98b4a", ear="#7a4a22"),
    dict(fur="#f1e6d2", ear="#c77b3a", ears="perky", spot="#c77b3a"),
    dict(fur="#6b4a35", ear="#3b2314", muzzle="#c9a27a"),
    dict(fur="#e0a35a", ear="#a0622a", ears="perky"),
    dict(fur="#efe7da", ear="#3d3a3a", spot="#3d3a3a"),
    dict(fur="#9a9ca3", ear="#5f6168", ears="perky"),
    dict(fur="#3d3a3a", ear="#1f1d1d", muzzle="#c98b4a", brows=True),
    dict(fur="#d9a066", ear="#8a5a2b", tongue=False),
    dict(fur="#fbf7ef", ear="#8a5a2b", ears="perky", spot="#8a5a2b", tongue=False),
)
CAT_LOOKS = (
    dict(fur="#f4a24a", stripes="#c96f1e", mood="calm"),
    dict(fur="#2f2d2d", eyes="#f2c335", mood="happy"),
    dict(fur="#fbf7ef", eyes="#4fa3e0", mood="smug"),
    dict(fur="#9a9ca3", eyes="#f2c335", mood="sly", muzzle="#c9cbd0"),
    dict(fur="#b0875c", stripes="#6e4e30", mood="happy"),
    dict(fur="#5c5a5a", eyes="#f2c335", mood="calm", muzzle="#8d8a8a"),
    dict(fur="#f08c2b", stripes="#b8560f", mood="grumpy"),
    dict(fur="#e8b04a", mood="happy", stripes="#b9802a"),
    dict(fur="#fbf7ef", patch="#f08c2b", mood="calm"),
)
ACTIONS = {card.code: card for card in ACTION_CARDS}

TEXT_COLOURS = [
    (INK, BANNER),
    (PLUS, FIELD["dog"]),
    (MINUS, FIELD["dog"]),
    (PLUS, FIELD["cat"]),
    (MINUS, FIELD["cat"]),
    (INK, FIELD["b"]),
    (INK, FIELD["f"]),
    (PAPER, EDGE["b"]),
    (PAPER, EDGE["f"]),
    (INK, FIELD["act"]),  # Second helping's ×2
]


def codes() -> list[str]:
    food = sorted(set(food_deck()), key=lambda c: (c[0], int(c[1:])))
    return [*(f"animal:{i}" for i in range(len(ANIMALS))), *food, *ACTIONS]


def animal_code(animal_id: int) -> str:
    """The code of a view's animal entry (its ``id``)."""
    return f"animal:{animal_id}"


def default_label(code: str) -> str:
    if code.startswith("animal:"):
        a = ANIMALS[int(code[7:])]
        squares = "1 square" if a.squares == 1 else f"{a.squares} squares"
        return f"{a.name} ({a.kind}, {squares})"
    if code in ACTIONS:
        return f"Action card: {ACTIONS[code].name}"
    return ("Bone " if code[0] == "b" else "Fish ") + code[1:]


def face(code: str) -> str:
    if code.startswith("animal:"):
        return _animal(int(code[7:]))
    if code in ACTIONS:
        return (
            frame(PAPER, EDGE["act"], FIELD["act"])
            + corner_symbols(m.sparkle(), 14)
            + place(ACTION_PICTURES[code](), 50, 70, 86)
        )
    return _food(code)


def _head(animal_id: int) -> str:
    a = ANIMALS[animal_id]
    same = [i for i, other in enumerate(ANIMALS) if other.kind == a.kind]
    n = same.index(animal_id)
    if a.kind == "dog":
        return m.dog_head(**DOG_LOOKS[n % len(DOG_LOOKS)])
    return m.cat_head(**CAT_LOOKS[n % len(CAT_LOOKS)])


def _animal(animal_id: int) -> str:
    a = ANIMALS[animal_id]
    out = frame(PAPER, EDGE[a.kind], FIELD[a.kind])
    # What this animal scores: its favourite food adds (top left), the other subtracts.
    likes = FAVOURITE[a.kind]
    good, bad = (m.bone(), m.fish()) if likes == "b" else (m.fish(), m.bone())
    out += place(good, 19, 17, 18) + text(19, 35, "+", 13, PLUS)
    out += place(bad, 81, 17, 18) + text(81, 35, "−", 13, MINUS)
    out += place(_head(animal_id), 50, 56, 58)
    # The marker squares, one per marker this animal takes.
    size, gap = 15, 6
    left = 50 - (a.squares * size + (a.squares - 1) * gap) / 2
    for i in range(a.squares):
        x = left + i * (size + gap)
        out += (
            f'<rect x="{x:g}" y="90" width="{size}" height="{size}" rx="2" fill="{BANNER}"'
            f' stroke="{INK}" stroke-width="2" stroke-dasharray="3 2"/>'
        )
    out += f'<rect x="12" y="111" width="76" height="18" rx="9" fill="{BANNER}" stroke="{INK}"'
    out += ' stroke-width="1.5"/>'
    size = 14 if len(a.name) <= 8 else 11  # names are read on a phone too
    return out + text(50, 124, a.name, size, INK)


def _food(code: str) -> str:
    kind, value = code[0], int(code[1:])
    motif = m.bone() if kind == "b" else m.fish()
    out = frame(PAPER, EDGE[kind], FIELD[kind]) + indices(str(value), INK, motif)
    out += place(motif, 50, 60, 74)
    # The value again in a badge: food is counted at a glance across the table.
    return out + badge(50, 110, str(value), EDGE[kind], PAPER, r=14)


# -- the action pictures: each is a composition in a 100 x 100 box --------------------------


def _arrow_right(y: float, x1: float = 30, x2: float = 70, color: str = INK) -> str:
    return m.arrow(f"M{x1} {y}H{x2}M{x2 - 8} {y - 8}L{x2} {y}L{x2 - 8} {y + 8}", color, 6)


def _swap_arrows(y: float) -> str:
    return m.arrow(
        f"M32 {y - 6}H68M60 {y - 14}L68 {y - 6}L60 {y + 2}M68 {y + 10}H32M40 {y + 2}L32 {y + 10}"
        f"L40 {y + 18}",
        INK,
        5,
    )


def _square(x: float, y: float, size: float = 30) -> str:
    """An empty marker square, dashed like the ones on the animal cards."""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" rx="3" fill="{BANNER}"'
        ' stroke-width="3" stroke-dasharray="5 3"/>'
    )


def _shoo() -> str:
    """The marker flies off its square, back to its owner's supply."""
    return (
        _square(10, 62)
        + m.arrow("M28 58Q36 26 60 24M52 16L62 24L52 32", INK, 5)
        + '<g transform="rotate(30 78 36)">'
        + place(m.pawn(RED), 78, 36, 46)
        + "</g>"
        + m.arrow("M58 54L48 62M66 64L58 74M74 70L70 82", "#b0713a", 4)
    )


def _wander() -> str:
    """Your marker walks from one animal's square to another's."""
    return (
        _square(6, 62)
        + _square(64, 62)
        + place(m.pawn(RED), 79, 52, 48)
        + m.arrow("M20 56Q30 18 56 30M46 24L58 30L50 40", INK, 5)
    )


def _switch() -> str:
    return place(m.pawn(RED), 22, 36, 40) + place(m.pawn(BLUE), 78, 36, 40) + _swap_arrows(76)


def _snatch() -> str:
    return (
        place(bowl(), 50, 76, 64)
        + place(m.fish(), 56, 30, 46)
        + m.arrow("M24 52Q18 30 30 16M22 20L30 12L38 22", INK, 5)
    )


def _pass_bowl() -> str:
    return (
        place(bowl(), 22, 82, 40)
        + place(bowl(), 78, 82, 40)
        + place(m.bone(), 50, 28, 36)
        + m.arrow("M20 62Q20 40 36 32M64 32Q80 40 80 62M72 56L80 64L88 56", INK, 5)
    )


def _trade() -> str:
    return place(m.bone(), 24, 30, 42) + place(m.fish(), 76, 30, 42) + _swap_arrows(72)


def _swap() -> str:
    return place(bowl(), 24, 30, 44) + place(bowl(), 76, 30, 44) + _swap_arrows(72)


def _clean() -> str:
    return (
        place(bowl(), 50, 70, 70)
        + place(m.sparkle(), 22, 26, 26)
        + place(m.sparkle(), 74, 18, 20)
        + place(m.sparkle(), 86, 44, 14)
    )


def _helping() -> str:
    return (
        place(bowl(), 36, 74, 56)
        + place(m.bone(), 36, 44, 34)
        + place(m.fish(), 36, 30, 30)
        + text(78, 72, "×2", 30, INK)
    )


ACTION_PICTURES = {
    "shoo": _shoo,
    "wander": _wander,
    "switch": _switch,
    "snatch": _snatch,
    "bowl": _pass_bowl,
    "trade": _trade,
    "swap": _swap,
    "clean": _clean,
    "helping": _helping,
}


BACK_VARIANTS = ("", "food", "action")  # what ``back()`` draws


def back(variant: str = "") -> str:
    if variant == "food":
        out = frame("#d98a3a", "#7a3a12", inset_line="#fff3d6")
        out += place(m.bone(), 50, 50, 52) + place(m.fish(), 50, 92, 52)
        return out
    if variant == "action":
        out = frame("#2f5d50", "#17332b", inset_line="#fbeccb")
        out += place(m.sparkle("#f2b705"), 50, 70, 44)
        for x, y in ((28, 34), (72, 34), (28, 106), (72, 106)):
            out += place(m.sparkle("#f6d77a"), x, y, 14)
        return out
    out = frame("#a8462a", "#5e2212", inset_line="#fff3d6")
    out += place(m.dog_head("#c98b4a", "#7a4a22"), 34, 62, 40)
    out += place(m.cat_head("#f4a24a", stripes="#c96f1e", mood="happy"), 66, 80, 40)
    return out + place(m.paw("#c8694a"), 50, 22, 14) + place(m.paw("#c8694a"), 50, 118, 14)


def legend() -> list[tuple[str, str]]:
    rows = [
        (m.bone(), "Bone: adds its value to a dog, takes it from a cat"),
        (m.fish(), "Fish: adds its value to a cat, takes it from a dog"),
        (m.pawn(RED), "A marker scores its animal's total for its owner"),
    ]
    rows += [(ACTION_PICTURES[c.code](), f"{c.name}: {c.text}") for c in ACTION_CARDS]
    return rows
