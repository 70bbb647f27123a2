"""Loopback ports: one free to listen on, and waiting for a server to listen."""

from __future__ import annotations

import socket
import time

HOST = "127.0.0.1"


def free_port() -> int:
    """A port nobody listens on now (the OS's choice; another process may take it later)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float) -> bool:
    """Whether something accepts connections on ``port`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            sock.settimeout(0.5)
            if sock.connect_ex((HOST, port)) == 0:
                return True
        time.sleep(0.1)
    return False
