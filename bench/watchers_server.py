"""The counting in the site's processes of ``bench watchers``, which runs them as compose
does (``docker-compose.yml``), each under gunicorn with ``-c python:bench.watchers_server``,
whose ``post_worker_init`` hook starts the counting in each worker:

- ``live``: the tables' streams and long polls, gunicorn's uvicorn workers (``config.asgi``),
  as the ``live`` service serves them behind the proxy (``WATCHERS_ROLE=live``);
- ``web``: everything else (moves, pages, the webhook, the health check, the admin) under
  gunicorn's threads (``config.wsgi``), as the ``web`` service.

Each process counts the database queries it makes and the tables it renders, and writes
them, with its resident memory and CPU time, to its own file every 0.2 s for the bench to
read (the site itself counts neither). The game workers (``bench.watchers_worker``) count
too: the tables they render for the spectators after each step, and the queries of that
(``web.live.notify._prepare``'s), which the hubs of ``live`` made before.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable

# What the bench's probes ask (``watchers.probe``): their queries are not the tables'.
PROBES = ("/healthz", "/admin/login/", "/telegram/webhook")


def count_into(path: str, only: Callable[[], bool] | None = None) -> None:
    """Counts this process's queries (but the probes'; ``only``: those made while it says
    so) and renders into ``path`` from now on."""
    from django.core.signals import request_finished, request_started
    from django.db.backends.signals import connection_created

    from web.live import renders

    lock = threading.Lock()
    queries = [0]
    probing = threading.local()

    def counted(execute, sql, params, many, context):
        if only is not None and not only():
            pass
        elif not getattr(probing, "now", False):
            with lock:
                queries[0] += 1
        return execute(sql, params, many, context)

    def wrap(sender, connection, **kwargs):
        if counted not in connection.execute_wrappers:
            connection.execute_wrappers.append(counted)

    def started(sender, environ=None, scope=None, **kwargs):
        asked = (environ or {}).get("PATH_INFO") or (scope or {}).get("path", "")
        probing.now = asked.startswith(PROBES)

    def finished(sender, **kwargs):
        probing.now = False

    connection_created.connect(wrap, weak=False)
    request_started.connect(started, weak=False)
    request_finished.connect(finished, weak=False)
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
    """gunicorn's hook: each worker counts into a file of its own, named by its role."""
    role = os.environ.get("WATCHERS_ROLE", "web")
    count_into(f"{os.environ['WATCHERS_COUNTERS']}.{role}-{os.getpid()}")
