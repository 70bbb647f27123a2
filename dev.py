#!/usr/bin/env python3
"""The two commands of the README, with nothing but Python 3.11 needed.

    python3 dev.py run     install, migrate, create an admin, serve (and the bot, with a token);
                           --demo fills a demo league in the background, --debug turns
                           Django's DEBUG on (off by default: the site's own error pages)
    python3 dev.py test    install the test extras, lint, check the import contracts, the
                           types and the migrations, run the whole suite

Both install into ``.venv`` what the lock files pin, with their hashes: ``run`` only
``requirements/runtime.txt``, ``test`` ``requirements/test.txt`` (the same runtime pins plus
the test tools); they reinstall only when ``pyproject.toml`` or that lock file change.
Extra arguments after ``test`` go to pytest (``python3 dev.py test -k engines``).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def sh(*args: object, **kwargs) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True, **kwargs)


LOCKS = {"run": "requirements/runtime.txt", "test": "requirements/test.txt"}


def install(what: str) -> None:
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    lock = LOCKS[what]
    digest = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + (ROOT / lock).read_bytes()
    ).hexdigest()
    stamp = VENV / f".installed-{what}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    sh(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    # Every package with its hash: a file that differs from the locked one is refused.
    sh(PY, "-m", "pip", "install", "--quiet", "--require-hashes", "-r", lock)
    # The project itself, editable, with nothing more (its dependencies are all above).
    sh(PY, "-m", "pip", "install", "--quiet", "--no-deps", "-e", ".")
    stamp.write_text(digest)


def ensure_env_file() -> None:
    """A local .env with a fresh secret key (DEBUG stays off unless ``--debug``)."""
    env_file = ROOT / ".env"
    if not env_file.exists():
        env_file.write_text(
            "# Local development settings, made by `python3 dev.py run`.\n"
            f"DJANGO_SECRET_KEY={secrets.token_urlsafe(48)}\n"
        )
        print("Wrote .env for local development (a new secret key).")


def run_env(debug: bool) -> dict[str, str]:
    """The environment of the site: DEBUG as asked (``--debug`` or the environment's own
    DJANGO_DEBUG; a .env written by an older dev.py said 1, which this overrides), the
    local addresses allowed, plain log lines from warnings up, and the moment the command
    started, from which the site reports how soon it served its first page (installs
    aside)."""
    env = {**os.environ, "CATCLUB_STARTED_AT": str(time.time())}
    if debug:
        env["DJANGO_DEBUG"] = "1"
    else:
        env.setdefault("DJANGO_DEBUG", "0")
    dotenv = (ROOT / ".env").read_text() if (ROOT / ".env").exists() else ""
    if "DJANGO_ALLOWED_HOSTS=" not in dotenv:
        env.setdefault("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
    if "LOG_FORMAT=" not in dotenv:
        env.setdefault("LOG_FORMAT", "plain")
    if "LOG_LEVEL=" not in dotenv:
        # A line per game step (the demo's thousands) buried what the command says.
        env.setdefault("LOG_LEVEL", "WARNING")
    return env


def run(args: list[str]) -> None:
    install("run")
    debug = "--debug" in args
    args = [a for a in args if a != "--debug"]
    ensure_env_file()
    env = run_env(debug)
    if env["DJANGO_DEBUG"].lower() not in ("1", "true", "yes", "on"):
        # Without DEBUG the pages name their static files by content (WhiteNoise's
        # manifest): they are gathered first, only the changed ones after the first run.
        sh(PY, "manage.py", "collectstatic", "--noinput", "--verbosity", "0", env=env)
    sh(PY, "manage.py", "start", *args, env=env)


def test(args: list[str]) -> None:
    install("test")
    sh(BIN / "ruff", "check", ".")
    sh(BIN / "ruff", "format", "--check", ".")
    sh(BIN / "lint-imports")  # the layer contracts in pyproject.toml
    sh(BIN / "mypy")  # the types, as [tool.mypy] in pyproject.toml says where and how strict
    env = {
        **os.environ,
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", secrets.token_urlsafe(50)),
    }
    sh(PY, "manage.py", "makemigrations", "--check", "--dry-run", env=env)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    sh(PY, "-m", "pytest", "--junitxml=test-artifacts/junit.xml", *args)


def main() -> None:
    commands = {"run": run, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    try:
        commands[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
