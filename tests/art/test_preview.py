"""The preview sheet, rendered by Debian's Chromium: one PNG per game under
test-artifacts/cards-<game>.png for a person to look at, and ``png()`` for Telegram."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from games import art
from games.art import preview
from games.art.png import png

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="needs Debian's Chromium (apt-get install chromium)"
)


def test_the_sheet_shows_every_card_back_and_legend(tmp_path):
    out = tmp_path / "cards.html"
    assert preview.main([str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    for slug in art.GAMES:
        assert f'<section id="{slug}">' in html
        for code in art.codes(slug):
            assert f"<title>{art.default_label(slug, code)}</title>" in html
    assert html.count("<svg") >= sum(2 * len(art.codes(s)) for s in art.GAMES)
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "")


@needs_chromium
def test_the_sheet_renders_to_one_png_per_game(tmp_path):
    from playwright.sync_api import sync_playwright

    page_file = tmp_path / "cards.html"
    page_file.write_text(preview.sheet(), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        problems = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.on("request", lambda r: r.url.startswith("file:") or problems.append(r.url))
        page.goto(page_file.as_uri())
        for slug in art.GAMES:
            section = page.locator(f"#{slug}")
            # Every card is laid out at its 5:7 size (a broken SVG collapses to nothing).
            boxes = section.locator(".cards svg").evaluate_all(
                "els => els.map(e => [e.getBoundingClientRect().width,"
                " e.getBoundingClientRect().height])"
            )
            assert boxes and all(round(h) == round(w * 1.4) for w, h in boxes), boxes
            section.screenshot(path=str(ARTIFACTS / f"cards-{slug}.png"))
        browser.close()
    assert not problems, problems


@needs_chromium
def test_png_renders_a_card_at_the_asked_width():
    data = png(art.card_svg("felix", "15", "Cat 15"), 120, browser=CHROMIUM)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (120, 168)
