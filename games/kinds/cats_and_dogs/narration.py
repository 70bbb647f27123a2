"""Come Cani e Gatti, told (``games.narration``). Animals are told by their place on the
table (the family ``animal``): each front-end says it its own way (a number, a name)."""

from __future__ import annotations

from dataclasses import replace

from games.narration import Card, Line, Seat, gettext_noop, line

# What an action card did, by card: the pieces each sentence uses come from the event.
ACTION_DETAILS = {
    "shoo": gettext_noop("%(owner)s's marker leaves animal %(animal)s."),
    "wander": gettext_noop("A marker moves from animal %(animal)s to %(dest)s."),
    "switch": gettext_noop("Markers swap between animals %(animal)s and %(other)s."),
    "snatch": gettext_noop("%(food)s is taken from animal %(animal)s."),
    "bowl": gettext_noop("%(food)s moves from animal %(animal)s to %(dest)s."),
    "trade": gettext_noop("%(food)s of animal %(animal)s ↔ %(other_food)s of animal %(other)s."),
    "swap": gettext_noop("Animals %(animal)s and %(other)s swap dinners."),
    "clean": gettext_noop("Animal %(animal)s's bowl is cleaned."),
}


def animal(place: int) -> Card:
    return Card(str(place), "animal")


def narrate(ev: dict) -> Line | None:
    kind = ev["type"]
    name = Seat(ev.get("seat"))
    if kind == "marked":
        return line(
            gettext_noop("%(name)s places a marker on animal %(animal)s."),
            name=name,
            animal=animal(ev["animal"]),
        )
    if kind == "drew":
        return line(
            gettext_noop("%(name)s draws %(food)s."), name=name, food=Card(ev["card"], "food")
        )
    if kind == "fed":
        return line(
            gettext_noop("%(name)s feeds %(food)s to animal %(animal)s."),
            name=name,
            food=Card(ev["card"], "food"),
            animal=animal(ev["animal"]),
        )
    if kind == "sated":
        return line(gettext_noop("Animal %(animal)s is sated!"), animal=animal(ev["animal"]))
    if kind == "stopped":
        return line(gettext_noop("%(name)s stops feeding."), name=name)
    if kind == "action":
        played = line(
            gettext_noop("%(name)s plays %(card)s."), name=name, card=Card(ev["card"], "action")
        )
        return replace(played, then=_action_detail(ev))
    if kind == "over":
        if ev.get("reason") == "sated":
            return line(gettext_noop("All animals but one are sated: the game is over."))
        return line(gettext_noop("The last food card is placed: the game is over."))
    return None


def _action_detail(ev: dict) -> Line | None:
    message = ACTION_DETAILS.get(ev["card"])
    if message is None:
        return None
    pieces = {
        "animal": animal(ev["animal"]) if "animal" in ev else "",
        "dest": animal(ev["dest"]) if "dest" in ev else "",
        "other": animal(ev["other_animal"]) if "other_animal" in ev else "",
        "owner": Seat(ev.get("owner")),
        "food": Card(ev["food"], "food") if isinstance(ev.get("food"), str) else "",
        "other_food": Card(ev["other_food"], "food") if "other_food" in ev else "",
    }
    return Line(message, pieces)
