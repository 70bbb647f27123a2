"""docker-compose.yml describes the production shape and passes `docker compose config`."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bench.harness.ports import free_port, wait_for_port
from tests import services

ROOT = Path(__file__).resolve().parents[2]
APP_ROLES = (
    "web",
    "live",
    "worker",
    "sync-worker",
    "computer-worker",
    "review-worker",
    "beat",
    "bot",
)
# The proxy in front, the one-shot Telegram set-up and the nightly dump (issue 46).
ROLES = {*APP_ROLES, "redis", "postgres", "proxy", "telegram-setup", "backup"}


def compose_command() -> list[str]:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode:
        docker = None
    if docker:
        return [docker, "compose"]
    if standalone := shutil.which("docker-compose"):
        return [standalone]
    services.unavailable("needs `docker compose` or `docker-compose` to validate the file")


def rendered_config(tmp_path) -> dict:
    command = compose_command()
    for name in ("docker-compose.yml", "Dockerfile"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    proc = subprocess.run(
        [*command, "config", "--format", "json"]
        if command[-1] == "compose"
        else [*command, "config"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    rendered = proc.stdout
    config = json.loads(rendered) if rendered.lstrip().startswith("{") else None
    if config is None:
        import yaml  # docker-compose v1 prints YAML

        config = yaml.safe_load(rendered)
    return config


def test_compose_file_is_valid_and_complete(tmp_path):
    config = rendered_config(tmp_path)
    assert set(config["services"]) == ROLES
    app_images = {config["services"][r].get("image") for r in APP_ROLES}
    assert app_images == {"catclub:latest"}, "one image for every application role"
    for role in ("web", "live", "worker", "sync-worker", "computer-worker", "redis", "postgres"):
        assert "healthcheck" in config["services"][role], role
    assert "pgdata" in config["volumes"]
    assert config["services"]["web"]["environment"]["REDIS_URL"].startswith("redis://")


def option(command: list[str] | str, name: str) -> str:
    words = command.split() if isinstance(command, str) else command
    for i, word in enumerate(words):
        if word == name:
            return words[i + 1]
        if word.startswith(name + "="):
            return word.split("=", 1)[1]
    raise AssertionError(f"{name} missing from {words}")


def test_games_and_telegram_syncs_have_workers_of_their_own(tmp_path, settings):
    """Issue 16: a sync held by Telegram's limits never holds a move. The compose file's
    queues are the settings' defaults (a test run renames both: CELERY_QUEUE)."""
    services_ = rendered_config(tmp_path)["services"]
    games = option(services_["worker"]["command"], "-Q")
    syncs = option(services_["sync-worker"]["command"], "-Q")
    assert games == "celery"
    assert syncs == "celery.telegram"
    assert settings.TELEGRAM_QUEUE == settings.GAMES_QUEUE + ".telegram"
    # Issue 25: the searching computers' decisions have workers of their own, so that a crowd
    # of hard computers never holds a person's move.
    assert option(services_["computer-worker"]["command"], "-Q") == "celery.computers"
    assert settings.COMPUTERS_QUEUE == settings.GAMES_QUEUE + ".computers"
    assert settings.CELERY_TASK_ROUTES["games.tasks.decide_game"]["queue"] == (
        settings.COMPUTERS_QUEUE
    )
    # Issue 27: the post-game reviews (half a minute of CPU a game) too.
    assert option(services_["review-worker"]["command"], "-Q") == "celery.reviews"
    assert settings.CELERY_TASK_ROUTES["games.tasks.review_game"]["queue"] == (
        settings.REVIEWS_QUEUE
    )
    # The sync workers wait on the network: their pool must enforce the time limits.
    assert option(services_["sync-worker"]["command"], "--pool") == "prefork"


def test_the_computers_and_the_reviews_take_what_cpu_people_leave(tmp_path):
    """Issue 25: between containers the CPU is shared by weight, not by niceness (which
    orders a container's own processes only): the computers' and the reviews' workers
    have smaller shares than everything else, and are niced inside."""
    services_ = rendered_config(tmp_path)["services"]
    default = 1024
    for name in ("computer-worker", "review-worker"):
        assert services_[name]["command"].startswith("nice -n "), name
        assert int(services_[name]["cpu_shares"]) < default, name
    assert int(services_["review-worker"]["cpu_shares"]) < int(
        services_["computer-worker"]["cpu_shares"]
    )
    others = set(services_) - {"computer-worker", "review-worker"}
    assert all(int(services_[n].get("cpu_shares", default)) == default for n in others)


def test_the_webhook_stays_on_threads_and_the_streams_have_asgi_workers(tmp_path):
    """Issue 24: the tables' event streams hold sockets, not threads (uvicorn workers, the
    `live` service); the site, the admin and the Telegram webhook stay on gunicorn's
    threads, where the webhook's handlers never wait behind their own request."""
    services_ = rendered_config(tmp_path)["services"]
    web, live = services_["web"]["command"], services_["live"]["command"]
    web, live = (
        " ".join(web) if isinstance(web, list) else web,
        " ".join(live) if isinstance(live, list) else live,
    )
    assert "config.wsgi:application" in web and "server.wsgi_worker.Worker" in web
    assert "config.asgi:application" in live and "server.asgi_worker.Worker" in live
    published = {
        str(p.get("published", p)) if isinstance(p, dict) else p for p in services_["live"]["ports"]
    }
    assert any("8001" in p for p in published)


def gunicorn_commands(services_: dict) -> dict[str, str]:
    commands = {}
    for name, service in services_.items():
        command = service.get("command") or ""
        command = " ".join(command) if isinstance(command, list) else command
        if "gunicorn " in command:
            commands[name] = command
    return commands


def test_issue_46_web_and_live_share_no_control_socket(tmp_path):
    """Finding 7: gunicorn 23 and later open a control socket at one path in the user's
    home for every server, so `web` and `live` on one host took each other's. Each runs
    without one; and gunicorn started as compose starts it leaves no socket in its home."""
    commands = gunicorn_commands(rendered_config(tmp_path)["services"])
    assert set(commands) >= {"web", "live"}
    for name, command in commands.items():
        assert "--no-control-socket" in command.split(), name

    home = tmp_path / "home"
    home.mkdir()
    port = free_port()
    words = commands["live"].split()
    words = words[words.index("gunicorn") :]
    words[words.index("--bind") + 1] = f"127.0.0.1:{port}"
    env = {
        **os.environ,
        "HOME": str(home),
        "DJANGO_SECRET_KEY": "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
    }
    env.pop("REDIS_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", *words],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for_port(port, 60), "gunicorn did not start"
        assert not list(home.rglob("*.ctl")), list(home.rglob("*"))
    finally:
        server.terminate()
        server.wait(30)
