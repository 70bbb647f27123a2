"""``python -m bench pipeline|soak|taps|abuse|watchers [options]``: the benchmarks that run
the Django project (the pure ones run on their own: ``python -m bench.engines``,
``python -m bench.arena``)."""

import os
import sys

import django


def main(argv: list[str]) -> None:
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
