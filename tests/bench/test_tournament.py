"""The tournament bench (issue 26, part 5): its lines are a contract the issue quotes. The
pure simulation is run here; the run through the real pipeline is CI's
(``python -m bench tournament --short`` in ``.ci/run``), and here only refuses a database
that is not PostgreSQL with Redis, saying so."""

import os
import re
import subprocess
import sys
from pathlib import Path

from bench import tournament

NUMBER = r"\d+(?:\.\d+)?"
SWISS = (
    rf"tournament swiss players=\d+ rounds=\d+ pairing_ms_max={NUMBER}"
    rf" repeats=(?P<repeats>\d+) total_s={NUMBER}"
)
ARENA = (
    rf"tournament arena players=\d+ minutes=\d+ games=(?P<games>\d+) reseat_p50_ms={NUMBER}"
    rf" reseat_p95_ms={NUMBER} compute_p95_ms={NUMBER}"
)


def check(lines):
    swiss, arena = lines
    m = re.fullmatch(SWISS, swiss)
    assert m, swiss
    assert m["repeats"] == "0", "issue 26: no repeat opponents"
    m = re.fullmatch(ARENA, arena)
    assert m, arena
    assert int(m["games"]) > 0  # games were played


def test_short_run_prints_one_line_per_tournament(capsys):
    lines = tournament.main(["--short", "--pure"])
    assert capsys.readouterr().out.splitlines() == lines
    check(lines)
    assert lines[0].startswith("tournament swiss players=32 rounds=3 ")
    assert lines[1].startswith("tournament arena players=16 minutes=20 ")


def test_the_arena_simulation_is_repeatable_from_its_seed():
    first, second = tournament.arena(16, 20, seed=3), tournament.arena(16, 20, seed=3)
    assert first["games"] == second["games"]
    swiss = tournament.swiss(32, 3, seed=3)
    assert swiss["repeats"] == 0 and swiss["pairing_ms_max"] < 1000


def test_python_m_bench_tournament_dispatches_without_a_database():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-m", "bench", "tournament", "--short", "--pure"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    check(out.splitlines())


def test_the_pipeline_run_needs_postgresql_and_redis_and_says_so():
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SECRET_KEY"] = "bench-test-only-not-a-secret-" * 3
    env["DATABASE_URL"] = "sqlite:///" + str(root / "nothing-here.sqlite3")
    done = subprocess.run(
        [sys.executable, "-m", "bench", "tournament", "--short"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "needs DATABASE_URL (PostgreSQL) and REDIS_URL" in done.stderr
    assert not (root / "nothing-here.sqlite3").exists()  # refused before touching it
