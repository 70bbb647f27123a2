"""PNG from a card's SVG, for Telegram (which shows no SVG), through headless Chromium.

No new library is needed: Chromium's own ``--screenshot`` renders the page. It is slow
(a browser start per call, about a second), so callers should render once and cache the
bytes (the art is deterministic, so the card code and width make a good cache key).

The browser is ``browser=``, else the ``CATCLUB_CHROMIUM`` environment variable, else the
first of ``chromium``, ``chromium-browser``, ``google-chrome`` on the PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Only our own SVG is rendered, offline: no network, no extensions, a throw-away profile.
# --no-sandbox because containers often run as root, where Chromium refuses its sandbox.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--default-background-color=00000000",  # transparent round the rounded corners
)


class PngUnavailable(RuntimeError):
    """No Chromium to render with."""


def find_browser(browser: str | None = None) -> str:
    found = browser or os.environ.get("CATCLUB_CHROMIUM")
    if not found:
        found = next((p for p in map(shutil.which, CANDIDATES) if p), None)
    if not found:
        raise PngUnavailable("no Chromium found: set CATCLUB_CHROMIUM or install chromium")
    return found


def size_for(svg: str, width: int) -> tuple[int, int]:
    """The pixel size of ``svg`` at ``width``, from its viewBox's aspect ratio."""
    match = re.search(r'viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)\s+([\d.]+)', svg)
    if not match:
        raise ValueError("the SVG has no viewBox")
    w, h = float(match[1]), float(match[2])
    return width, round(width * h / w)


def png(svg: str, width: int, *, browser: str | None = None, timeout: float = 60) -> bytes:
    """The SVG rendered ``width`` pixels wide (height from its aspect), transparent round
    the card's corners."""
    w, h = size_for(svg, width)
    exe = find_browser(browser)
    sized = svg.replace("<svg ", f'<svg width="{w}" height="{h}" ', 1)
    page = (
        "<!doctype html><meta charset='utf-8'><style>html,body{margin:0;background:transparent}"
        f"svg{{display:block}}</style>{sized}"
    )
    with tempfile.TemporaryDirectory(prefix="card-png-") as tmp:
        html, out = Path(tmp, "card.html"), Path(tmp, "card.png")
        html.write_text(page, encoding="utf-8")
        subprocess.run(
            [
                exe,
                *FLAGS,
                f"--user-data-dir={Path(tmp, 'profile')}",
                f"--window-size={w},{h}",
                f"--screenshot={out}",
                html.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=timeout,
        )
        return out.read_bytes()
