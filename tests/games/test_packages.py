"""A package per game (issue 23): every list of games comes from the catalog's packages,
each package holds its own files, and the sentences of modules that moved into a package
still come out translated."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.utils import translation

from games import art, catalog
from games import rules as documents
from web import replay

ROOT = Path(settings.BASE_DIR)
KINDS = ROOT / "games" / "kinds"
SLUGS = catalog.slugs()


def test_the_catalog_is_its_packages_and_every_list_of_games_comes_from_them():
    assert [f"games.kinds.{slug}" for slug in SLUGS] == list(catalog.PACKAGES)
    assert sorted(p.name for p in KINDS.iterdir() if (p / "__init__.py").exists()) == sorted(SLUGS)
    assert set(art.GAMES) == set(SLUGS) == set(documents.slugs())
    for kind in catalog.all_games():
        assert kind.package == f"games.kinds.{kind.slug}"
        assert kind.directory == KINDS / kind.slug
        assert kind.engine.startswith(kind.package + ".")
        assert all(path.startswith(kind.package + ".") for path in kind.renderers.values())


@pytest.mark.parametrize("slug", SLUGS)
def test_a_games_template_and_style_are_served_from_its_package(slug):
    template = get_template(f"web/tables/{slug}.html")
    assert Path(template.origin.name).is_relative_to(KINDS / slug)
    for name in (f"web/tables/{slug}.css", f"web/replay/{slug}.js"):
        assert Path(finders.find(name)).is_relative_to(KINDS / slug), name


def test_sentences_of_modules_moved_into_a_package_are_still_translated():
    felix = catalog.get("felix")
    web, telegram = felix.renderer(catalog.WEB), felix.renderer(catalog.TELEGRAM)
    with translation.override("it"):
        assert web.card_label("7") == "gatto 7"  # was web/tables/felix.py
        assert telegram._round({"round": 2, "rounds": 9}) == "turno 2/9"  # was bot/render/felix.py
        assert str(web.REPLAY_LABELS["sacks"]) == "Sacchi"  # was web/replay.py


@pytest.mark.parametrize("language", ["it", "pt"])
def test_the_games_catalogue_holds_the_sentences_of_the_packages_front_end_modules(language):
    """A package is part of the ``games`` app: ``makemessages`` run there finds the strings
    of a game's ``telegram`` and ``web`` modules, so its catalogue holds them already, as
    translated as the front-ends' catalogues they came from."""
    games = polib.pofile(str(ROOT / f"games/locale/{language}/LC_MESSAGES/django.po"))
    translated = {(e.msgctxt, e.msgid) for e in games.translated_entries()}
    for app in ("bot", "admin_ui", "web"):
        po = polib.pofile(str(ROOT / f"{app}/locale/{language}/LC_MESSAGES/django.po"))
        for entry in po.translated_entries():
            if any(
                "tables/felix" in path or "render/felix" in path for path, _ in entry.occurrences
            ):
                assert (entry.msgctxt, entry.msgid) in translated, entry.msgid


@pytest.mark.parametrize("slug", SLUGS)
def test_every_word_a_replay_board_reads_is_given_to_it(slug):
    """A board script reads its words from ``L`` (web/replay.py's labels and its game's
    ``REPLAY_LABELS``): a word it reads that nobody gives shows as "undefined"."""
    script = KINDS / slug / "static" / "web" / "replay" / f"{slug}.js"
    words = set(re.findall(r"\bL\.(\w+)", script.read_text(encoding="utf-8")))
    own = getattr(catalog.get(slug).renderer(catalog.WEB), "REPLAY_LABELS", {})
    assert words <= set(replay.LABELS) | set(own), sorted(words - set(replay.LABELS) - set(own))


# What ``grep`` must not find outside the packages (issue 23): a game's slug or name, and
# the words of one game that leaked into generic code before (CSS's ``letter-spacing`` is
# a property, not a game's letters).
GAME_WORDS = r"\bletters?\b(?!-spacing)|\bsack|cheese|\bbowl"
# The computers' ladder's measurements (issue 47) are data keyed by each game's slug, as
# migrations and translations are, and docs/ladder.md is their report.
OUTSIDE = (
    "games/kinds/",
    "games/catalog.py",
    "tests/",
    "games/computers/ladder/pairings.jsonl",
    "games/computers/ladder/ratings.json",
    "docs/ladder.md",
)


def test_no_file_outside_the_packages_names_a_game():
    """Only a game's package, the catalog, migrations, translations and tests name a game
    or one game's words; everything else asks the catalog."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        pytest.skip("needs a git checkout to list the project's files")
    names = {
        term
        for kind in catalog.all_games()
        for term in (kind.slug, str(kind.name), str(kind.short_name))
    }
    pattern = re.compile("|".join([*map(re.escape, names), GAME_WORDS]), re.IGNORECASE)
    found = [
        f"{name}:{number}: {line.strip()}"
        for name in listed.stdout.split()
        if not name.startswith(OUTSIDE)
        and "/migrations/" not in name
        and "/locale/" not in name
        and (ROOT / name).is_file()
        and not name.endswith((".png", ".mo", ".ico", ".woff2"))
        for number, line in enumerate(
            (ROOT / name).read_text(encoding="utf-8", errors="replace").splitlines(), 1
        )
        if pattern.search(line)
    ]
    assert found == []
