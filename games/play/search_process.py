"""The searching computers' decisions made in a process of their own, beside the site, on
the embedded default (``SEARCH_IN_CHILD_PROCESS``; issue 25).

There one process serves every request and runs every game step. A hard computer's
search is seconds of pure Python: in that process it held the interpreter lock from the
event loop and from every request's thread, and a person's click took seconds to reach
their screen while a hostile visitor's tables of hard computers played (bench abuse,
``--kinds hard_tables``). A child process searches instead (``child_process``), at a lower
priority, on the other core: only the decision, a small dict, comes back. The step that
applies it, and the notification of the change to the pages, stay in the site's process.
If the child dies, the task that asked fails (the sweep queues its game again) and the
next decision starts another. With a broker the computers' Celery worker is a process of
its own already: the decision is made where the task runs.
"""

from __future__ import annotations

from django.conf import settings

from .child_process import ChildProcess

# How much lower the child's priority is than the site's: a person's request comes first.
NICENESS = 10

child = ChildProcess(
    "computers' search",
    workers=lambda: settings.TASKS_IN_PROCESS_THREADS[settings.COMPUTERS_QUEUE],
    niceness=NICENESS,
)


def decide(game_id: int, timeout_version: int | None) -> dict | None:
    """``processing.decide``, in the child process when the settings ask for one."""
    if not settings.SEARCH_IN_CHILD_PROCESS:
        return _decide(game_id, timeout_version)
    return child.call(_decide, game_id, timeout_version)


def _decide(game_id: int, timeout_version: int | None) -> dict | None:
    # Imported here: the child unpickles this function before it needs the processing.
    from . import processing

    return processing.decide(game_id, timeout_version)
