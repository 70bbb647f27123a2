"""A search player: determinized Monte Carlo search with a time budget.

Each round samples a full state consistent with what the seat has seen (the engine's
``determinize`` from the view and the observation history, so the search never reads
hidden information), tries every candidate action in it and plays the game on with a
cheap playout policy on the engine's integer fast path, the same playout seed for every
candidate. The candidate with the best mean utility over all rounds wins. A flat search
over the information set: one decision, averaged over samples, which avoids the strategy
fusion of a tree per sample (a tree would let the seat's later moves "know" the sample).

Time and determinism: the search stops after ``iterations`` playouts (whole rounds, at
least one; the count may be given per table size) or when ``budget`` seconds have
passed, whichever comes first, and never later than ``HARD_LIMIT`` (a round cut short
by the clock is dropped, so a worker is held at most one playout past it). Every level
ships with a playout count sized so that its p95 decision takes about half the clock cap
on one free core (issue 47), and the cap (``DEFAULT_BUDGET``) only as a safety: the count,
not the clock, ends the decision, so the choice depends only on the rng's seed (the game
processor seeds it from the game and its version, so a rerun, a replay or a review picks
the same move), and a machine with cores twice as slow loses
strength (``last_capped`` says when the clock ended a decision). The clock is the
searching thread's CPU time: a busy machine delays a decision, it never changes it. With
``iterations`` None the search is purely time-budgeted: that is what the arena measures
strength against ("50 ms per decision").
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.engines.base import JSON, Rules

if TYPE_CHECKING:  # the package imports its strategies' modules by name, never this one
    from games.computers import Strategy

HARD_LIMIT = 0.9  # seconds: the limit is 1 s (p95) per decision on one core
# The product's cap per decision: a safety, twice the p95 of every level's playout count.
DEFAULT_BUDGET = HARD_LIMIT

# rollout(rules, state, seat, rng) -> the seat's utility in [0, 1] of playing on from state
# (Any rules: a game's own rollout takes its own subclass of ``Rules``)
Rollout = Callable[[Any, Any, int, random.Random], float]
# candidates(view, legal) -> the subset of legal actions worth searching (all by default)
Candidates = Callable[[JSON, list[str]], list[str]]
# belief(state, view, rng): reshape a sampled state in place by a model of how the others
# play (which of the cards they might hold they likely chose), without reading more than
# the sample and the view. None: every consistent state is as likely as the next.
Belief = Callable[[Any, JSON, random.Random], None]


def random_rollout(rules: Rules, state: Any, seat: int, rng: random.Random) -> float:
    """Uniformly random legal actions to the end of the game: the rules' ``playout`` (a
    game's fused loop where it has one, whose future deals come from ``rng``)."""
    rules.playout(state, rng)
    return rules.utilities(state)[seat]


@dataclass(frozen=True)
class Estimate:
    """The paired trials of one decision (``SearchStrategy.estimate``): ``results[r][i]``
    is the seat's utility after candidate ``arms[i]`` in round ``r`` (every candidate of a
    round played on the same sampled state with the same playout seed)."""

    arms: list[str]
    results: list[list[float]]

    def mean(self, arm: str) -> float:
        i = self.arms.index(arm)
        return sum(row[i] for row in self.results) / len(self.results)

    def best(self) -> str:
        """The candidate with the best mean; ties go to the first in legal order."""
        totals = [sum(row[i] for row in self.results) for i in range(len(self.arms))]
        return self.arms[max(range(len(self.arms)), key=lambda i: (totals[i], -i))]

    def gap(self, better: str, worse: str) -> tuple[float, float]:
        """The mean paired difference ``better`` - ``worse`` and its standard error."""
        i, j = self.arms.index(better), self.arms.index(worse)
        diffs = [row[i] - row[j] for row in self.results]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        return mean, math.sqrt(var / n)


