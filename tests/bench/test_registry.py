"""Issue 44: one entry point for every bench (``python -m bench <name>``), found without a
list to keep, and no import loop anywhere in ``bench``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import grimp

from bench import registry

ROOT = Path(__file__).resolve().parents[2]
BENCHES = {
    "abuse",
    "arena",
    "collusion",
    "engines",
    "pages",
    "pipeline",
    "review",
    "soak",
    "table",
    "taps",
    "tournament",
    "watchers",
}
# bench/ modules that are no bench: what the benches run or share.
HELPERS = {"harness", "registry", "fill", "tournament_pipeline", "watchers_readers"}
HELPERS |= {"watchers_server", "watchers_worker"}


def python_m_bench(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.setdefault("DJANGO_SECRET_KEY", "bench-registry-test-" + "x" * 40)
    return subprocess.run(
        [sys.executable, "-m", "bench", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_issue_44_bench_lists_every_bench():
    """``python -m bench`` (and ``--list``) prints each bench with its one-line summary;
    a module that defines ``main(argv)`` or a Django ``Command`` is one, the helpers not."""
    for args in ((), ("--list",)):
        run = python_m_bench(*args)
        assert run.returncode == 0, run.stderr
        listed = dict(re.findall(r"^  (\w+) +(\S.*)$", run.stdout, re.M))
        assert set(listed) == set(registry.benches()), run.stdout
        assert set(listed) >= BENCHES, run.stdout
        assert not HELPERS & set(listed), run.stdout
        assert all(summary.strip() for summary in listed.values()), run.stdout
    # Each module of bench/ is either a bench or a known helper: a new module is one or
    # the other on purpose.
    modules = {p.stem for p in (ROOT / "bench").glob("*.py") if not p.stem.startswith("_")}
    modules |= {p.parent.name for p in (ROOT / "bench").glob("*/__init__.py")}
    assert modules - HELPERS == set(registry.benches())


def test_issue_44_a_new_bench_is_its_module_alone(tmp_path):
    """A new bench (``bench/ladder.py`` with ``main(argv: list[str]) -> None``) is found
    with nothing else to list; a Django command is set up with Django, a main without."""
    module = tmp_path / "ladder.py"
    module.write_text(
        '"""Computer levels on the rating scale."""\n\n\n'
        "def main(argv: list[str]) -> None:\n    pass\n"
    )
    found = registry.read("ladder", module)
    assert found == registry.Bench(
        "ladder",
        "bench.ladder",
        "Computer levels on the rating scale.",
        django=False,
        command=False,
    )
    module.write_text('"""Doc."""\nSUMMARY = "what it measures"\n\n\nclass Command:\n    pass\n')
    assert registry.read("stack", module) == registry.Bench(
        "stack", "bench.stack", "what it measures", django=True, command=True
    )
    module.write_text("def main(pipe):\n    pass\n")  # a helper process's main: no bench
    assert registry.read("helper", module) is None


def test_issue_44_bench_entry_point_runs_a_bench_and_refuses_unknown_names():
    run = python_m_bench("review", "--help")
    assert run.returncode == 0 and "python -m bench review" in run.stdout, run.stderr
    run = python_m_bench("no_such_bench")
    assert run.returncode != 0 and "no bench 'no_such_bench'" in run.stderr


def test_issue_44_bench_listing_imports_no_django():
    """Listing the benches imports none of them, nor Django (the pure ones run without)."""
    code = (
        "import runpy, sys; sys.argv = ['bench']; runpy.run_module('bench', run_name='__main__');"
        " print('DJANGO' if 'django' in sys.modules else 'NO-DJANGO')"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.stdout.strip().endswith("NO-DJANGO"), run.stdout + run.stderr


def test_issue_44_bench_has_no_import_cycle():
    """No module of ``bench`` imports itself back through others (import-linter's
    acyclic_siblings contract holds this for siblings; this looks at every module)."""
    graph = grimp.build_graph("bench", include_external_packages=False)
    modules = sorted(graph.modules)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if state.get(imported) == 1:
                loop = [*path[path.index(imported) :], imported]
                raise AssertionError("import loop: " + " -> ".join(loop))
            if imported not in state:
                visit(imported)
        path.pop()
        state[module] = 2

    for module in modules:
        if module not in state:
            visit(module)
    # The harness is the bottom of bench: it imports no bench.
    for module in modules:
        if module.startswith("bench.harness"):
            imported = graph.find_modules_directly_imported_by(module)
            assert all(i.startswith("bench.harness") for i in imported), (module, imported)


def test_issue_44_ci_runs_every_bench_through_the_entry_point():
    """Each bench line of ``.ci/run`` is ``python -m bench <name>`` with a bench's name."""
    lines = [line for line in (ROOT / ".ci/run").read_text().splitlines() if "-m bench" in line]
    assert lines
    for line in lines:
        name = re.search(r"-m bench (\w+)", line)
        assert name and name[1] in registry.benches(), line
    # Every module named in the docs as ``python -m bench.X`` is gone: one way to start.
    for doc in (
        ROOT / "README.md",
        ROOT / "docs" / "architecture.md",
        ROOT / "docs" / "runbook.md",
    ):
        assert not re.search(r"python -m bench\.\w", doc.read_text()), doc


def test_issue_44_bench_summaries_are_literal():
    """The listing reads each bench's summary without importing it: a literal or the
    docstring's first line."""
    for bench in registry.benches().values():
        assert bench.summary and "python -m" not in bench.summary, bench
        source = (ROOT / "bench" / f"{bench.name}.py").exists()
        assert source or (ROOT / "bench" / bench.name / "__init__.py").exists()
