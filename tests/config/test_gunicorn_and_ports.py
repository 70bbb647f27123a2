"""The production shape as the files say it, read without Docker: gunicorn waits longer
than the webhook does, only the web and its streams publish a port, the web's health
check passes."""

import http.server
import json
import os
import re
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest
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


def test_only_the_web_and_its_streams_publish_a_port():
    services = compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    # The proxy, to everyone (issue 46); the site and its tables' event streams (issue 24),
    # to the proxy on this host.
    assert published == {"proxy", "web", "live"}
    assert services["proxy"]["ports"] == ["80:80", "443:443"]
    # On the loopback interface only (issue 25): nobody reaches gunicorn past the proxy.
    assert services["web"]["ports"] == ["127.0.0.1:8000:8000"]
    assert services["live"]["ports"] == ["127.0.0.1:8001:8001"]
    for name in ("postgres", "redis", "worker", "beat", "bot"):
        assert "ports" not in services[name] and "expose" not in services[name], name
        assert services[name].get("network_mode") != "host", name


def test_the_web_health_check_asks_as_the_sites_host(tmp_path):
    """The check runs inside the container against gunicorn on 127.0.0.1, a Host that
    production's DJANGO_ALLOWED_HOSTS does not list (Django answers 400): it sends
    SITE_URL's host instead. Run here against a stub server that records the request."""
    test = compose()["services"]["web"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    seen = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.update(path=self.path, host=self.headers["Host"])
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        code = test[3].replace("127.0.0.1:8000/", f"127.0.0.1:{server.server_port}/")
        env = {**os.environ, "SITE_URL": "https://catclub.example.org"}
        proc = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, timeout=30
        )
    finally:
        server.shutdown()
    assert proc.returncode == 0, proc.stderr
    assert seen == {"path": "/healthz", "host": "catclub.example.org"}


@pytest.mark.django_db
def test_healthz_answers_the_sites_host_over_plain_http_in_production(client, settings):
    settings.ALLOWED_HOSTS = ["catclub.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.REDIS_URL = ""
    assert client.get("/healthz", HTTP_HOST="catclub.example.org").status_code == 200
    assert client.get("/healthz", HTTP_HOST="127.0.0.1:8000").status_code == 400
