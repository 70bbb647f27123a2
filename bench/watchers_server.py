"""The web process of ``bench watchers``: the site under uvicorn as ``manage.py start``
serves it, counting the database queries it makes and the tables it renders, written to
a file every 0.2 s for the bench to read (the site itself counts neither), with its
resident memory and CPU time.

``python -m bench.watchers_server <port> <counters file>``
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import django


def main(port: int, path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    # Imported once Django is set up: they import the models and the settings.
    import uvicorn
    from django.db.backends.signals import connection_created

    from admin_ui.management.commands.start import LISTEN_BACKLOG
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
            counted = {"queries": queries[0], "renders": renders.made, "rss": rss}
            counted["cpu"] = cpu.user + cpu.system
            with open(path + ".tmp", "w") as out:
                json.dump(counted, out)
            os.replace(path + ".tmp", path)
            time.sleep(0.2)

    threading.Thread(target=report, name="counters", daemon=True).start()
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
