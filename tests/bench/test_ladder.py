"""``python -m bench ladder`` (issue 47): new pairings appended to the data with their
seeds and command, runs that add up, and one line per level from the refit."""

from __future__ import annotations

import json
import re

import pytest

from bench import ladder as bench
from games.computers import ladder

LINE = re.compile(
    r"^ladder felix players=3 level=(\d) rating=(\d+|-) ci95=(-?\d+--?\d+|-)"
    r" beats_below=(\d+\.\d%|-) name=\w+ games=\d+$"
)


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setattr(ladder, "PAIRINGS", tmp_path / "pairings.jsonl")
    monkeypatch.setattr(ladder, "RATINGS", tmp_path / "ratings.json")
    return tmp_path


def test_issue_47_bench_ladder_appends_pairings_that_add_up_and_prints_each_level(data, capsys):
    argv = ["felix", "--players", "3", "--levels", "easy", "normal", "--games", "3"]
    bench.main(argv)
    bench.main(argv)
    records = [json.loads(line) for line in (data / "pairings.jsonl").read_text().splitlines()]
    assert [(r["hero"], r["opponent"], r["first"], r["games"]) for r in records] == [
        ("easy", "beginner", 0, 3),
        ("normal", "easy", 0, 3),
        ("easy", "beginner", 3, 3),  # the second run's seeds follow the first's
        ("normal", "easy", 3, 3),
    ]
    assert records[2]["seeds"] == [10_003, 10_005]
    assert records[0]["command"] == "python -m bench ladder " + " ".join(argv)
    assert all(0 <= r["wins"] <= r["games"] for r in records)
    out = capsys.readouterr().out.splitlines()
    levels = [line for line in out if LINE.match(line)]
    assert [LINE.match(line).group(1) for line in levels[-5:]] == ["1", "2", "3", "4", "5"]
    normal = next(line for line in levels[-5:] if "name=normal" in line)
    assert "rating=1500 ci95=1500-1500" in normal
    fitted = json.loads((data / "ratings.json").read_text())
    assert fitted["felix"]["3"]["normal"] == [1500, 1500, 1500]
    assert set(fitted["felix"]["3"]) == {"beginner", "easy", "normal"}  # the rest unmeasured
    assert out[-1].startswith("ladder cpu_hours=") and "pairings=4 games=12" in out[-1]


def test_issue_47_bench_ladder_short_keeps_nothing(data, capsys):
    bench.main(["felix", "--short", "--levels", "easy"])
    assert not (data / "pairings.jsonl").exists() and not (data / "ratings.json").exists()
    assert "ladder felix players=4 pairing easy vs beginner games=1" in capsys.readouterr().out
