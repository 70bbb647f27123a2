"""Cat Nap's rules engine and its computer player.

Each of 3 rounds, every seat in turn either naps (+1) or purrs (+0); most naps wins. The
capabilities are for the entry that declares them (``test_a_fifth_game.CAT_NAP_CLUB``):
naps read as fewer-is-better, a league gives its tables a lullaby, a league's page shows
each seat's naps, and a moderator may wake a napping cat (one nap less), which ends the
game at once, as the club's house rule says ("N2"): its termination is ``MODERATOR``
(``capabilities``).
"""

from __future__ import annotations

import random

from games.engines import IllegalAction, Result, Rules, Termination, event, ranks_from

ROUNDS = 3


class CatNapRules(Rules):
    slug = "cat_nap"
    name = "Cat Nap"
    min_players = 2
    max_players = 3

    def setup(self, n_players, seed, options=None):
        self.check_players(n_players)
        return {"n": n_players, "turn": 0, "naps": [0] * n_players, "woken": False}

    def n_players(self, state):
        return state["n"]

    def to_act(self, state):
        if state["turn"] >= ROUNDS * state["n"] or state.get("woken"):
            return []
        return [state["turn"] % state["n"]]

    def legal_actions(self, state, seat):
        return ["nap", "purr"] if seat in self.to_act(state) else []

    def apply(self, state, seat, action):
        self.require_turn(state, seat)
        if action not in ("nap", "purr"):
            raise IllegalAction("Cats only nap or purr.")
        state["naps"][seat] += action == "nap"
        state["turn"] += 1
        return [event(action, seat=seat)]

    def view(self, state, seat):
        return {"naps": list(state["naps"]), "to_act": self.to_act(state), "turn": state["turn"]}

    def outcome(self, state):
        if self.to_act(state):
            return None
        ended = Termination.MODERATOR if state.get("woken") else Termination.NORMAL
        return Result.of(state["naps"], ranks_from(state["naps"]), ended)

    def wake(self, state, seat):
        """N2: a moderator wakes a napping cat: one nap less, and the game is over."""
        if self.outcome(state) is not None:
            raise IllegalAction("The game is over.")
        state["naps"][seat] -= 1
        state["woken"] = True
        return [event("woken", seat=seat), event("over", **self.outcome(state).to_json())]

    def dump(self, state):
        return {**state, "naps": list(state["naps"])}

    def load(self, data):
        return self.dump(data)


RULES = CatNapRules()


class Sleepy:
    def choose(self, view, legal, rng: random.Random, history=()):
        return "nap"


STRATEGIES = {"heuristic": Sleepy()}
