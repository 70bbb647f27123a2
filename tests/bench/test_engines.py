"""The engine benchmark's output is a contract: CI prints it and the issues quote it."""

import importlib.util
import re

from bench import engines as bench
from games import catalog

SLUGS = catalog.slugs()

NUMBER = r"\d+(\.\d+)?"


def test_bench_prints_one_line_per_game_then_hearts_and_the_loop(capsys):
    bench.main(["--seconds", "0.05", *catalog.slugs()])
    lines = capsys.readouterr().out.splitlines()
    for slug, line in zip(catalog.slugs(), lines, strict=False):
        assert re.fullmatch(rf"{slug} games/s={NUMBER} us/action={NUMBER} state_bytes=\d+", line), (
            line
        )
    rest = lines[len(catalog.slugs()) :]
    if importlib.util.find_spec("pyspiel") is not None:
        for name in ("openspiel_hearts", "openspiel_hearts_per_decision"):
            assert re.fullmatch(rf"{name} us/action={NUMBER} ratio={NUMBER}", rest.pop(0))
    assert len(rest) == 1 and re.fullmatch(rf"python_loop us/action={NUMBER}", rest[0])


def test_the_loop_floor_plays_whole_games_of_the_null_engine():
    rules = bench.NullRules()
    result = bench.drive(rules, 4, 0.01)
    assert result["games_per_s"] > 0
    # The null engine's games have exactly LENGTH actions, so the per-action and per-game
    # figures must agree.
    per_game_us = 1e6 / result["games_per_s"]
    assert abs(per_game_us / rules.LENGTH - result["us_per_action"]) < 1e-6 * per_game_us
    assert result["state_bytes"] == len('{"n":100}')  # the largest dump seen
