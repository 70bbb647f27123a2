"""Come Cani e Gatti at the web table: the animals with their markers, their food and their
running totals, the food pile and the drawn card, and the seat's own action cards (C7:
only in its own view, which is the only view a page holds).

Actions and events name animals by their place on the table (0..2n-1); the view's
``animals`` say which animal card lies at each place.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.kinds.cats_and_dogs import art as deck
from games.kinds.cats_and_dogs import cards
from games.kinds.cats_and_dogs.types import parse_action

TEMPLATE = "web/tables/cats_and_dogs.html"

# The replay page's words for this game's board (static/web/replay/cats_and_dogs.js).
REPLAY_LABELS = {
    "animals": gettext_lazy("Animals"),
    "food_left": gettext_lazy("Food cards left"),
    "markers_left": gettext_lazy("Markers left"),
    "action_cards": gettext_lazy("Action cards"),
    "kind_cat": gettext_lazy("cat"),
    "kind_dog": gettext_lazy("dog"),
    "sated": gettext_lazy("sated"),
    "phase_mark": gettext_lazy("markers"),
    "phase_feed": gettext_lazy("feeding"),
    "phase_more": gettext_lazy("feeding"),
}

# What each token after the card's name stands for (the engine's action grammar), and how
# the step that chooses it reads: "Pass the bowl" → "from: Rex" → "food: bone 3" → "to: Luna".
GRAMMAR = {
    "mark": (("animal", "on"),),
    "feed": (("animal", "on"),),
    "shoo": (("animal", "from"), ("seat", "marker of")),
    "wander": (("animal", "from"), ("animal", "to")),
    "switch": (("animal", "yours on"), ("animal", "with"), ("seat", "marker of")),
    "snatch": (("animal", "from"), ("food", "food")),
    "bowl": (("animal", "from"), ("food", "food"), ("animal", "to")),
    "trade": (("animal", "from"), ("food", "food"), ("animal", "with"), ("food", "for")),
    "swap": (("animal", "of"), ("animal", "with")),
    "clean": (("animal", "of"),),
    "helping": (),
}
ACTION_CARDS = ("shoo", "wander", "switch", "snatch", "bowl", "trade", "swap", "clean", "helping")


def action_name(code: str) -> str:
    """An action card's name (the same words as in Telegram: ``cards``)."""
    return cards.name(code) if code in cards.NAMES else code


def food_label(code: str) -> str:
    """ "bone 3", "fish 5": a food card in words."""
    if code[:1] == "b":
        return _("bone %(value)s") % {"value": code[1:]}
    if code[:1] == "f":
        return _("fish %(value)s") % {"value": code[1:]}
    return code


def card_label(code: str) -> str:
    if code.startswith("animal:"):
        animal = deck.ANIMALS[int(code[7:])]
        values = {
            "name": animal.name,
            "kind": _("dog") if animal.kind == "dog" else _("cat"),
            "count": animal.squares,
        }
        return (
            ngettext(
                "%(name)s (%(kind)s, %(count)d square)",
                "%(name)s (%(kind)s, %(count)d squares)",
                animal.squares,
            )
            % values
        )
    if code in ACTION_CARDS:
        return _("Action card: %(name)s") % {"name": action_name(code)}
    return food_label(code)


def animal_name(view: dict | None, place: int) -> str:
    if view is not None and 0 <= place < len(view["animals"]):
        return view["animals"][place]["name"]
    return str(place + 1)


def animal_card(view: dict | None, place: int) -> str | None:
    if view is not None and 0 <= place < len(view["animals"]):
        return deck.animal_code(view["animals"][place]["id"])
    return None


def seat_name(names: list[str] | None, seat: int | None) -> str:
    if seat is None:
        return "?"
    if names and 0 <= seat < len(names):
        return names[seat]
    return str(seat + 1)


def legend_texts() -> list[str]:
    """What the deck's symbols mean, in the order of ``art.legend``: food, markers, then
    each action card with what it does."""
    return [
        _("Bone: adds its value to a dog, takes it from a cat"),
        _("Fish: adds its value to a cat, takes it from a dog"),
        _("A marker scores its animal's total for its owner"),
        *(f"{action_name(code)}: {cards.does(code)}" for code in ACTION_CARDS),
    ]


# -- choices ----------------------------------------------------------------------------------


