"""Smoking Cat, told (``games.narration``)."""

from __future__ import annotations

from games.narration import Card, Cards, Line, PerSeat, Seat, Seats, gettext_noop, line


def narrate(ev: dict) -> Line | None:
    kind = ev["type"]
    if kind == "received":
        return line(gettext_noop("You received %(cards)s."), cards=Cards(tuple(ev["cards"])))
    if kind == "pass":
        return line(gettext_noop("%(name)s passes three cards to the left."), name=Seat(ev["seat"]))
    if kind == "play_start":
        return line(gettext_noop("Play starts: %(name)s leads."), name=Seat(ev["leader"]))
    if kind == "play":
        return line(
            gettext_noop("%(name)s plays %(card)s."), name=Seat(ev["seat"]), card=Card(ev["card"])
        )
    if kind == "trick":
        return line(
            gettext_noop("%(name)s takes the trick (+%(points)d)."),
            name=Seat(ev["winner"]),
            points=ev["points"],
        )
    if kind == "throw":
        return line(
            gettext_noop("%(name)s throws down and takes %(points)d points."),
            name=Seat(ev["seat"]),
            points=ev["points"],
        )
    if kind == "deal_end":
        return deal_result(ev)
    if kind == "deal":
        return line(
            gettext_noop("Deal %(deal)d: %(name)s deals."), deal=ev["deal"], name=Seat(ev["dealer"])
        )
    if kind == "letter_adjusted":
        if ev["delta"] > 0:
            return line(gettext_noop("A moderator gave %(name)s a letter."), name=Seat(ev["seat"]))
        return line(gettext_noop("A moderator took a letter from %(name)s."), name=Seat(ev["seat"]))
    return None


def deal_result(ev: dict) -> Line:
    """Who lost the deal and the letters each of them holds now (S14)."""
    losers = tuple(ev["losers"])
    return line(
        gettext_noop("Deal %(deal)d lost by %(names)s: %(letters)s"),
        deal=ev["deal"],
        names=Seats(losers),
        letters=PerSeat(tuple((s, ev["letters"][s]) for s in losers)),
    )
