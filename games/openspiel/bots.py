"""OpenSpiel's search bots as computer players of our games (issue 27, for the arena).

Each is a strategy like ours (``choose(view, legal, rng, history)``: it sees the seat's
view and observation history, never the state) with a budget of seconds per decision on
a given clock (the arena's CPU clock), so it can be measured against the "hard" player at
the same budget:

* ``IsmctsStrategy``: OpenSpiel's information-set MCTS, which redraws a state from the
  seat's information set at every simulation through
  ``EngineState.resample_from_infostate`` (the engine's ``determinize``), searching until
  the budget is spent. The Python one (``open_spiel.python.algorithms.ismcts``), a port
  of the C++ ``pyspiel.ISMCTSBot``: in the open_spiel 2.0.2 wheel the C++ bots
  (``ISMCTSBot``, ``MCTSBot``) crash the process on any Python game, OpenSpiel's own
  ``python_kuhn_poker`` included, while they work on C++ games.
* ``DeterminizedMctsStrategy``: OpenSpiel's Python MCTS (``open_spiel.python.algorithms.
  mcts.MCTSBot``) is a perfect-information search, so it runs on determinizations: short
  searches on one sampled state after another until the budget is spent, the actions'
  root visits summed over the samples (an ensemble, as determinized UCT usually is).
  The clock is read between searches of ``MCTS_CHUNK`` simulations, so a budget smaller
  than one such search is overrun (ISMCTS likewise runs at least two simulations).

Both roll out uniformly at random.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from .deals import DEALS
from .game import EngineState, short_name

UCT_C = 2.0  # returns are in [-1, 1]
MCTS_CHUNK = 8  # simulations per determinization


class OpenSpielStrategy:
    needs_history = True

    def __init__(self, slug: str, budget: float, clock: Callable[[], float] = time.process_time):
        self.slug = slug
        self.deal = DEALS[slug]
        self.budget = budget
        self.clock = clock
        self.games: dict[int, pyspiel.Game] = {}
        self.last_simulations = 0

    def game(self, n: int) -> pyspiel.Game:
        if n not in self.games:
            self.games[n] = pyspiel.load_game(short_name(self.slug), {"players": n})
        return self.games[n]

    def choose(
        self, view: dict, legal: list[str], rng: random.Random, history: Sequence[dict] = ()
    ) -> str:
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        # A game played at one table size only may leave the size out of its views.
        n = int(view.get("n_players", self.deal.rules.min_players))
        root = EngineState.from_view(self.game(n), view, history, rng)
        action = self.deal.action_str(self.search(root, rng))
        # A bot's pick is an OpenSpiel id of a legal action; the check guards the mapping.
        if action not in legal:
            raise ValueError(f"{type(self).__name__} chose {action!r}, not a legal action")
        return action

    def search(self, root: EngineState, rng: random.Random) -> int:
        raise NotImplementedError


class TimedIsmctsBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS with a time budget instead of a simulation count (its
    ``run_search``, the count's loop made a clock's)."""

    def __init__(self, game, evaluator, budget, clock, rng: np.random.RandomState):
        super().__init__(
            game,
            evaluator,
            UCT_C,
            max_simulations=1,
            random_state=rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            # Others' nodes are keyed by their sampled cards: their legal sets may differ.
            allow_inconsistent_action_sets=True,
        )
        self.budget, self.clock = budget, clock
        self.simulations = 0
        # Samples drawn with the bot's own generator (the default sampler is not seeded).
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.rand))

    def run_search(self, state):
        self.reset()
        self._root_node = self.create_new_node(state)
        key = self.get_state_key(state)
        deadline = self.clock() + self.budget
        self.simulations = 0
        # The first simulation only expands the root: a choice needs a second.
        while self.simulations < 2 or self.clock() < deadline:
            sampled = self.sample_root_state(state)
            if self.get_state_key(sampled) != key:  # a sample from the same infostate
                raise RuntimeError("the root sampler left the information state")
            self.run_simulation(sampled)
            self.simulations += 1
        node = self.filter_illegals(self._root_node, state.legal_actions())
        return self.get_final_policy(state, node)


class IsmctsStrategy(OpenSpielStrategy):
    def search(self, root, rng):
        state_rng = np.random.RandomState(rng.getrandbits(31))
        evaluator = mcts.RandomRolloutEvaluator(1, state_rng)
        bot = TimedIsmctsBot(root.get_game(), evaluator, self.budget, self.clock, state_rng)
        action = bot.step(root)
        self.last_simulations = bot.simulations
        return int(action)


class DeterminizedMctsStrategy(OpenSpielStrategy):
    def search(self, root, rng):
        seed = rng.getrandbits(31)
        state_rng = np.random.RandomState(seed)
        game = root.get_game()
        bot = mcts.MCTSBot(
            game,
            UCT_C,
            MCTS_CHUNK,
            mcts.RandomRolloutEvaluator(1, state_rng),
            solve=False,  # a proof on one sample proves nothing about the real deal
            random_state=state_rng,
        )
        seat = root.current_player()
        visits: dict[int, int] = {}
        deadline = self.clock() + self.budget
        done = 0
        while not done or self.clock() < deadline:
            sample = root.resample_from_infostate(seat, state_rng.random_sample)
            for child in bot.mcts_search(sample).children:
                visits[child.action] = visits.get(child.action, 0) + child.explore_count
            done += MCTS_CHUNK
        self.last_simulations = done
        return max(sorted(visits), key=visits.__getitem__)


KINDS = {"openspiel_ismcts": IsmctsStrategy, "openspiel_mcts": DeterminizedMctsStrategy}


def make(kind: str, slug: str, budget: float, clock=time.process_time) -> OpenSpielStrategy:
    return KINDS[kind](slug, budget, clock)
