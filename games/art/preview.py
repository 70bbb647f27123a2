"""A preview sheet of every deck: every card, its backs and its legend, on one HTML page.

    python manage.py shell -c "from games.art import preview; preview.main(['OUT.html'])"

The decks are those the catalog registered (``games.art.GAMES``), hence a shell where
Django has loaded it; without one, ``main`` finds no deck and says so.

Each game is a <section id="<slug>"> so a screenshot can take one game at a time. The
cards are shown at a comfortable size and again at 60 px, the width of a card in a
phone's hand, where the indices must still read.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from html import escape
from pathlib import Path

from . import GAMES, back_svg, back_variants, card_svg, codes, default_label, legend

STYLE = """
body { margin: 0; background: #23382c; color: #fdf6e7; font-family: sans-serif; }
section { padding: 16px 20px 24px; }
h2 { margin: 0 0 12px; font-size: 22px; }
h3 { margin: 14px 0 8px; font-size: 14px; font-weight: normal; opacity: .85; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
figure { margin: 0; width: 110px; text-align: center; }
figure svg { width: 110px; height: auto; display: block; }
figcaption { font-size: 10px; margin-top: 3px; line-height: 1.2; }
.small svg { width: 60px; height: auto; }
.small { display: flex; flex-wrap: wrap; gap: 6px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; }
.legend div { display: flex; align-items: center; gap: 6px; font-size: 13px; width: 280px; }
.legend svg { width: 30px; height: 30px; flex: none; background: #fff6e6;
  border-radius: 6px; padding: 2px; }
"""


def section(slug: str) -> str:
    cards = "".join(
        f"<figure>{card_svg(slug, code, default_label(slug, code))}"
        f"<figcaption>{escape(code)}<br>{escape(default_label(slug, code))}</figcaption></figure>"
        for code in codes(slug)
    )
    backs = "".join(
        f"<figure>{back_svg(slug, variant)}<figcaption>back {escape(variant or 'default')}"
        "</figcaption></figure>"
        for variant in back_variants(slug)
    )
    small = "".join(card_svg(slug, code, default_label(slug, code)) for code in codes(slug))
    entries = "".join(f"<div>{svg}<span>{escape(text)}</span></div>" for svg, text in legend(slug))
    return (
        f'<section id="{slug}"><h2>{escape(slug)}</h2>'
        f'<div class="cards">{cards}{backs}</div>'
        f'<h3>At 60 px</h3><div class="small">{small}</div>'
        + (f'<h3>Legend</h3><div class="legend">{entries}</div>' if entries else "")
        + "</section>"
    )


def sheet(games: Iterable[str] | None = None) -> str:
    body = "".join(section(slug) for slug in (GAMES if games is None else games))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>catclub card art</title><style>{STYLE}</style></head><body>{body}</body></html>"
    )


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: preview.main([OUT.html])", file=sys.stderr)
        return 2
    if not GAMES:
        print("no deck registered: load the catalog first (see the docstring)", file=sys.stderr)
        return 2
    Path(argv[0]).write_text(sheet(), encoding="utf-8")
    return 0