def _first_step(head: str, view: dict | None) -> tuple[str, str | None]:
    if head == "mark":
        return _("Place a marker"), None
    if head == "draw":
        return _("Draw food"), None
    if head == "feed":
        return _("Place the food"), (view or {}).get("drawn")
    if head == "more":
        return _("More"), None
    if head == "stop":
        return _("Stop"), None
    if head in ACTION_CARDS:
        return action_name(head), head
    return head, None


def _role(role: str, value: str) -> str:
    texts = {
        "on": _("on: %(target)s"),
        "from": _("from: %(target)s"),
        "to": _("to: %(target)s"),
        "with": _("with: %(target)s"),
        "of": _("of: %(target)s"),
        "yours on": _("your marker on: %(target)s"),
        "marker of": _("marker of: %(target)s"),
        "food": _("food: %(target)s"),
        "for": _("for: %(target)s"),
    }
    return texts[role] % {"target": value}


def option(parts: tuple[str, ...], view: dict, names: list[str]) -> tuple[str, str | None]:
    head = parts[0]
    if len(parts) == 1:
        return _first_step(head, view)
    steps = GRAMMAR.get(head, ())
    if len(parts) - 2 >= len(steps):
        return parts[-1], None
    kind, role = steps[len(parts) - 2]
    token = parts[-1]
    if kind == "animal" and token.isdigit():
        place = int(token)
        return _role(role, animal_name(view, place)), animal_card(view, place)
    if kind == "seat" and token.isdigit():
        return _role(role, seat_name(names, int(token))), None
    if kind == "food":
        return _role(role, food_label(token)), token
    return _role(role, token), None


# The board's buttons: the action cards of the hand, the animals, the food on their plates
# and the food pile. A marker's owner, Stop and More are buttons under the board.
BOARD = ("hand", "animal", "food", "pile")
# What goes by itself when it is the only legal action: C10, with no action card to play,
# drawing is the only way on; C9, a marker with a single animal to go on.
AUTO = ("draw", "mark")


def picks(action: str, view: dict, names: list[str]) -> list[list[tuple[str, str]]]:
    """The taps that make ``action`` (``web.tables.pick_tree``). Marking and feeding are
    one tap on the animal; drawing is a tap on the pile (C11: the card is seen before it
    is placed); drawing more for the animal being fed (C12) is a tap on it, or More, with
    Stop beside it. An action card is a tap on it in the hand, then on its targets on the
    board: an animal, a food card on a plate (which names its animal too), a marker's
    owner; the two ends of a symmetric card (Trade a bite, Swap dinners) in either
    order."""
    parsed = parse_action(action)
    head, args = parsed.verb, parsed.targets

    def animal(place: int | str) -> tuple[str, str]:
        return f"animal:{place}", animal_name(view, int(place))

    def food(place: int | str, code: int | str) -> tuple[str, str]:
        return f"food:{place}:{code}", f"{food_label(str(code))} ({animal_name(view, int(place))})"

    def seat(number: int | str) -> tuple[str, str]:
        return f"seat:{number}", _role("marker of", seat_name(names, int(number)))

    card = (f"hand:{head}", action_name(head))
    if head in ("mark", "feed"):
        return [[animal(args[0])]]
    if head == "draw":
        return [[("pile", _("Draw food"))]]
    if head == "more":
        return [[animal(view["feeding"])], [("more", _("More"))]]
    if head == "stop":
        return [[("stop", _("Stop"))]]
    if head == "shoo":
        return [[card, animal(args[0]), seat(args[1])]]
    if head == "switch":
        return [[card, animal(args[0]), animal(args[1]), seat(args[2])]]
    if head == "snatch":
        return [[card, food(args[0], args[1])]]
    if head == "bowl":
        return [[card, food(args[0], args[1]), animal(args[2])]]
    if head == "trade":
        one, other = food(args[0], args[1]), food(args[2], args[3])
        return [[card, one, other], [card, other, one]]
    if head in ("wander", "swap"):
        way = [card, *(animal(a) for a in args)]
        return [way, [card, way[2], way[1]]] if head == "swap" else [way]
    return [[card, *(animal(a) for a in args)]]  # clean; helping: the card alone


# -- events -----------------------------------------------------------------------------------


def pieces(view: dict | None) -> dict:
    """How Come Cani e Gatti's narration reads at the web table (``games.narration``):
    an animal by its name on the table."""
    return {
        "food": food_label,
        "action": action_name,
        "animal": lambda place: animal_name(view, int(place)),
    }


def score_text(result, seat: int, view: dict | None) -> str:
    score = result.score(seat)
    return f"{int(score):+d}" if score is not None else ""