class SearchStrategy:
    """A computer player that thinks (the "hard" level)."""

    needs_history = True

    def __init__(
        self,
        rules: Rules,
        *,
        budget: float = DEFAULT_BUDGET,
        iterations: int | dict[int, int] | None = None,
        rollout: Rollout = random_rollout,
        candidates: Candidates | None = None,
        belief: Belief | None = None,
        fallback: Strategy | None = None,
        trust: float | None = None,
        clock: Callable[[], float] = time.thread_time,
    ):
        self.rules = rules
        self.budget = budget
        self.iterations = iterations
        self.rollout = rollout
        self.candidates = candidates
        self.belief = belief
        # Plays when the history cannot explain the view (a caller that gathered none).
        self.fallback = fallback
        # With ``trust`` set, the fallback's own move stands unless another candidate beats
        # it by ``trust`` standard errors of the paired differences: the search refines a
        # heuristic instead of replacing it where its playouts are a rough model.
        self.trust = trust
        # The product's clock is the CPU time of the searching thread (issue 47): the cap
        # is a safety against a count too big for the machine, not a deadline, so a busy
        # machine (the search runs niced, beside the site) delays a decision but never
        # changes it. On the wall clock a loaded 2-core machine cut decisions at the cap
        # and the same seed played other moves. The arena passes the process's CPU clock,
        # so that "50 ms per decision" means 50 ms of one core however busy the machine is.
        self.clock = clock
        self.last_iterations = 0  # how many the last decision ran (for the arena)
        self.last_capped = False  # whether the clock, not the count, ended the last one

    def playouts(self, view: JSON) -> float:
        """The playouts one decision may run: ``iterations`` is a count, or a count per
        table size (keyed by the view's ``n_players``), or None for no count (the clock
        alone stops the search)."""
        if self.iterations is None:
            return math.inf
        if isinstance(self.iterations, dict):
            return self.iterations[view["n_players"]]
        return self.iterations

    def with_budget(
        self,
        budget: float,
        iterations: int | dict[int, int] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> SearchStrategy:
        """The same player with another budget (and, if given, another clock)."""
        return SearchStrategy(
            self.rules,
            budget=budget,
            iterations=iterations,
            rollout=self.rollout,
            candidates=self.candidates,
            belief=self.belief,
            fallback=self.fallback,
            trust=self.trust,
            clock=clock or self.clock,
        )

    def choose(
        self, view: JSON, legal: list[str], rng: random.Random, history: Sequence[JSON] = ()
    ) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        arms = self.candidates(view, legal) if self.candidates else legal
        self.last_capped = False
        if len(arms) == 1:
            self.last_iterations = 0
            return arms[0]
        rules, seat, rollout = self.rules, view["seat"], self.rollout
        ids = [rules.action_id(a) for a in arms]
        try:
            sample = rules.sampler(view, history)
        except ValueError:  # an incomplete history: no consistent state to sample
            self.last_iterations = 0
            return self.fallback.choose(view, legal, rng) if self.fallback else arms[0]
        clone, apply_id = rules.clone, rules.apply_id
        belief = self.belief
        k = len(ids)
        totals = [0.0] * k
        prior = None
        if self.trust is not None and self.fallback is not None:
            pick = self.fallback.choose(view, legal, random.Random(0))
            prior = arms.index(pick) if pick in arms else None
        squares = [0.0] * k  # sums of squared differences to the prior's playout
        limit = self.playouts(view)
        now = self.clock
        deadline = now() + min(self.budget, HARD_LIMIT)
        done = rounds = 0
        # Rounds of paired trials: every candidate is tried on the same sampled state with
        # the same playout seed (common random numbers), so the luck of the deal cancels
        # out of the comparison instead of drowning it.
        while done + k <= max(limit, k) and now() < deadline:
            base = sample(rng)
            if belief is not None:
                belief(base, view, rng)
            seed = rng.getrandbits(32)
            results = []
            for arm in range(k):
                if arm and now() >= deadline:
                    break  # a round cut short would compare unequal samples: dropped
                state = clone(base) if arm < k - 1 else base
                apply_id(state, seat, ids[arm])
                results.append(rollout(rules, state, seat, random.Random(seed)))
            if len(results) < k:
                break
            for arm, value in enumerate(results):
                totals[arm] += value
                if prior is not None:
                    squares[arm] += (value - results[prior]) ** 2
            done += k
            rounds += 1
        self.last_iterations = done
        # The count not reached: the clock ended the decision (a cut round included).
        self.last_capped = done + k <= max(limit, k)
        if not rounds:
            return arms[0]
        # Ties (all equal, e.g. a lost cause) go to the first candidate in legal order.
        best = max(range(k), key=lambda i: (totals[i], -i))
        if prior is not None and self.trust is not None and best != prior:
            gain = (totals[best] - totals[prior]) / rounds
            spread = math.sqrt(max(squares[best] / rounds - gain * gain, 0.0) / rounds)
            if gain <= self.trust * spread:
                return arms[prior]
        return arms[best]

    def estimate(
        self,
        view: JSON,
        legal: list[str],
        rng: random.Random,
        history: Sequence[JSON] = (),
        *,
        include: Sequence[str] = (),
        playouts: int | None = None,
    ) -> Estimate | None:
        """The search's trials of one decision, with no clock: the same candidates (plus
        ``include``, e.g. the move a person played), the same sampled states and belief and
        the same playouts as ``choose``, for ``playouts`` playouts (default: the hard
        player's count) in whole rounds, at least one. It depends only on its arguments
        and the rng's seed (the post-game review, issue 27). None when the history cannot
        explain the view."""
        arms = list(self.candidates(view, legal) if self.candidates else legal)
        arms += [a for a in include if a in legal and a not in arms]
        arms.sort(key=legal.index)
        rules, seat, rollout = self.rules, view["seat"], self.rollout
        try:
            sample = rules.sampler(view, history)
        except ValueError:
            return None
        ids = [rules.action_id(a) for a in arms]
        limit = self.playouts(view) if playouts is None else playouts
        k = len(ids)
        rounds = max(1, int(limit) // k) if limit != math.inf else 1
        clone, apply_id, belief = rules.clone, rules.apply_id, self.belief
        results = []
        for _ in range(rounds):
            base = sample(rng)
            if belief is not None:
                belief(base, view, rng)
            seed = rng.getrandbits(32)
            row = []
            for arm in range(k):
                state = clone(base) if arm < k - 1 else base
                apply_id(state, seat, ids[arm])
                row.append(rollout(rules, state, seat, random.Random(seed)))
            results.append(row)
        return Estimate(arms, results)
