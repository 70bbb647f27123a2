"""The site's processes in ``bench watchers``, as compose runs them (``docker-compose.yml``):

- ``live``: the tables' streams and long polls under uvicorn (``config.asgi``), as the
  ``live`` service serves them behind the proxy: ``python -m bench.watchers_server <port>
  <counters file>``;
- ``web``: everything else (moves, pages, the webhook, the health check, the admin) under
  gunicorn's threads (``config.wsgi``), as the ``web`` service: gunicorn with
  ``-c python:bench.watchers_server``, whose ``post_worker_init`` hook starts the counting
  in each worker.

Each process counts the database queries it makes and the tables it renders, and writes
them, with its resident memory and CPU time, to its own file every 0.2 s for the bench to
read (the site itself counts neither).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import django


def count_into(path: str) -> None:
    """Counts this process's queries and renders into ``path`` from now on."""
    from django.db.backends.signals import connection_created

    from web import renders

    lock = threading.Lock()
    queries = [0]

    def counted(execute, sql, params, many, context):
        with lock:
            queries[0] += 1
        return execute(sql, params, many, context)

    def wrap(sender, connection, **kwargs):
        if counted not in connection.execute_wrappers:
            connection.execute_wrappers.append(counted)

    connection_created.connect(wrap, weak=False)
    page = os.sysconf("SC_PAGE_SIZE")

    def report() -> None:
        while True:
            with open("/proc/self/statm") as statm:
                rss = int(statm.read().split()[1]) * page
            cpu = os.times()
            figures = {"queries": queries[0], "renders": renders.made, "rss": rss}
            figures["cpu"] = cpu.user + cpu.system
            with open(path + ".tmp", "w") as out:
                json.dump(figures, out)
            os.replace(path + ".tmp", path)
            time.sleep(0.2)

    threading.Thread(target=report, name="counters", daemon=True).start()


def post_worker_init(worker) -> None:
    """gunicorn's hook (``web``): each worker counts into a file of its own."""
    count_into(f"{os.environ['WATCHERS_COUNTERS']}.web-{os.getpid()}")


def main(port: int, path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    # Imported once Django is set up: they import the models and the settings.
    import uvicorn

    from admin_ui.management.commands.start import LISTEN_BACKLOG

    count_into(path)
    uvicorn.run(
        "config.asgi:application",
        host="127.0.0.1",
        port=port,
        backlog=LISTEN_BACKLOG,
        proxy_headers=False,
        lifespan="off",
        log_level="warning",
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
