"""``python -m bench pipeline|soak|taps|abuse|tournament [options]``: the benchmarks that run
the Django project, and the tournament bench (its pure part needs no Django yet; the
other pure ones run on their own: ``python -m bench.engines``, ``python -m bench.arena``)."""

import os
import sys

import django


def main(argv: list[str]) -> None:
    if argv and argv[0] == "tournament":
        # Imported here: the other benchmarks' modules need Django set up first.
        from bench import tournament

        tournament.main(argv[1:])
        return
    if not argv or argv[0] not in ("pipeline", "soak", "taps", "abuse"):
        sys.exit(__doc__)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    # Imported once Django is set up: the benchmarks import the models.
    from bench import abuse, pipeline, soak, taps

    modules = {"pipeline": pipeline, "soak": soak, "taps": taps, "abuse": abuse}
    modules[argv[0]].Command().run_from_argv(["python -m bench", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
