"""A fifth game that exists only in the tests: "Cat Nap". Everything a game needs is in
this one module (engine, computer player, Telegram renderer), and the test registers one
catalog entry for it; no other file of the project knows it.

Each of 3 rounds, every seat in turn either naps (+1) or purrs (+0); most naps wins.
"""

from __future__ import annotations

import random

from bot.keyboard import Button
from bot.render.common import header, turn_marker
from games.engines import IllegalAction, Rules, event, ranks_from

ROUNDS = 3


class CatNapRules(Rules):
    slug = "cat_nap"
    name = "Cat Nap"
    min_players = 2
    max_players = 3

    def setup(self, n_players, seed, options=None):
        self.check_players(n_players)
        return {"n": n_players, "turn": 0, "naps": [0] * n_players}

    def n_players(self, state):
        return state["n"]

    def to_act(self, state):
        if state["turn"] >= ROUNDS * state["n"]:
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
        return {"scores": list(state["naps"]), "ranks": ranks_from(state["naps"])}

    def dump(self, state):
        return {**state, "naps": list(state["naps"])}

    def load(self, data):
        return self.dump(data)


RULES = CatNapRules()


class Sleepy:
    def choose(self, view, legal, rng: random.Random, history=()):
        return "nap"


STRATEGIES = {"heuristic": Sleepy()}


# -- the Telegram renderer ---------------------------------------------------------------------
def table(view, ctx):
    naps = " · ".join(f"{ctx.name(s)} 💤{n}" for s, n in enumerate(view["naps"]))
    rows = [[Button("💤 Nap", ctx.move("nap")), Button("😺 Purr", ctx.move("purr"))]]
    return "\n".join([header(ctx), naps, turn_marker(ctx, view["to_act"])]), rows


def private(view, ctx):
    return None


def menu(view, ctx, prefix):
    return None


def event_line(ev, ctx):
    return f"{ctx.name(ev['seat'])} {ev['type']}s"


def notice(ev, ctx):
    return None


def score_label(result, seat, view=None):
    return f"💤{result.score(seat)}"


def toast(action, ctx):
    return action
