"""The lock files: runtime and test locked apart, every package with its hashes, and
each install path (dev.py run and test, the image) using only its own lock."""

import re
import tomllib
from pathlib import Path

import pytest

import dev

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENT = re.compile(r"^([A-Za-z0-9._-]+)==(\S+)")


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock(name: str) -> dict[str, tuple[str, frozenset[str]]]:
    """{package: (version, hashes)} of a pip-compile lock file."""
    entries: dict[str, tuple[str, frozenset[str]]] = {}
    current = None
    for line in (ROOT / "requirements" / name).read_text().splitlines():
        if match := REQUIREMENT.match(line):
            current = norm(match.group(1))
            entries[current] = (match.group(2), frozenset())
        elif (hash_ := re.search(r"--hash=(sha256:[0-9a-f]{64})", line)) and current:
            version, hashes = entries[current]
            entries[current] = (version, hashes | {hash_.group(1)})
    return entries


def declared(extra: str | None = None) -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    items = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return {norm(re.match(r"[A-Za-z0-9._-]+", item).group(0)) for item in items}


@pytest.mark.parametrize("name", ["runtime.txt", "test.txt"])
def test_every_locked_package_is_pinned_with_hashes(name):
    entries = lock(name)
    assert entries
    text = (ROOT / "requirements" / name).read_text()
    assert text.count("==") == len(entries)  # nothing the parser missed
    assert all(hashes for _version, hashes in entries.values()), name
    assert "--index-url" not in text and "--find-links" not in text  # PyPI, no local paths


def test_runtime_and_test_are_locked_apart_and_agree():
    runtime, test = lock("runtime.txt"), lock("test.txt")
    assert declared() <= set(runtime)
    assert declared("test") <= set(test)
    assert not (declared("test") - declared()) & set(runtime), "test tools in the runtime lock"
    for package, pinned in runtime.items():
        assert test.get(package) == pinned, package  # the same version, the same files


def test_each_install_path_uses_its_own_lock_with_hashes():
    assert dev.LOCKS == {"run": "requirements/runtime.txt", "test": "requirements/test.txt"}
    source = (ROOT / "dev.py").read_text()
    assert '"--require-hashes", "-r", lock' in source
    assert not (ROOT / "requirements.lock").exists()
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements/runtime.txt" in dockerfile
    assert "test.txt" not in dockerfile
