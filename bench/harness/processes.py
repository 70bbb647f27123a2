"""Child processes as the benches run servers and workers: each in a process group of its
own (so it can be killed whole), its output in a log file, and waiting for a condition."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]  # the repository: where manage.py runs


def wait_until(condition, timeout: float, what: str):
    """``condition``'s first true value, looked at every 0.2 s; CommandError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise CommandError(f"timed out waiting for {what}")


class Process:
    """One child process (group), its output in a log file."""

    def __init__(self, name: str, command: list[str], env: dict, log_dir: Path):
        self.name, self.command, self.env = name, command, env
        self.log_path = log_dir / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> Process:
        self.proc = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdout=self.log_path.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int, wait: float = 30) -> None:
        if not self.alive():
            return
        os.killpg(self.proc.pid, sig)
        try:
            self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])
