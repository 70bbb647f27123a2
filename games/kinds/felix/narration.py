"""Felix: The Cat in the Sack, told (``games.narration``)."""

from __future__ import annotations

from games.narration import Amount, Card, Cards, Line, Seat, gettext_noop, line


def narrate(ev: dict) -> Line | None:
    kind = ev["type"]
    if kind == "placed":
        return line(gettext_noop("%(name)s places a card face down."), name=Seat(ev["seat"]))
    if kind == "you_placed":
        return line(gettext_noop("You placed %(card)s."), card=Card(ev["card"]))
    if kind == "auction_start":
        return line(
            gettext_noop("Round %(round)d: the auction starts with %(name)s."),
            round=ev["round"],
            name=Seat(ev["first"]),
        )
    if kind == "card_turned":
        return line(gettext_noop("A card turns: %(card)s."), card=Card(ev["card"]))
    if kind == "bid":
        return line(
            gettext_noop("%(name)s bids %(amount)d."), name=Seat(ev["seat"]), amount=ev["amount"]
        )
    if kind == "pass":
        return line(
            gettext_noop("%(name)s passes and takes %(mice)s."),
            name=Seat(ev["seat"]),
            mice=Amount(ev["returned"] + ev["took"], "mice"),
        )
    if kind == "last_offer":
        return line(
            gettext_noop("Everyone else passed: %(name)s may take the row for 1 mouse."),
            name=Seat(ev["seat"]),
        )
    if kind == "dogs_fight":
        return line(gettext_noop("The dogs chase each other away."))
    if kind == "dog_chase":
        if ev["cat"] is None:
            return line(gettext_noop("%(dog)s finds no cat and runs off."), dog=Card(ev["dog"]))
        return line(
            gettext_noop("%(dog)s chases away %(cat)s."), dog=Card(ev["dog"]), cat=Card(ev["cat"])
        )
    if kind == "sack_bought":
        return line(
            gettext_noop("%(name)s buys the sack for %(mice)s: %(cards)s"),
            name=Seat(ev["seat"]),
            mice=Amount(ev["price"], "mice"),
            cards=Cards(tuple(ev["cards"])),
        )
    if kind == "sack_discarded":
        return line(
            gettext_noop("Nobody takes the row: %(cards)s leave the game."),
            cards=Cards(tuple(ev["cards"])),
        )
    if kind == "bank_short":
        return line(gettext_noop("The bank is short: the mouse cards stay empty."))
    if kind == "round_start":
        return line(
            gettext_noop("Round %(round)d: %(name)s is first."),
            round=ev["round"],
            name=Seat(ev["first"]),
        )
    return None  # refills and the game's end: the table and the final screen show them
