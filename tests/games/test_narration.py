"""Issue 23: each event is told once. The bot and the web table tell every event of random
games with the same sentence (the game's narration), each formatting only the pieces; no
front-end keeps an event sentence of its own; every sentence is translated once, in the
games' catalogue."""

from __future__ import annotations

import ast
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from bot.render.common import Ctx
from games import catalog, narration
from tests.engines.test_search_api import random_game
from web.tables import event_text

GAMES = 200
ROOT = Path(settings.BASE_DIR)
KINDS = ROOT / "games" / "kinds"


def front_end_files(app: str, pattern: str) -> list[Path]:
    """An app's files, with the games' modules and templates for that front-end (a game's
    ``telegram`` module is the bot's, its ``web`` module and templates the web's)."""
    own = {"bot": ["*/telegram.py"], "web": ["*/web.py", "*/templates/**/*.html"], "admin_ui": []}
    own = own[app]
    found = list((ROOT / app).rglob(pattern))
    suffix = pattern.rsplit(".", 1)[-1]
    return found + [p for glob in own if glob.endswith(suffix) for p in KINDS.glob(glob)]


def random_games(slug: str, games: int, max_steps: int = 400):
    """Every event of ``games`` seeded random games of ``slug`` at its usual table, with
    the table's size and the public view at the end."""
    kind = catalog.get(slug)
    rules = kind.rules
    n = min(max(kind.table_players, rules.min_players), rules.max_players)
    for seed in range(games):
        state, events = random_game(rules, n, seed, max_steps)
        yield n, events, rules.view(state, None)


@pytest.mark.parametrize("slug", catalog.slugs())
def test_the_bot_and_the_web_tell_every_event_of_200_games_alike(slug, monkeypatch):
    told: list[tuple[str, narration.Line | None]] = []
    real = narration.tell

    def spy(line, **kwargs):
        told.append(line)
        return real(line, **kwargs)

    monkeypatch.setattr(narration, "tell", spy)
    telegram = catalog.get(slug).renderer(catalog.TELEGRAM)
    kinds_told: set[str] = set()
    for n, events, view in random_games(slug, GAMES):
        names = [f"P{i}" for i in range(n)]
        ctx = Ctx(1, 1, slug, names)
        for ev in events:
            told.clear()
            bot = telegram.event_line(ev, ctx)
            web = event_text(slug, ev, names, view)
            assert len(told) == 2 and told[0] == told[1], ev  # one sentence, from narration
            assert (bot is None) == (web is None) == (told[0] is None), ev
            if bot is not None:
                kinds_told.add(ev["type"])
                assert bot[:1].isupper() or not bot[:1].isalpha(), bot
                assert web[:1].isupper() or not web[:1].isalpha(), web
    assert len(kinds_told) >= 4, kinds_told  # the games really told something


def narration_sentences() -> set[str]:
    found = set()
    for path in [*(ROOT / "games" / "narration").glob("*.py"), *KINDS.glob("*/narration.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
            ):
                found.add(node.args[0].value)
    return found


def test_no_front_end_keeps_an_event_sentence_of_its_own():
    sentences = narration_sentences()
    assert len(sentences) > 40
    for app in ("bot", "admin_ui", "web"):
        for path in front_end_files(app, "*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and node.value in sentences:
                    pytest.fail(f"{path.relative_to(ROOT)} tells {node.value!r} itself")


@pytest.mark.parametrize("language", ["it", "pt"])
def test_every_sentence_is_translated_once_in_the_games_catalogue(language):
    sentences = narration_sentences()
    games_po = polib.pofile(str(ROOT / f"games/locale/{language}/LC_MESSAGES/django.po"))
    translated = {e.msgid for e in games_po.translated_entries()}
    assert sentences <= translated, sentences - translated
    for app in ("bot", "admin_ui", "web"):
        # Only a template's own use of a sentence keeps a copy in its app (a final
        # screen that says why the game ended, as the event did).
        po = polib.pofile(str(ROOT / f"{app}/locale/{language}/LC_MESSAGES/django.po"))
        templates = " ".join(p.read_text() for p in front_end_files(app, "*.html"))
        assert all(e.msgid in templates for e in po if e.msgid in sentences), app
    with translation.override(language):
        line = narration.line(
            narration.gettext_noop("%(name)s bids %(amount)d."),
            name=narration.Seat(0),
            amount=7,
        )
        text = narration.tell(line, translate=translation.gettext, seat=lambda n: "Ann", formats={})
        assert text != "Ann bids 7." and "Ann" in text and "7" in text
