"""One of our engines as an OpenSpiel game (a Python game, as OpenSpiel's kuhn_poker.py).

The OpenSpiel state holds an engine state and plays on it through the engine's contract
(``setup``, ``to_act``, ``legal_ids``, ``apply``, ``view``, ``outcome``); the rules are
never restated here. What differs from the engine:

* Chance: the deals are chance nodes (``games.engines.deals``), the engine gets them as
  stacked options.
* Turns: OpenSpiel games here are sequential. Where the engine lets several seats act at
  once (everyone placing or passing cards together), the first seat the engine lists acts
  first; the others learn only what the engine tells them (that a card was placed), so
  the order leaks nothing.
* Utilities: the engine's utilities (1 first place, 0 last, shared places share) mapped to
  [-1, 1]. Not zero-sum: a shared place raises the sum.
* Information: a seat's strings come from the engine's ``view`` of that seat and the
  events the engine let it see (``games.engines.observations``), plus its own actions; never
  from the state itself. An observation string is the view alone; an information-state
  string adds the history (perfect recall). The public observer (no private information)
  gets the spectator's view and events. There are no tensors.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel

from games.engines import utilities, visible_to
from games.engines.deals import Deal

CHANCE, TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL


def short_name(slug: str) -> str:
    return f"catclub_{slug}"


def encode(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_type(deal: Deal, slug: str) -> pyspiel.GameType:
    rules = deal.rules
    return pyspiel.GameType(
        short_name=short_name(slug),
        long_name=f"catclub {rules.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": default_players(deal)},
    )


def default_players(deal: Deal) -> int:
    """The catalog's usual table (four) where the game allows it."""
    return min(max(4, deal.rules.min_players), deal.rules.max_players)


def game_class(deal: Deal, slug: str) -> type[pyspiel.Game]:
    """A ``pyspiel.Game`` subclass for one game (``register_game`` takes a class)."""
    kind = game_type(deal, slug)

    class EngineGame(pyspiel.Game):
        TYPE = kind

        def __init__(self, params=None):
            params = dict(params or {})
            n = int(params.get("players", default_players(deal)))
            deal.rules.check_players(n)
            info = pyspiel.GameInfo(
                num_distinct_actions=deal.n_actions,
                max_chance_outcomes=deal.max_chance_outcomes,
                num_players=n,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=deal.max_length(n),
            )
            super().__init__(kind, info, {"players": n})
            self.deal = deal

        def new_initial_state(self):
            return EngineState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return ViewObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    EngineGame.__name__ = EngineGame.__qualname__ = f"{slug.title().replace('_', '')}Game"
    return EngineGame


