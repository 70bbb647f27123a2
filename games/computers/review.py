"""The post-game review (issue 27): each person's decisions judged from what they knew.

After a game, its log is replayed from the seed. At each decision of a person the seat's
information state is rebuilt as it was then (its view and its observation history: its own
cards and what it had seen, never another seat's hand) and the hard computer's search
(``SearchStrategy.estimate``: the same determinization, belief and playouts) estimates
the seat's expected final place after the move played and after each candidate it
considers. The loss is how much worse the move played is than the best move found.

Deterministic: each decision's search is seeded from (game seed, step, seat) and runs a
count of playouts, never a clock, so a game reviewed twice with the same budget gives the
same verdicts. Nothing here is Django: a caller gives the log and keeps the verdicts.

Grades. A loss is measured in utility (the engines' shared scale: 1 for first place, 0 for
last, linear between; ``base.utilities``), i.e. as a share of the way from last place to
first, so that one scale fits a table of 2 and one of 6; the page shows it in places
(utility times n - 1). The thresholds follow the usual chess ones on the chance of winning
(lichess: 10, 20 and 30 points of win percentage), which is what the utility is at a
table of two:

* ``inaccuracy``: a loss of at least 0.10 (0.3 places at a table of four);
* ``mistake``: at least 0.20 (0.6 places at four, about one place at six);
* ``blunder``: at least 0.30 (about a place at four: e.g. spending most of one's
  stake on a bad lot).

The estimates are noisy (a few hundred playouts): the best of several noisy means is
biased upwards, so a loss counts only when it is also ``SIGNIFICANCE`` standard errors of
the paired differences (the candidates are compared on the same samples and playout
seeds, which keeps those errors small). Below that the move is as good as the search
can tell.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.computers.search import SearchStrategy
from games.engines.base import JSON, Rules, as_json, observations

VERSION = 1  # bump when verdicts of the same game and budget would change

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
GRADES = ((0.30, BLUNDER), (0.20, MISTAKE), (0.10, INACCURACY))  # utility lost, worst first
SIGNIFICANCE = 2.0  # standard errors a loss must also exceed to be graded


@dataclass(frozen=True)
class Played:
    """One applied move of the log: who, what, and whether a person decided it (a
    computer's, a timeout's or an automatic move is replayed, not reviewed)."""

    seat: int
    action: str
    person: bool = True


@dataclass(frozen=True)
class Verdict:
    """One reviewed decision. ``step`` is the move's number in the log (1 = the first
    applied move, as the replay counts); places are expected final places (1 = first,
    lower is better), estimated from what the seat knew."""

    step: int
    seat: int
    phase: str
    played: str
    best: str
    place_played: float
    place_best: float
    loss: float  # in places (>= 0)
    loss_utility: float  # the same loss in utility, which the grade reads
    grade: str  # "", or one of INACCURACY, MISTAKE, BLUNDER
    playouts: int

    def to_json(self) -> JSON:
        return asdict(self)


def grade(loss_utility: float, stderr: float) -> str:
    """The grade of a loss (in utility) measured with a standard error."""
    if loss_utility <= SIGNIFICANCE * stderr:
        return ""
    return next((name for limit, name in GRADES if loss_utility >= limit - 1e-9), "")


def decision_rng(seed: int, step: int, seat: int) -> random.Random:
    """The search's generator for one decision: from the game, the step and the seat."""
    return random.Random(f"review:{seed}:{step}:{seat}")


def review_position(
    strategy: SearchStrategy,
    view: JSON,
    history: Sequence[JSON],
    legal: list[str],
    played: str,
    *,
    step: int,
    seed: int,
    playouts: int | None = None,
    n_players: int | None = None,
) -> Verdict | None:
    """The verdict on playing ``played`` from one information state: the seat's ``view``
    and observation ``history``, nothing else (so two deals the seat cannot tell apart get
    the same verdict). None for a decision with nothing to choose, or one the search
    cannot sample."""
    if len(legal) < 2:
        return None
    seat = view["seat"]
    rng = decision_rng(seed, step, seat)
    found = strategy.estimate(view, legal, rng, history, include=[played], playouts=playouts)
    if found is None or len(found.arms) < 2:
        return None
    best = found.best()
    gain, stderr = found.gap(best, played) if best != played else (0.0, 0.0)
    n = n_players or view["n_players"]
    loss_utility = max(gain, 0.0)
    return Verdict(
        step=step,
        seat=seat,
        phase=str(view.get("phase", "")),
        played=played,
        best=best,
        place_played=round(n - found.mean(played) * (n - 1), 3),
        place_best=round(n - found.mean(best) * (n - 1), 3),
        loss=round(loss_utility * (n - 1), 3),
        loss_utility=round(loss_utility, 4),
        grade=grade(loss_utility, stderr),
        playouts=len(found.results) * len(found.arms),
    )


def review_game(
    rules: Rules,
    strategy: SearchStrategy,
    n_players: int,
    seed: int,
    options: JSON | None,
    moves: Sequence[Played],
    *,
    scale: float = 1.0,
    max_playouts: int | None = None,
    apply: Callable[[Any, int], list[JSON]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Verdict]:
    """Replay a finished game's log and review every decision of a person.

    Each decision gets ``scale`` times the hard player's playouts, and the whole game at
    most ``max_playouts`` (shared evenly, so a long game costs what a short one does
    rather than more: a count, so the verdicts stay deterministic). ``apply(state, i)``
    applies the log's ``i``-th move (default: ``rules.apply``; the play layer passes its
    own for moderators' moves). ``progress(i)`` is told of each move reviewed."""
    state = rules.setup(n_players, seed, options)
    events: list[JSON] = []
    persons = sum(1 for m in moves if m.person)
    verdicts: list[Verdict] = []
    for i, move in enumerate(moves):
        if move.person and rules.outcome(state) is None:
            view = as_json(rules.view(state, move.seat))
            playouts = max(1, round(strategy.playouts(view) * scale))
            if max_playouts is not None and persons:
                playouts = max(1, min(playouts, max_playouts // persons))
            verdict = review_position(
                strategy,
                view,
                observations(events, move.seat),
                rules.legal_actions(state, move.seat),
                move.action,
                step=i + 1,
                seed=seed,
                playouts=playouts,
                n_players=n_players,
            )
            if verdict is not None:
                verdicts.append(verdict)
            if progress is not None:
                progress(i)
        if apply is None:
            events.extend(rules.apply(state, move.seat, move.action))
        else:
            events.extend(apply(state, i))
    return verdicts


def summary(verdicts: Sequence[Verdict | JSON], n_players: int) -> list[JSON]:
    """Per seat: decisions reviewed, the count of each grade, the phases of the mistakes
    and blunders, and the mean loss in places."""
    out: list[JSON] = [
        {
            "seat": s,
            "decisions": 0,
            INACCURACY: 0,
            MISTAKE: 0,
            BLUNDER: 0,
            "phases": {},
            "loss": 0.0,
        }
        for s in range(n_players)
    ]
    for v in verdicts:
        v = v if isinstance(v, dict) else v.to_json()
        line = out[v["seat"]]
        line["decisions"] += 1
        line["loss"] += v["loss"]
        if v["grade"]:
            line[v["grade"]] += 1
            if v["grade"] in (MISTAKE, BLUNDER) and v["phase"]:
                line["phases"][v["phase"]] = line["phases"].get(v["phase"], 0) + 1
    for line in out:
        line["loss"] = round(line["loss"] / line["decisions"], 3) if line["decisions"] else 0.0
    return out
