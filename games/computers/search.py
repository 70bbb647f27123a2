"""A search player: determinized Monte Carlo search with a time budget.

Each iteration samples a full state consistent with what the seat has seen (the engine's
``determinize`` from the view and the observation history, so the search never reads
hidden information), tries one of the seat's candidate actions in it (UCB1 over the
candidates, shared by all samples: a flat search over the information set, which avoids
the strategy fusion of a tree per sample) and plays the game on with a cheap playout
policy on the engine's integer fast path. The action with the best mean utility wins.

Time and determinism: the search stops after ``iterations`` iterations or when
``budget`` seconds have passed, whichever comes first, and never later than
``HARD_LIMIT`` (one iteration is a few milliseconds at most, so a worker is never held
much past it). With ``iterations`` set and met within the budget, the choice depends only
on the rng's seed; with ``iterations`` None the search is purely time-budgeted, which
is what the arena measures strength against ("50 ms per decision"), at the price of
depending on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

HARD_LIMIT = 0.9  # seconds: the limit is 1 s (p95) per decision on one core
DEFAULT_BUDGET = 0.5

# rollout(rules, state, seat, rng) -> the seat's utility in [0, 1] of playing on from state
Rollout = Callable[[object, object, int, random.Random], float]
# candidates(view, legal) -> the subset of legal actions worth searching (all by default)
Candidates = Callable[[dict, list[str]], list[str]]


def random_rollout(rules, state, seat: int, rng: random.Random) -> float:
    """Uniformly random legal actions to the end of the game."""
    to_act, legal_ids, apply_id, choice = rules.to_act, rules.legal_ids, rules.apply_id, rng.choice
    while acting := to_act(state):
        s = acting[0] if len(acting) == 1 else choice(acting)
        apply_id(state, s, choice(legal_ids(state, s)))
    return rules.utilities(state)[seat]


class SearchStrategy:
    """A computer player that thinks (the "hard" level)."""

    needs_history = True

    def __init__(
        self,
        rules,
        *,
        budget: float = DEFAULT_BUDGET,
        iterations: int | None = None,
        rollout: Rollout = random_rollout,
        candidates: Candidates | None = None,
        exploration: float = 0.5,
    ):
        self.rules = rules
        self.budget = budget
        self.iterations = iterations
        self.rollout = rollout
        self.candidates = candidates
        self.exploration = exploration
        self.last_iterations = 0  # how many the last decision ran (for the arena)

    def with_budget(self, budget: float, iterations: int | None = None) -> SearchStrategy:
        """The same player with another budget."""
        return SearchStrategy(
            self.rules,
            budget=budget,
            iterations=iterations,
            rollout=self.rollout,
            candidates=self.candidates,
            exploration=self.exploration,
        )

    def choose(
        self, view: dict, legal: list[str], rng: random.Random, history: Sequence[dict] = ()
    ) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        arms = self.candidates(view, legal) if self.candidates else legal
        if len(arms) == 1:
            self.last_iterations = 0
            return arms[0]
        rules, seat, rollout = self.rules, view["seat"], self.rollout
        ids = [rules.action_id(a) for a in arms]
        sample = rules.sampler(view, history)
        k = len(ids)
        visits = [0] * k
        totals = [0.0] * k
        c = self.exploration
        limit = self.iterations if self.iterations is not None else math.inf
        deadline = time.perf_counter() + min(self.budget, HARD_LIMIT)
        done = 0
        while done < limit and time.perf_counter() < deadline:
            if done < k:
                arm = done  # each candidate once, in the legal order
            else:
                log_n = math.log(done)
                arm = max(
                    range(k),
                    key=lambda i: totals[i] / visits[i] + c * math.sqrt(log_n / visits[i]),
                )
            state = sample(rng)
            rules.apply_id(state, seat, ids[arm])
            totals[arm] += rollout(rules, state, seat, rng)
            visits[arm] += 1
            done += 1
        self.last_iterations = done
        # The most visited arm is UCB's most trusted; mean utility breaks ties.
        best = max(range(k), key=lambda i: (visits[i], totals[i] / visits[i] if visits[i] else 0))
        return arms[best]
