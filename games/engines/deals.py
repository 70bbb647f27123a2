"""A game's chance events as steps drawn one at a time, and its integer actions.

Our engines shuffle from a seed inside ``setup`` (some also at every new deal), so the
randomness never shows as a step of its own. Tools that search or solve games, OpenSpiel
first (``games.openspiel``), want it as chance nodes with explicit outcome probabilities.
A whole shuffle is far too many outcomes to enumerate (32! orders of a 32-card deck), so a
deal is drawn **one card at a time**: each chance node picks the next card among those
left, with probability proportional to how many of it are left. Identical cards are one
outcome with their count as weight, so a node has at most a few dozen outcomes. Drawing
without replacement card by card gives every order of the deck exactly the probability of
a uniform shuffle, so the chance model is the engines' own distribution.

The finished draws become the engine's stacked-table options (``hands``, ``decks``,
``piles``, ``layout``...) and the engine sets the table up from them, seed unused: the
engine stays the only place where the rules live.

A game that offers this declares its ``Deal`` as ``DEAL`` in its package's ``openspiel``
module (``games.kinds``); the catalog finds it there. A ``Deal`` knows nothing of
OpenSpiel (so it is tested and read without it): it lists the outcomes of the next draw,
turns complete draws into options, and bounds a game's length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .base import JSON, Rules

Outcomes = list[tuple[int, float]]


def uniform(k: int) -> Outcomes:
    return [(i, 1.0 / k) for i in range(k)]


def draw(counts: Sequence[int], drawn: Sequence[int]) -> Outcomes:
    """The next card from a deck holding ``counts[k]`` cards of kind k, after ``drawn``."""
    left = list(counts)
    for kind in drawn:
        left[kind] -= 1
    total = sum(left)
    return [(kind, count / total) for kind, count in enumerate(left) if count]


def kinds(cards: Sequence[str]) -> tuple[list[str], list[int]]:
    """A deck's distinct cards (in first-seen order) and how many of each it holds."""
    counts = Counter(cards)
    names = list(counts)
    return names, [counts[name] for name in names]


class Deal:
    """One game's chance model and action space (see the module docstring)."""

    rules: Rules  # each game's deal names its engine's
    max_chance_outcomes = 0
    # Engines without an integer action space list their actions here (ids are indices).
    actions: tuple[str, ...] = ()

    @property
    def n_actions(self) -> int:
        return self.rules.n_actions or len(self.actions)

    def legal_ids(self, state: Any, seat: int) -> list[int]:
        if self.rules.n_actions:
            return sorted(self.rules.legal_ids(state, seat))
        return sorted(self.actions.index(a) for a in self.rules.legal_actions(state, seat))

    def action_str(self, action: int) -> str:
        return self.rules.action_str(action) if self.rules.n_actions else self.actions[action]

    def outcomes(self, n: int, drawn: Sequence[int], setup: bool) -> Outcomes:
        """The next chance node's outcomes, or [] once ``drawn`` is a complete deal;
        ``setup``: the deal that sets the table up (else a later one, dealt during play)."""
        raise NotImplementedError

    def options(self, n: int, deals: Sequence[Sequence[int]]) -> JSON:
        """The engine's set-up options that stack the table as ``deals`` drew it."""
        raise NotImplementedError

    def dealt(self, before: Any, after: Any) -> bool:
        """Whether an action just made the engine deal again from its own seed (the
        OpenSpiel state then undoes it and deals with chance nodes instead)."""
        return False

    def redeal(self, state: Any, deal: Sequence[int]) -> Any:
        """``state`` (just before the action that deals) with ``deal`` stacked for it."""
        raise NotImplementedError

    def describe(self, n: int, drawn: Sequence[int], setup: bool, outcome: int) -> str:
        return f"chance:{outcome}"

    def max_length(self, n: int) -> int:
        """A bound on the number of actions of a game, chance nodes included."""
        raise NotImplementedError
