"""docker-compose.yml describes the production shape and passes `docker compose config`."""

import json
import shutil
import subprocess
from pathlib import Path

from tests import services

ROOT = Path(__file__).resolve().parents[2]
ROLES = {"web", "worker", "beat", "bot", "redis", "postgres"}


def compose_command() -> list[str]:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode:
        docker = None
    if docker:
        return [docker, "compose"]
    if standalone := shutil.which("docker-compose"):
        return [standalone]
    services.unavailable("needs `docker compose` or `docker-compose` to validate the file")


def test_compose_file_is_valid_and_complete(tmp_path):
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
    assert set(config["services"]) == ROLES
    app_images = {config["services"][r].get("image") for r in ("web", "worker", "beat", "bot")}
    assert app_images == {"catclub:latest"}, "one image for every application role"
    for role in ("web", "worker", "redis", "postgres"):
        assert "healthcheck" in config["services"][role], role
    assert "pgdata" in config["volumes"]
    assert config["services"]["web"]["environment"]["REDIS_URL"].startswith("redis://")
