"""Languages: the group's messages in the chat's language, private ones in the player's;
the compiled catalogues match their sources."""

from pathlib import Path

import polib
import pytest
from django.conf import settings

from bot.models import ChatSettings
from tests.bot.play import Table, felix_table

APPS = ("bot", "games", "admin_ui", "web")
CATALOGUES = sorted(
    p
    for app in APPS
    for p in (Path(settings.BASE_DIR) / app / "locale").glob("*/LC_MESSAGES/django.po")
)


def test_there_are_italian_and_portuguese_catalogues_for_every_app():
    found = {(p.parts[-5], p.parts[-3]) for p in CATALOGUES}
    assert found == {
        (app, lang) for app in ("bot", "games", "admin_ui", "web") for lang in ("it", "pt")
    }


def test_a_string_reads_the_same_in_every_app():
    """A string several apps use (an error the bot shows and the web pages too) has one
    translation per language."""
    seen: dict[tuple[str, str], dict[str, str]] = {}
    for po_path in CATALOGUES:
        lang, app = po_path.parts[-3], po_path.parts[-5]
        for entry in polib.pofile(str(po_path)).translated_entries():
            seen.setdefault((lang, entry.msgid), {})[app] = entry.msgstr
    differing = {key: apps for key, apps in seen.items() if len(set(apps.values())) > 1}
    assert not differing


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda p: f"{p.parts[-5]}-{p.parts[-3]}")
def test_compiled_catalogue_is_up_to_date_with_its_source(po_path):
    source = polib.pofile(str(po_path))
    compiled = polib.mofile(str(po_path.with_suffix(".mo")))
    expected = {
        (e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in source.translated_entries()
    }
    got = {
        (e.msgctxt, e.msgid): (e.msgstr, {int(k): v for k, v in e.msgstr_plural.items()})
        for e in compiled
        if e.msgid
    }
    expected = {k: (s, {int(i): v for i, v in p.items()}) for k, (s, p) in expected.items()}
    assert got == expected, "run: manage.py compilemessages"
    # Every message of every app is translated: the bot, the pages, the games' names.
    assert not source.untranslated_entries(), [e.msgid for e in source.untranslated_entries()]
    assert not source.fuzzy_entries(), [e.msgid for e in source.fuzzy_entries()]


def test_group_messages_follow_the_chat_and_private_ones_the_player(telegram, recorder):
    group = telegram.group()
    ChatSettings.objects.create(chat_id=group["id"], language="it")
    anna, bruno, carla = (
        telegram.user("Anna", "pt"),
        telegram.user("Bruno", "en"),
        telegram.user("Carla", "it"),
    )
    for user in (anna, bruno, carla):
        user.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno, carla])
    table.open_lobby("felix", anna, [bruno, carla])
    group_text = recorder.screen(group["id"])[-1].text
    assert "turno 1/9" in group_text  # Italian table
    assert "Os teus ratos" in table.private(anna).text  # Portuguese private message
    assert "Your mice" in table.private(bruno).text
    assert "I tuoi topi" in table.private(carla).text
    assert "🤖" not in group_text
    # Errors from the games come in the player's language too.
    lobby = recorder.screen(group["id"])[0]
    query = telegram.tap(anna, lobby, f"l{table.game().pk}:j")
    assert telegram.toast(query) == "A partida já começou."


def test_changing_language_redraws_the_private_message(telegram, recorder):
    table, _game, (anna, *_others) = felix_table(telegram, recorder)
    assert "Your hand" in table.private(anna).text
    anna.say(telegram.private(anna), "/lang")
    anna.tap(recorder.last(anna.id), data="L:pt")
    assert "A tua mão" in table.private(anna).text
