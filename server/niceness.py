"""A niced process niced against the other services too, where Linux would otherwise undo
it (issue 25).

Linux shares the CPU between session groups before it looks at niceness
(``sched_autogroup_enabled``, on by default): each service started in a session of its own
(``setsid``, a supervisor, the abuse bench) gets an equal share, and ``nice -n 10`` orders
a process only against the others of its own session. The computers' worker, niced so that
people's moves and pages come first on a busy machine, then took as much CPU as the web.
A niced process that leads its session gives its session group the same niceness. In a
container the CPU is shared by control group instead (``cpu_shares`` in
docker-compose.yml), where none of this applies.
"""

from __future__ import annotations

import os
from pathlib import Path

AUTOGROUP = Path("/proc/self/autogroup")


def share_with_session() -> bool:
    """Give this process's niceness to its session group, when it is niced and leads its
    session (else the group is someone else's too). Whether it did."""
    niceness = os.getpriority(os.PRIO_PROCESS, 0)
    if niceness <= 0 or os.getsid(0) != os.getpid() or not AUTOGROUP.exists():
        return False
    try:
        AUTOGROUP.write_text(str(niceness))
    except OSError:  # autogroups switched off, or a kernel that refuses
        return False
    return True
