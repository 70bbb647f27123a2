"""Every bench, found without importing one: a module ``bench/<name>.py`` (or a package
``bench/<name>/``) is a bench when it defines, at its top level, ``main(argv)`` or a Django
``Command`` (defined there or imported into it). Its summary is its ``SUMMARY``, else its
docstring's first line.

A bench with a ``Command`` needs Django, as does one that says ``DJANGO = True``;
``python -m bench`` sets Django up before importing those, and never for the others.

Adding a bench is adding its module: nothing to list here. The harness and the benches'
helper modules (workers, servers, fillers) define neither, so they are not listed.
"""

from __future__ import annotations

import ast
import pkgutil
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOT_BENCHES = {"harness", "registry", "__main__"}


@dataclass(frozen=True)
class Bench:
    name: str
    module: str  # what to import
    summary: str
    django: bool  # needs Django set up before its module is imported
    command: bool  # a Django management Command (else ``main(argv)``)


def _source(name: str, is_package: bool) -> Path:
    return HERE / name / "__init__.py" if is_package else HERE / f"{name}.py"


def _literal(node: ast.Assign, name: str):
    if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
        try:
            return ast.literal_eval(node.value)
        except ValueError:
            return None
    return None


def read(name: str, path: Path) -> Bench | None:
    """The bench in ``path``, or None when the module is not a bench."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    main = command = django = False
    summary = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            args = node.args.posonlyargs + node.args.args
            main = bool(args) and args[0].arg == "argv"
        elif isinstance(node, ast.ClassDef) and node.name == "Command":
            command = True
        elif isinstance(node, ast.ImportFrom):
            bound = {a.asname or a.name for a in node.names}
            command = command or "Command" in bound
            main = main or "main" in bound
        elif isinstance(node, ast.Assign):
            django = django or _literal(node, "DJANGO") is True
            summary = _literal(node, "SUMMARY") or summary
    if not (main or command):
        return None
    doc = (ast.get_docstring(tree) or "").strip()
    summary = summary or (doc.splitlines()[0] if doc else "")
    return Bench(name, f"bench.{name}", summary, django or command, command and not main)


def benches() -> dict[str, Bench]:
    """Every bench by name, in name order."""
    found = {}
    for info in pkgutil.iter_modules([str(HERE)]):
        if info.name in NOT_BENCHES or info.name.startswith("_"):
            continue
        bench = read(info.name, _source(info.name, info.ispkg))
        if bench is not None:
            found[info.name] = bench
    return dict(sorted(found.items()))
