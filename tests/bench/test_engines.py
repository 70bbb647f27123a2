"""The engine benchmark's output is a contract: CI prints it and the issues quote it."""

import importlib.util
import random
import re

from bench import engines as bench
from games import catalog

SLUGS = catalog.slugs()

NUMBER = r"\d+(\.\d+)?"


def test_bench_prints_one_line_per_game_then_hearts_the_loop_and_the_fast_path(capsys):
    bench.main(["--seconds", "0.05", *catalog.slugs()])
    lines = capsys.readouterr().out.splitlines()
    for slug, line in zip(catalog.slugs(), lines, strict=False):
        assert re.fullmatch(rf"{slug} games/s={NUMBER} us/action={NUMBER} state_bytes=\d+", line), (
            line
        )
    rest = lines[len(catalog.slugs()) :]
    hearts = importlib.util.find_spec("pyspiel") is not None
    if hearts:
        for name in ("openspiel_hearts", "openspiel_hearts_per_decision"):
            assert re.fullmatch(rf"{name} us/action={NUMBER} ratio={NUMBER}", rest.pop(0))
    assert re.fullmatch(rf"python_loop us/action={NUMBER}", rest.pop(0))
    # The search's fast path: every game with an integer action space, then Hearts.
    fast = [slug for slug in SLUGS if catalog.get(slug).rules.n_actions]
    assert {"felix", "smoking_cat", "cats_and_dogs"} <= set(fast)
    for slug in fast:
        line = rest.pop(0)
        assert re.fullmatch(rf"{slug} fast playouts/s={NUMBER} us/action={NUMBER}", line), line
        if catalog.get(slug).rules.fused_playout:
            line = rest.pop(0)
            assert re.fullmatch(rf"{slug} fused playouts/s={NUMBER} us/action={NUMBER}", line)
    if hearts:
        line = rest.pop(0)
        assert re.fullmatch(
            rf"openspiel_hearts fast playouts/s={NUMBER} us/action={NUMBER}"
            rf" us/decision={NUMBER}",
            line,
        ), line
        line = rest.pop(0)
        assert re.fullmatch(
            rf"smoking_cat/openspiel_hearts us/action_ratio={NUMBER}"
            rf" us/decision_ratio={NUMBER} playout_ratio={NUMBER}"
            rf" path=fused generic_action_ratio={NUMBER}",
            line,
        ), line
    assert rest == []


def test_the_loop_floor_plays_whole_games_of_the_null_engine():
    rules = bench.NullRules()
    result = bench.drive(rules, 4, 0.01)
    assert result["games_per_s"] > 0
    # The null engine's games have exactly LENGTH actions, so the per-action and per-game
    # figures must agree.
    per_game_us = 1e6 / result["games_per_s"]
    assert abs(per_game_us / rules.LENGTH - result["us_per_action"]) < 1e-6 * per_game_us
    assert result["state_bytes"] == len('{"n":100}')  # the largest dump seen


def test_issue_47_the_compared_pair_is_timed_in_turns():
    """Smoking Cat and Hearts take turns, the one with less time so far next, so both
    are measured in the same moments of a shared machine."""
    order = []

    def playouts(name, seconds, actions, decisions):
        while True:
            order.append(name)
            yield seconds, actions, decisions

    ours, theirs = bench.paired(
        playouts("ours", 0.25, 10, 10), playouts("hearts", 0.125, 6, 3), 1.0
    )
    assert order == ["ours", "hearts", "hearts"] * 4  # 1 s each
    assert ours["us_per_action"] == 0.25 / 10 * 1e6
    assert theirs["us_per_action"] == 0.125 / 6 * 1e6
    assert theirs["us_per_decision"] == 0.125 / 3 * 1e6
    assert theirs["playouts_per_s"] == 8


def test_issue_47_three_sources_take_turns_by_the_time_they_have_had():
    order = []

    def playouts(name, seconds):
        while True:
            order.append(name)
            yield seconds, 10, 10

    rates = bench.in_turns([playouts("a", 0.5), playouts("b", 0.25), playouts("c", 1.0)], 1.0)
    assert order == ["a", "b", "c", "b", "a", "b", "b"]
    assert [r["playouts_per_s"] for r in rates] == [2, 4, 1]


def test_issue_47_fused_playouts_report_the_actions_of_the_rules_playout():
    """Each fused playout is the rules' ``playout`` from a fresh set-up, reporting the
    actions it applied (the engine's tests check that count against the generic loop)."""
    rules = catalog.get("smoking_cat").rules
    playouts = bench.fused_playouts(rules, 4, seed=7)
    rng = random.Random(7)
    for _ in range(5):
        _, count, decisions = next(playouts)
        state = rules.setup(4, rng.randrange(2**31))
        assert count == decisions == rules.playout(state, rng) > 0
        assert rules.outcome(state) is not None
