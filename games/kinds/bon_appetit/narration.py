"""Bon Appétit!, told (``games.narration``)."""

from __future__ import annotations

from games.engines import Termination
from games.narration import Card, Line, Seat, gettext_noop, line

# B13a: the endings of a table that would have flipped forever.
LOOPED = (Termination.REPEATED_POSITION, Termination.MOVE_LIMIT)


def narrate(ev: dict) -> Line | None:
    kind = ev["type"]
    if kind == "flip":
        return line(
            gettext_noop("%(name)s turns up %(card)s."),
            name=Seat(ev["seat"]),
            card=Card(ev["card"]),
        )
    if kind in ("chase_start", "chase_pass"):
        return line(
            gettext_noop("%(name)s must catch it in %(flips)d flips!"),
            name=Seat(ev["chaser"]),
            flips=ev["flips_left"],
        )
    if kind == "chase_end":
        if ev["result"] == "caught":
            return line(gettext_noop("Caught! %(name)s wins the pile."), name=Seat(ev["winner"]))
        if ev["winner"] is None:
            return line(gettext_noop("The mouse got away; nobody wins the pile."))
        return line(
            gettext_noop("The mouse got away: %(name)s wins the pile."), name=Seat(ev["winner"])
        )
    if kind == "game_end" and Termination.of_event(ev) in LOOPED:
        return ended_in_a_loop()
    if kind == "pile_won":
        return line(
            gettext_noop("%(name)s takes %(cards)d cards."),
            name=Seat(ev["seat"]),
            cards=ev["cards"],
        )
    return None


def ended_in_a_loop() -> Line:
    """B13a: the table would have flipped forever."""
    return line(gettext_noop("The cards went round in a circle: the game ends here (B13a)."))
