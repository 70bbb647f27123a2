"""The Celery app as ``python -m bench watchers`` runs it: production's own, whose workers
count the tables they render for the spectators and the queries of that
(``web.live.notify._prepare``, ``bench.watchers_server``), so that the bench's renders and
queries per move include what is done for the pages outside the site's processes (and
not the steps' own queries, nor the metrics' writes)."""

import os
import threading

from celery.signals import worker_process_init

from config.celery import app

__all__ = ["app"]


@worker_process_init.connect  # sent by the solo pool too
def count(**kwargs) -> None:
    from bench.watchers_server import count_into
    from web.live import notify

    preparing = threading.local()
    prepare = notify._prepare

    def counted(game_id: int) -> str:
        preparing.now = True
        try:
            return prepare(game_id)
        finally:
            preparing.now = False

    notify._prepare = counted
    path = f"{os.environ['WATCHERS_COUNTERS']}.worker-{os.getpid()}"
    count_into(path, lambda: getattr(preparing, "now", False))
