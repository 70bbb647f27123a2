"""The computers' ladder in the Telegram lobby (issue 47): each "+ level" button with the
level's measured rating, and "Play at my level" in one tap."""

import pytest

from games.ratings.models import Rating
from tests.bot.test_levels import computer, lobby_with_a_computer
from tests.ladder import FELIX, measured  # noqa: F401 (the fixture)

pytestmark = pytest.mark.usefixtures("measured")


def test_issue_47_the_lobby_buttons_show_each_level_with_its_rating(telegram, recorder):
    _group, table, *_ = lobby_with_a_computer(telegram, recorder)
    lobby = table.lobby()
    texts = [b["text"] for b in table.buttons(lobby, "l")]
    for label in ("+ beginner · 1100", "+ easy · 1300", "+ normal · 1500", "+ hard · 1720"):
        assert any(label in text for text in texts), texts
    assert any("Computer 2: normal · 1500" in text for text in texts)
    assert any("Play at my level" in text for text in texts)
    assert all(len(b["callback_data"].encode()) <= 64 for b in table.buttons(lobby, "l"))


def test_issue_47_play_at_my_level_moves_the_computers_to_the_nearest_rating(telegram, recorder):
    _group, table, anna, *_ = lobby_with_a_computer(telegram, recorder)
    creator = table.game().created_by
    # Ordinal 8.75: shown 1710, nearest hard's 1720.
    Rating.objects.create(
        player=creator, game_type="felix", mu=6 + 8.75, sigma=2, ordinal=8.75, games=30
    )
    query = table.tap(anna, table.lobby(), "Play at my level")
    assert telegram.toast(query) == "The computers play at level hard · 1720, nearest your rating."
    assert computer(table).strategy == "hard"


def test_issue_47_play_at_my_level_is_the_creators(telegram, recorder):
    _group, table, _anna, bruno, _carla = lobby_with_a_computer(telegram, recorder)
    table.tap(bruno, table.lobby(), "Join")
    refused = table.tap(bruno, table.lobby(), "Play at my level")
    assert telegram.toast(refused) == "Only the game's creator or a chat administrator may do that."
    assert computer(table).strategy == "heuristic"


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("it", ("+ principiante · 1100", "+ forte · 1640", "Gioca al mio livello")),
        ("pt", ("+ principiante · 1100", "+ difícil · 1720", "Jogar ao meu nível")),
    ],
)
def test_issue_47_the_ladder_buttons_read_in_the_chats_language(
    telegram, recorder, language, shown
):
    _group, table, *_ = lobby_with_a_computer(telegram, recorder, language=language)
    texts = [b["text"] for b in table.buttons(table.lobby(), "l")]
    for label in shown:
        assert any(label in text for text in texts), texts
