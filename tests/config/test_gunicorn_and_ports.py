"""The production shape as the files say it, read without Docker: gunicorn waits longer
than the webhook does, and only the web publishes a port."""

import json
import re
import shlex
from pathlib import Path

import yaml

from bot import bridge

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def gunicorn_timeouts() -> dict[str, int]:
    """--timeout of every gunicorn command: the image's CMD and compose's web command."""
    commands = {}
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("CMD "):
            commands["Dockerfile CMD"] = json.loads(line[4:])
    web = compose()["services"]["web"]["command"]
    line = re.search(r"gunicorn[^\"&]*", web).group(0).rstrip()
    assert "\n" not in line, "a line break in the folded command ends gunicorn's arguments"
    commands["compose web"] = shlex.split(line)
    timeouts = {}
    for where, argv in commands.items():
        assert argv[0] == "gunicorn", where
        assert "--timeout" in argv, f"{where}: gunicorn's default timeout is 30 s"
        timeouts[where] = int(argv[argv.index("--timeout") + 1])
    return timeouts


def test_gunicorn_outwaits_the_webhook_bridge():
    """A worker killed while the bridge still waits (55 s) leaves the update marked as
    seen; Telegram's redelivery then looks like a duplicate and the update is lost. The
    view must time out first, with time to answer."""
    timeouts = gunicorn_timeouts()
    assert set(timeouts) == {"Dockerfile CMD", "compose web"}
    for where, timeout in timeouts.items():
        assert timeout >= bridge.PROCESS_TIMEOUT + 15, (where, timeout, bridge.PROCESS_TIMEOUT)


def test_only_the_web_publishes_a_port():
    services = compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"web"}
    assert services["web"]["ports"] == ["8000:8000"]
    for name in ("postgres", "redis", "worker", "beat", "bot"):
        assert "ports" not in services[name] and "expose" not in services[name], name
        assert services[name].get("network_mode") != "host", name
