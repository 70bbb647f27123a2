"""``python -m bench pipeline|soak|taps|abuse|watchers|tournament|review|collusion [options]``: the
benchmarks that run the Django project, and two pure ones started the same way: the
tournament bench (its pure part needs no Django yet) and the post-game review's cost
(``review``). The other pure ones run on their own: ``python -m bench.engines``,
``python -m bench.arena``."""

import importlib
import os
import sys

import django


def main(argv: list[str]) -> None:
    pure = {
        "tournament": "bench.tournament",
        "review": "bench.review",
        "collusion": "bench.collusion",  # issue 48
        "ladder": "bench.ladder",  # issue 47
    }
    if argv and argv[0] in pure:
        # Imported here: they need no Django, which the other benchmarks set up first.
        importlib.import_module(pure[argv[0]]).main(argv[1:])
        return
    if not argv or argv[0] not in ("pipeline", "soak", "taps", "abuse", "watchers"):
        sys.exit(__doc__)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    # Imported once Django is set up: the benchmarks import the models.
    from bench import abuse, pipeline, soak, taps, watchers

    modules = {
        "pipeline": pipeline,
        "soak": soak,
        "taps": taps,
        "abuse": abuse,
        "watchers": watchers,
    }
    modules[argv[0]].Command().run_from_argv(["python -m bench", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
