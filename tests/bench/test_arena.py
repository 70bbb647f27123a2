"""The arena's statistics and its fast mode (the full runs are for people, not CI)."""

import re

import pytest

from bench import arena

NUMBER = r"\d+(\.\d+)?"


def test_wilson_interval_known_values():
    lo, hi = arena.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = arena.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_percentile_is_nearest_rank():
    values = [float(i) for i in range(1, 101)]
    assert arena.percentile(values, 50) == 50.0
    assert arena.percentile(values, 95) == 95.0
    assert arena.percentile([], 95) == 0.0


def test_fast_mode_prints_a_table_and_decision_times_per_kind(capsys):
    tables = arena.main(["--fast", "felix", "--players", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(
        rf"felix players=3 hard@0.005 vs normal games=2 win={NUMBER}% ci95={NUMBER}%-{NUMBER}%"
        rf" fair=33.3% ratio={NUMBER} rank={NUMBER}/{NUMBER} points=-?{NUMBER}/-?{NUMBER}",
        lines[0],
    ), lines[0]
    kinds = set()
    for line in lines[1:]:
        m = re.fullmatch(
            rf"felix players=3 time (\S+) decisions=\d+ p50_ms={NUMBER} p95_ms={NUMBER}"
            rf" max_ms={NUMBER}",
            line,
        )
        assert m, line
        kinds.add(m.group(1))
    assert kinds == {"hard@0.005", "normal"}
    (table,) = tables
    assert table["games"] == 2 and 0 <= table["win"] <= 1


def test_shared_first_places_split_the_win():
    assert arena.win_credit([1, 1, 3], 0) == 0.5
    assert arena.win_credit([1, 1, 3], 2) == 0.0
    assert arena.win_credit([2, 1, 3], 1) == 1.0
    assert sum(arena.win_credit([1, 1, 1, 4], s) for s in range(4)) == pytest.approx(1.0)


def test_budgets_are_counted_in_cpu_time_not_wall_time(monkeypatch):
    """A budget of 50 ms means 50 ms of one core: time spent waiting for the CPU (another
    process running) does not shorten the search. A player whose wall clock jumps ahead by
    a second at every look still thinks for its whole (CPU) budget."""
    import itertools
    import random
    import time

    from games import catalog

    # A budget that holds several rounds on a slow machine too (20 ms once held a single
    # round of nine playouts): the assertion is about which clock, not how fast.
    player = arena.make_player("felix", "hard@0.2")
    assert player.clock is time.process_time and player.iterations is None
    shipped = arena.make_player("felix", "hard")
    assert shipped.clock is time.process_time and shipped.iterations
    wall = itertools.count(step=1.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(wall))
    rules = catalog.get("felix").rules
    state = rules.setup(3, 7)
    seat = rules.to_act(state)[0]
    view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
    player.choose(view, legal, random.Random(1), [])
    assert player.last_iterations > len(legal)  # more than one round in the budget
