"""Felix determinization: full states consistent with what one seat has seen.

Everything a Felix seat has not seen can be narrowed down from the public events: each
card of a row is turned up before the row leaves the table (F16, F23, F24), so the cards
another seat has played are known, and the rest of its colour set is its hand, its
face-down card and the card removed at set-up (F4), in an unknown split. The others'
mice are secret (F17) but every change is public (bids, passes, purchases), so they are
counted from the history; score piles are the rows bought, public when taken. The
virtual player's pile (F30) is its set minus the cards turned up, one of them removed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .felix import ORDER, SET, START_MICE

VIRTUAL = -1  # the virtual player's key among the seats


def read_history(n: int, history: Sequence[dict]) -> tuple[dict, list[int], list[list[str]]]:
    """Cards turned up per seat (VIRTUAL: the virtual pile), mice and score piles."""
    revealed: dict[int, set[str]] = {s: set() for s in (*range(n), VIRTUAL)}
    mice = [START_MICE] * n
    stakes = [0] * n
    piles: list[list[str]] = [[] for _ in range(n)]
    for ev in history:
        kind = ev.get("type")
        if kind == "card_turned":
            seat = ev["seat"]
            revealed[VIRTUAL if seat is None else seat].add(ev["card"])
        elif kind == "bid":  # F13: a bid is the new total stake
            seat = ev["seat"]
            mice[seat] -= ev["amount"] - stakes[seat]
            stakes[seat] = ev["amount"]
        elif kind == "pass":  # F14: the stake comes back with the mouse card's mice
            seat = ev["seat"]
            mice[seat] += ev["returned"] + ev["took"]
            stakes[seat] = 0
        elif kind == "sack_bought":
            piles[ev["seat"]].extend(ev["cards"])
            stakes = [0] * n
        elif kind == "sack_discarded":
            stakes = [0] * n
    return revealed, mice, piles


def sampler(view: dict, history: Sequence[dict]) -> Callable[[random.Random], dict]:
    me = view["seat"]
    n = view["n_players"]
    phase = view["phase"]
    if phase == "over":
        raise ValueError("the game is over: nothing to sample")
    revealed, mice, piles = read_history(n, history)
    mice[me] = view["mice"]
    piles[me] = list(view["score_pile"])
    row_view = view["row"]
    row_seats = view["row_seats"]
    hidden_pos = {
        seat: pos
        for pos, (card, seat) in enumerate(zip(row_view, row_seats, strict=True))
        if card is None
    }
    # What each other seat holds unseen: its hand, maybe a face-down card, and the removed.
    unknown: dict[int, list[str]] = {}
    face_down: dict[int, bool] = {}
    for s in range(n):
        if s == me:
            continue
        down = view["placed"][s] if phase == "place" else s in hidden_pos
        cards = sorted((c for c in SET if c not in revealed[s]), key=ORDER.__getitem__)
        if len(cards) != view["hand_counts"][s] + down + 1:
            raise ValueError("the history does not account for every card of the game")
        unknown[s], face_down[s] = cards, down
    virtual_unknown = []
    if n == 3:
        virtual_unknown = [c for c in SET if c not in revealed[VIRTUAL]]
        if len(virtual_unknown) != view["virtual_left"] + 1:
            raise ValueError("the history does not account for the virtual pile")
    my_card = view["my_card"]

    def sample(rng: random.Random) -> dict:
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[me] = list(view["hand"])
        placed: list[str | None] = [None] * n
        row = list(row_view)
        removed: list[str] = [""] * n
        removed[me] = view["missing"]
        if phase == "place" and view["placed"][me]:
            placed[me] = my_card
        if me in hidden_pos:
            row[hidden_pos[me]] = my_card
        for s, cards in unknown.items():
            cards = cards[:]
            rng.shuffle(cards)
            removed[s] = cards.pop()
            if face_down[s]:
                card = cards.pop()
                if phase == "place":
                    placed[s] = card
                else:
                    row[hidden_pos[s]] = card
            hands[s] = sorted(cards, key=ORDER.__getitem__)
        virtual: list[str] = []
        if n == 3:
            pile = virtual_unknown[:]
            rng.shuffle(pile)
            removed.append(pile.pop())
            virtual = pile
        return {
            "n": n,
            "round": view["round"],
            "phase": phase,
            "first": view["first"],
            "hands": hands,
            "placed": placed,
            "row": row,
            "shown": sum(card is not None for card in row_view),
            "turn": view["turn"],
            "mice": mice[:],
            "stakes": list(view["stakes"]),
            "passed": list(view["passed"]),
            "cards": [list(card) for card in view["mouse_cards"]],
            "bank": view["bank"],
            "mice_out": view["mice_out"],
            "piles": [list(p) for p in piles],
            "sacks": list(view["sacks"]),
            "virtual": virtual,
            "removed": removed,
            "out": list(view["discarded"]),
        }

    return sample
