"""The Celery app as ``python -m bench watchers`` runs it: production's own, whose workers
count the tables they render for the spectators and the queries of that
(``bench.watchers_server``), so that the bench's renders and queries per move include
what is done for the pages outside the site's processes."""

import os

from celery.signals import worker_process_init

from config.celery import app

__all__ = ["app"]


@worker_process_init.connect  # sent by the solo pool too
def count(**kwargs) -> None:
    from bench.watchers_server import count_into

    count_into(f"{os.environ['WATCHERS_COUNTERS']}.worker-{os.getpid()}", "background-writes")
