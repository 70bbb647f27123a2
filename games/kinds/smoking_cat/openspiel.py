"""This game's deals as chance steps drawn one at a time (``games.engines.deals``), for
OpenSpiel (``games.openspiel``).
"""

from __future__ import annotations

from games.engines.deals import Deal, draw, uniform

from . import engine as smoking_cat


class SmokingCatDeal(Deal):
    """Smoking Cat: the first dealer (S4), then every deal's 32 cards one at a time
    (card i goes to seat dealer + 1 + i, S5). A deal is drawn when the game reaches it:
    the action that ends a deal is held back while the next deck is drawn, then applied
    with that deck stacked, so no deal is drawn that the match never plays."""

    rules = smoking_cat.RULES
    max_chance_outcomes = smoking_cat.N_CARDS

    def outcomes(self, n, drawn, setup):
        cards = drawn[1:] if setup else drawn
        if setup and not drawn:
            return uniform(smoking_cat.N_SEATS)
        if len(cards) < smoking_cat.N_CARDS:
            return draw([1] * smoking_cat.N_CARDS, cards)
        return []

    def options(self, n, deals):
        decks = [deals[0][1:], *deals[1:]]
        return {
            "dealer": deals[0][0],
            "decks": [[smoking_cat.CODES[c] for c in deck] for deck in decks],
        }

    def dealt(self, before, after):
        return after.deal != before.deal and after.phase != smoking_cat.OVER

    def redeal(self, state, deal):
        data = self.rules.dump(state)
        data["decks"] = [smoking_cat.pack_deck(list(deal))]
        return self.rules.load(data)

    def describe(self, n, drawn, setup, outcome):
        if setup and not drawn:
            return f"dealer: seat {outcome}"
        return f"deal: {smoking_cat.CODES[outcome]}"

    def max_length(self, n):
        # Every deal gives at least one letter; the 17th letter spells GATTO for someone.
        deals = smoking_cat.N_SEATS * (len(smoking_cat.DEFAULT_WORD) - 1) + 1
        per_deal = smoking_cat.N_CARDS * 2 + smoking_cat.N_SEATS * smoking_cat.PASS_SIZE
        return 1 + deals * per_deal


DEAL = SmokingCatDeal()
