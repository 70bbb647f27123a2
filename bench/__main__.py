"""``python -m bench <name> [options]``: runs one bench; ``python -m bench`` (or ``--list``)
lists them all with what each measures. ``python -m bench <name> --help``: its options.

The benches are found by ``bench.registry`` (a module with ``main(argv)`` or a Django
``Command``). Django is set up here for the benches that need it, before their module is
imported; the pure ones run without it."""

from __future__ import annotations

import importlib
import sys

from bench import registry


def listing(benches: dict[str, registry.Bench]) -> str:
    width = max(map(len, benches), default=0)
    lines = ["usage: python -m bench <name> [options]   (<name> --help: its options)", ""]
    lines += [f"  {b.name:<{width}}  {b.summary}" for b in benches.values()]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    benches = registry.benches()
    if not argv or argv[0] in ("--list", "-l", "--help", "-h"):
        print(listing(benches))
        return
    name, rest = argv[0], argv[1:]
    if name not in benches:
        sys.exit(f"python -m bench: no bench {name!r}\n\n{listing(benches)}")
    bench = benches[name]
    if bench.django:
        from bench.harness import project

        project.setup()
    module = importlib.import_module(bench.module)
    if bench.command:
        module.Command().run_from_argv(["python -m bench", name, *rest])
    else:
        module.main(rest)


if __name__ == "__main__":
    main(sys.argv[1:])
