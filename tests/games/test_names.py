"""Player names: readable, bounded, never a computer seat's (games/play/names.py)."""

import unicodedata

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape
from hypothesis import given
from hypothesis import strategies as st

from games.play import errors, names, services
from games.play.models import Player

RLO, ZWSP, ZWJ = "\u202e", "\u200b", "\u200d"
ZALGO = "a" + "\u0301" * 200


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        (f"{RLO}nimda", "nimda"),  # a right-to-left override
        (f"Bo{ZWSP}b{ZWJ}", "Bob"),  # zero-width characters
        ("Al\x00ice", "Alice"),  # NUL: a 500 on PostgreSQL
        ("  Tom \t\n Cat ", "Tom Cat"),
        ("Ｆｅｌｉｘ", "Felix"),  # full-width letters, NFKC
        ("e\u0301", "é"),  # composed
        ("\u0301Zoe", "Zoe"),  # a mark with nothing to sit on
        (f"e{ZWSP}\u0301", "é"),  # what was dropped no longer keeps them apart
    ],
)
def test_names_are_cleaned(typed, shown):
    assert names.for_browser(typed) == shown


def test_runs_of_combining_marks_are_capped():
    cleaned = names.clean(ZALGO)
    assert cleaned == "á" + "\u0301" * names.MAX_MARKS  # NFKC composed the first
    assert len(names.graphemes(cleaned)) == 1


@pytest.mark.parametrize(
    "typed", [ZWSP * 3, f"{RLO}{ZWJ}", "\u3164", "\u2800\u2800", "\u115f\u1160", "\x00"]
)
def test_a_name_that_draws_nothing_is_refused(typed):
    with pytest.raises((errors.NameInvisible, errors.NameRequired)):
        names.for_browser(typed)


def test_length_is_counted_in_characters_as_read():
    # 40 letters each with two marks: 120 code points, 40 characters.
    name = "".join("a\u0302\u0323" for _ in range(40))
    assert len(names.graphemes(names.for_browser(name))) == 40
    with pytest.raises(errors.NameTooLong):
        names.for_browser("x" * 41)


@pytest.mark.parametrize(
    "typed",
    [
        "Computer 2",
        "Computer 2 (hard)",
        "computer2",
        "COMPUTER  ²",  # NFKC: a superscript two
        "Ｃｏｍｐｕｔｅｒ 3",
        f"Comp{ZWSP}uter 1",
        "Computador 4",
        "Computer",
        "🤖 Computer 5",
        "Computer instead of Bob",
        "Computer al posto di Bob",
        "Computador no lugar de Bob",
    ],
)
def test_computer_seat_names_are_reserved(typed):
    with pytest.raises(errors.NameReserved):
        names.for_browser(typed)


@pytest.mark.parametrize("typed", ["Computer Cat", "Supercomputer 2", "Compu 2", "Kim 2"])
def test_names_near_a_computers_are_not(typed):
    assert names.for_browser(typed) == typed


@given(st.text(max_size=300))
def test_whatever_is_typed_a_name_is_readable_or_refused(typed):
    try:
        name = names.for_browser(typed)
    except errors.GameError:
        return
    assert name == name.strip() and names.visible(name) and not names.reserved(name)
    assert 1 <= len(names.graphemes(name)) <= names.BROWSER_LENGTH
    assert len(name) <= names.MAX_CODE_POINTS
    assert not any(unicodedata.category(c)[0] == "C" for c in name)
    assert names.for_browser(name) == name  # cleaning again changes nothing


@given(st.text(max_size=300), st.text(max_size=40))
def test_a_telegram_name_is_always_readable_and_never_a_computers(display_name, username):
    name = names.for_telegram(display_name, username, 12345)
    assert name == "12345" or (names.visible(name) and not names.reserved(name))
    assert len(name) <= names.MAX_CODE_POINTS
    assert not any(unicodedata.category(c)[0] == "C" for c in name)


def test_telegram_names_fall_back_to_the_username_then_the_id():
    assert names.for_telegram(f"{RLO}Anna{ZWSP}", "anna", 1) == "Anna"
    assert names.for_telegram(ZWSP, "anna_cat", 1) == "@anna_cat"
    assert names.for_telegram("Computer 2", "anna_cat", 1) == "@anna_cat"
    assert names.for_telegram("Computer 2", "computer2", 7) == "7"
    assert names.for_telegram("\u3164", "", 7) == "7"


@pytest.mark.django_db
def test_services_store_the_cleaned_name():
    player = services.player_from_telegram(42, f"Com{ZWSP}puter 1", "tom", "en")
    assert player.display_name == "@tom"
    assert Player.objects.get(pk=player.pk).display_name == "@tom"
    player = services.browser_player(f"Al\x00ice{RLO}", "en")
    assert Player.objects.get(pk=player.pk).display_name == "Alice"
    with pytest.raises(errors.NameReserved):
        services.browser_player("Computer 3", "en", player)
    assert Player.objects.get(pk=player.pk).display_name == "Alice"  # nothing changed


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_the_web_form_says_why_a_name_is_refused(language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    # The request activates its language in this thread: the override puts ours back.
    with translation.override(language):
        response = client.post("/play/new/", {"name": "Computer 2 (hard)", "game": "felix"})
        assert escape(str(errors.NameReserved.message)) in response.content.decode()
    assert response.status_code == 400
    assert not Player.objects.exists()
