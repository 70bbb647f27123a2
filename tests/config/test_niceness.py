"""A niced worker is niced against the other services too (``server/niceness.py``, issue
25): Linux's session groups would otherwise give it as much CPU as the web."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SWITCH = Path("/proc/sys/kernel/sched_autogroup_enabled")
GROUPS_ON = SWITCH.exists() and SWITCH.read_text().strip() == "1"
OWN_GROUP = Path("/proc/self/autogroup")
REPORT = (
    "from server import niceness; from pathlib import Path;"
    " print(niceness.share_with_session());"
    " group = Path('/proc/self/autogroup'); print(group.read_text() if group.exists() else '')"
)


def started(nice: int, own_session: bool) -> tuple[bool, str]:
    """What a process started so says: whether it niced its group, and the group."""
    out = subprocess.run(
        [sys.executable, "-c", REPORT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        start_new_session=own_session,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    ).stdout.splitlines()
    return out[0] == "True", out[1].strip() if len(out) > 1 else ""


def test_a_niced_worker_leading_its_session_nices_its_group():
    did, group = started(nice=10, own_session=True)
    assert did is GROUPS_ON
    if GROUPS_ON:
        assert group.endswith("nice 10")


def test_a_process_in_someone_elses_session_leaves_the_group_alone():
    """The group is its parent's too (the site's search child, a test's subprocess).

    The parent's group is whatever this test runs in: a session's own group ("nice 0"),
    or the kernel's default group, which reads as nothing (a CI runner, a container)."""
    before = OWN_GROUP.read_text().strip() if OWN_GROUP.exists() else ""
    did, group = started(nice=10, own_session=False)
    assert did is False
    assert group == before


def test_a_worker_not_niced_leaves_its_group_alone():
    did, group = started(nice=0, own_session=True)
    assert did is False
    if GROUPS_ON:
        assert group.endswith("nice 0")
