"""Duplicate deals (issue 26, part 2: "every table of a round plays the same deal (same
seed, same seat order relative to the deal), and a player's round score is compared with
the players who held the same seat at other tables").

The engines deal from their seed alone (``rules.setup(n_players, seed, options)``), so a
duplicate round is every table set up with ``round_seed(tournament_seed, round_number)``:
seat 0 of every table holds the same cards. Only tables of the same size share a deal (a
deal for 4 is not a deal for 3), so the comparison groups seats by table size and seat.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import mean

from games.tournaments.pairing.results import Player

# Seeds stay below 2**31: they travel in JSON and in the engines' stored states.
SEED_BOUND = 2**31


def round_seed(tournament_seed: int, round_number: int) -> int:
    """The deal of a round: the same for every table, different from round to round and
    from tournament to tournament; stable across processes and machines."""
    digest = hashlib.sha256(f"duplicate:{tournament_seed}:{round_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_BOUND


def compare(
    results_by_table: Mapping[object, Sequence[tuple[Player, float]]],
) -> dict[Player, float]:
    """Each player's score minus the mean score of the players who held the same seat at
    the other tables of the same size ("with the same cards, Anna did 12 points better
    than the field"). ``results_by_table``: table -> (player, score) in seat order. A seat
    nobody else held (a lone table of its size) has no field and is left out."""
    held: dict[tuple[int, int], list[tuple[object, Player, float]]] = defaultdict(list)
    for table, seats in results_by_table.items():
        for seat, (player, score) in enumerate(seats):
            held[(len(seats), seat)].append((table, player, score))
    differences = {}
    for holders in held.values():
        for table, player, score in holders:
            field = [s for t, _, s in holders if t != table]
            if field:
                differences[player] = score - mean(field)
    return differences