class EngineState(pyspiel.State):
    """A game in progress: the chance draws, then the engine state."""

    def __init__(self, game):
        super().__init__(game)
        self.deal: Deal = game.deal
        self.rules = self.deal.rules
        self.n = game.num_players()
        self.deals: list[list[int]] = []  # the completed deals' chance outcomes
        self.drawn: list[int] | None = []  # the deal being drawn (None: none is)
        self.engine = None  # the engine state, once the table is set up
        self.pending: tuple[int, int] | None = None  # an action waiting for its deal
        # A seat that acts before the others the engine lets act at once (a search's root
        # when the caller picked that seat), until it has acted.
        self.prefer: int | None = None
        # Per seat, then the public (index n): the events it has seen (what the engine's
        # ``determinize`` reads), and the same encoded with its own actions (the strings).
        self.events: list[list[dict]] = [[] for _ in range(self.n + 1)]
        self.seen: list[list[str]] = [[] for _ in range(self.n + 1)]

    def __deepcopy__(self, memo):
        # OpenSpiel clones a Python state with deepcopy: the engine's clone is faster.
        new = EngineState(self.get_game())
        new.deals = [list(d) for d in self.deals]
        new.drawn = None if self.drawn is None else list(self.drawn)
        new.engine = None if self.engine is None else self.rules.clone(self.engine)
        new.pending = self.pending
        new.prefer = self.prefer
        new.events = [list(e) for e in self.events]
        new.seen = [list(s) for s in self.seen]
        return new

    @classmethod
    def from_view(cls, game, view: dict, history, rng: random.Random) -> EngineState:
        """A state consistent with what ``view["seat"]`` knows (its view and the events it
        saw): the root of a search for a player that is given no state."""
        new = cls(game)
        new.drawn = None
        new.engine = new.rules.determinize(view, history, rng)
        new.prefer = view["seat"]
        new._know(view["seat"], list(history), [encode(ev) for ev in history])
        return new

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn from ``player_id``'s information set, by the engine's
        ``determinize`` (OpenSpiel's ISMCTS calls it at every simulation)."""
        if self.drawn is not None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        seat = player_id
        new = EngineState(self.get_game())
        new.drawn = None
        view = self.rules.view(self.engine, seat)
        new.engine = self.rules.determinize(view, self.events[seat], rng)
        new.deals = [list(d) for d in self.deals]
        new.prefer = self.prefer
        new._know(seat, list(self.events[seat]), list(self.seen[seat]))
        return new

    def _know(self, seat: int, events: list[dict], seen: list[str]) -> None:
        """Histories for a sampled state: ``seat``'s own; the others' private events are
        unknown, so they get the public ones (their views still show their sampled cards)."""
        public = [ev for ev in events if visible_to(ev, None)]
        public_seen = [encode(ev) for ev in public]
        self.events = [list(public) for _ in range(self.n + 1)]
        self.seen = [list(public_seen) for _ in range(self.n + 1)]
        self.events[seat], self.seen[seat] = events, seen

    # -- the OpenSpiel API --------------------------------------------------------------

    def current_player(self):
        if self.drawn is not None:
            return CHANCE
        acting = self.rules.to_act(self.engine)
        if self.prefer in acting:
            return self.prefer
        return acting[0] if acting else TERMINAL

    def _legal_actions(self, player):
        if self.drawn is not None or player != self.current_player():
            return []
        return self.deal.legal_ids(self.engine, player)

    def chance_outcomes(self):
        return self.deal.outcomes(self.n, self.drawn or [], self.engine is None)

    def _apply_action(self, action):
        if self.drawn is not None:
            self._draw(action)
        else:
            self._act(self.current_player(), action)

    def _action_to_string(self, player, action):
        if player == CHANCE:
            return self.deal.describe(self.n, self.drawn or [], self.engine is None, action)
        return self.deal.action_str(action)

    def is_terminal(self):
        return self.drawn is None and self.rules.outcome(self.engine) is not None

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.n
        return [2 * u - 1 for u in utilities(self.rules.outcome(self.engine).ranks)]

    def __str__(self):
        if self.engine is None:
            return f"dealing: {self.drawn}"
        return encode(self.rules.view(self.engine, None))

    # -- chance and play ----------------------------------------------------------------

    def _draw(self, outcome: int) -> None:
        drawn = self.drawn
        if drawn is None:
            raise ValueError("no deal is being drawn")
        drawn.append(outcome)
        if self.deal.outcomes(self.n, drawn, self.engine is None):
            return
        self.drawn = None
        self.deals.append(drawn)
        if self.engine is None:
            self.engine = self.rules.setup(self.n, 0, self.deal.options(self.n, self.deals))
        else:
            self.engine = self.deal.redeal(self.engine, drawn)
        if self.pending is not None:
            seat, action = self.pending
            self.pending = None
            self._record(self.rules.apply(self.engine, seat, self.deal.action_str(action)))

    def _act(self, seat: int, action: int) -> None:
        if seat == self.prefer:
            self.prefer = None
        self.seen[seat].append(f"I: {self.deal.action_str(action)}")
        before = self.rules.clone(self.engine)
        events = self.rules.apply(self.engine, seat, self.deal.action_str(action))
        if self.deal.dealt(before, self.engine):
            # The engine dealt from its own seed: undo, draw the deal, then play again.
            self.engine, self.pending, self.drawn = before, (seat, action), []
            return
        self._record(events)

    def _record(self, events: list[dict]) -> None:
        for ev in events:
            text = None
            for seat in range(self.n):
                if visible_to(ev, seat):
                    text = text or encode(ev)
                    self.events[seat].append(ev)
                    self.seen[seat].append(text)
            if visible_to(ev, None):
                self.events[self.n].append(ev)
                self.seen[self.n].append(text or encode(ev))

    # -- what a seat knows --------------------------------------------------------------

    def seat_string(self, seat: int | None, history: bool) -> str:
        """What ``seat`` (None: the public) knows: its view, and with ``history`` every
        event it saw and its own actions."""
        who = "public" if seat is None else f"seat {seat}"
        if self.engine is None:
            return f"{who}\ndealing"
        text = f"{who}\n{encode(self.rules.view(self.engine, seat))}"
        if history:
            seen = self.seen[self.n if seat is None else seat]
            text += "\n" + "\n".join(seen)
        return text


class ViewObserver:
    """OpenSpiel's observer interface over ``EngineState.seat_string`` (strings only)."""

    def __init__(self, iig_obs_type):
        self.history = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass  # no tensors

    def string_from(self, state, player):
        return state.seat_string(player if self.private else None, self.history)
