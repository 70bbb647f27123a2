"""Every card of every deck: well-formed, named for assistive technology, self-contained,
small, deterministic and readable (text colours pass WCAG AA)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from importlib import import_module

import pytest

from games import art

SVG = "{http://www.w3.org/2000/svg}"
MAX_BYTES = 6 * 1024
GENERIC_FAMILIES = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"}
ALL_CARDS = [(slug, code) for slug in art.GAMES for code in art.codes(slug)]
ALL_BACKS = [(slug, variant) for slug in art.GAMES for variant in art.back_variants(slug)]


def check_svg(svg: str, label: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == label
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox"))
    title = root.find(SVG + "title")
    assert title is not None and root[0] is title, "the <title> comes first"
    assert title.text == label and label.strip()
    # Self-contained: nothing fetched, no ids to collide when many cards share a page.
    assert "<image" not in svg and "href" not in svg and "url(" not in svg
    assert "@import" not in svg and "<style" not in svg and "<script" not in svg
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg\")", svg)
    assert " id=" not in svg
    for family in re.findall(r'font-family="([^"]*)"', svg):
        assert {f.strip() for f in family.split(",")} <= GENERIC_FAMILIES, family
    return root


@pytest.mark.parametrize(("slug", "code"), ALL_CARDS)
def test_every_card_renders_well_formed_named_and_small(slug, code):
    label = art.default_label(slug, code)
    svg = art.card_svg(slug, code, label)
    check_svg(svg, label)
    assert len(svg.encode()) < MAX_BYTES, f"{slug} {code}: {len(svg.encode())} bytes"
    assert art.card_svg(slug, code, label) == svg, "same input, same bytes"


@pytest.mark.parametrize(("slug", "variant"), ALL_BACKS)
def test_every_back_renders(slug, variant):
    svg = art.back_svg(slug, variant, label="Card face down")
    check_svg(svg, "Card face down")
    assert len(svg.encode()) < MAX_BYTES


def test_the_label_is_escaped_and_read_back_as_given():
    label = 'Tom & "Jerry" <3> — Gâteau'
    svg = art.card_svg("bon_appetit", "cheese", label)
    check_svg(svg, label)
    assert "&amp;" in svg and "<3>" not in svg


def test_labels_are_distinct_per_game():
    for slug in art.GAMES:
        labels = [art.default_label(slug, code) for code in art.codes(slug)]
        assert len(set(labels)) == len(labels), slug


def test_unknown_cards_and_games_raise():
    with pytest.raises(art.UnknownCard):
        art.card_svg("felix", "99", "x")
    with pytest.raises(art.UnknownCard):
        art.card_svg("chess", "K", "x")
    with pytest.raises(art.UnknownCard):
        art.back_svg("felix", "red")
    with pytest.raises(art.UnknownCard):
        art.default_label("smoking_cat", "ZZ")


def test_bon_appetit_has_the_red_deck_back():
    assert art.back_svg("bon_appetit", "red") != art.back_svg("bon_appetit")
    assert "#b3261e" in art.back_svg("bon_appetit", "red")


def test_smoking_cat_legend_names_the_four_suits_and_eight_ranks():
    entries = art.legend("smoking_cat")
    texts = [text for _svg, text in entries]
    for suit in ("Leaves", "Hearts", "Bells", "Acorns"):
        assert any(t.startswith(suit) for t in texts), suit
    for rank in ("7", "8", "9", "10", "Unter", "Ober", "King", "Ace"):
        assert any(t.startswith(rank) for t in texts), rank
    for svg, text in entries:
        check_svg(svg, text)


@pytest.mark.parametrize("slug", art.GAMES)
def test_legends_are_symbols_with_text(slug):
    for svg, text in art.legend(slug):
        root = check_svg(svg, text)
        assert root.get("viewBox") == "0 0 100 100"
        assert len(svg.encode()) < MAX_BYTES


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("slug", art.GAMES)
def test_text_colours_pass_wcag_aa(slug):
    deck = import_module(f"games.kinds.{slug}.art")
    assert deck.TEXT_COLOURS
    for fg, bg in deck.TEXT_COLOURS:
        assert contrast(fg, bg) >= 4.5, (fg, bg, round(contrast(fg, bg), 2))


def test_every_text_on_a_card_uses_a_checked_colour():
    """Text fills come from the TEXT_COLOURS lists, so the contrast test covers them."""
    for slug in art.GAMES:
        deck = import_module(f"games.kinds.{slug}.art")
        checked = {fg.lower() for fg, _bg in deck.TEXT_COLOURS}
        for code in art.codes(slug):
            svg = art.card_svg(slug, code, "x")
            for fill in re.findall(r'<text [^>]*fill="(#[0-9a-fA-F]{6})"', svg):
                assert fill.lower() in checked, (slug, code, fill)


def test_the_art_needs_only_the_standard_library_and_the_pure_engines():
    """games.art is shared by the web pages and a PNG renderer: no Django, no Telegram."""
    import ast
    import sys
    from pathlib import Path

    package = Path(art.__file__).parent
    for source in package.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                allowed = top in sys.stdlib_module_names or name.startswith("games.engines")
                assert allowed, f"{source.name} imports {name}"
