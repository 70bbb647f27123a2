"""Computer levels in the Telegram lobby (issue 14): the game's creator moves a computer
seat round the ladder (issue 47: beginner, easy, normal, strong, hard) with one button per
seat, edited in place; the level shows beside the computer's name in the lobby and at the
table, in the chat's language. The ladder's ratings are left out here (the tests of issue
47 show them): these read the levels' names alone."""

import pytest

from bot import callbacks
from bot.models import ChatSettings
from games.computers import ladder
from games.play.models import GameStatus, Seat
from tests.bot.play import Table


@pytest.fixture(autouse=True)
def unmeasured(monkeypatch):
    monkeypatch.setattr(ladder, "table", dict)


def lobby_with_a_computer(telegram, recorder, slug="felix", language=None):
    group = telegram.group()
    if language:
        ChatSettings.objects.create(chat_id=group["id"], language=language)
    anna, bruno, carla = (telegram.user(n, language or "en") for n in ("Anna", "Bruno", "Carla"))
    for user in (anna, bruno, carla):
        user.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno, carla])
    anna.say(group, f"/new {slug}")
    table.add_computer(anna)
    return group, table, anna, bruno, carla


def computer(table) -> Seat:
    return table.game().seats.get(player__isnull=True)


def test_the_creator_moves_a_computer_through_the_levels_in_place(telegram, recorder):
    group, table, anna, *_ = lobby_with_a_computer(telegram, recorder)
    lobby = table.lobby()
    assert "🤖 Computer 2 (normal)" in lobby.text
    query = table.tap(anna, lobby, "Computer 2: normal")
    assert telegram.toast(query) == "Computer 2 now plays at level strong."
    assert computer(table).strategy == "strong"
    assert "🤖 Computer 2 (strong)" in lobby.text
    table.tap(anna, lobby, "Computer 2: strong")
    assert computer(table).strategy == "hard" and "(hard)" in lobby.text
    table.tap(anna, lobby, "Computer 2: hard")
    assert computer(table).strategy == "beginner" and "(beginner)" in lobby.text
    table.tap(anna, lobby, "Computer 2: beginner")
    assert computer(table).strategy == "easy" and "(easy)" in lobby.text
    table.tap(anna, lobby, "Computer 2: easy")
    assert computer(table).strategy == "heuristic" and "(normal)" in lobby.text
    # One lobby message, edited in place.
    assert len(recorder.sent(group["id"], "sendMessage")) == 1


def test_a_level_button_from_before_a_change_is_refused_and_changes_nothing(telegram, recorder):
    _group, table, anna, *_ = lobby_with_a_computer(telegram, recorder)
    lobby = table.lobby()
    old = lobby.button("Computer 2: normal")["callback_data"]
    table.tap(anna, lobby, data=old)
    again = telegram.tap(anna, lobby, old)  # a double tap, or an older copy of the lobby
    assert telegram.toast(again) == "This button is out of date."
    assert computer(table).strategy == "strong"


@pytest.mark.parametrize(
    "op",
    ["v1x", "v1", "v99n", "v0n", "vxn"],
    ids=["level", "no-level", "no-seat", "person", "seat"],
)
def test_a_forged_level_button_is_refused_with_a_clear_answer(telegram, recorder, op):
    _group, table, anna, *_ = lobby_with_a_computer(telegram, recorder)
    query = telegram.tap(anna, table.lobby(), f"l{table.game().pk}:{op}")
    assert telegram.toast(query) in (
        "This button is not valid (any more).",
        "That is not possible now.",
    )
    assert computer(table).strategy == "heuristic"


def test_only_the_creator_or_a_chat_admin_changes_a_level(telegram, recorder):
    group, table, _anna, bruno, carla = lobby_with_a_computer(telegram, recorder)
    table.tap(bruno, table.lobby(), "Join")
    refused = table.tap(bruno, table.lobby(), "Computer 2: normal")
    assert telegram.toast(refused) == "Only the game's creator or a chat administrator may do that."
    assert computer(table).strategy == "heuristic"
    recorder.admins[group["id"]] = {carla.id}
    table.tap(carla, table.lobby(), "Computer 2: normal")
    assert computer(table).strategy == "strong"


def test_a_level_button_after_the_start_is_refused(telegram, recorder, quick_hard):
    _group, table, anna, bruno, _carla = lobby_with_a_computer(telegram, recorder)
    lobby = table.lobby()
    old = lobby.button("Computer 2: normal")["callback_data"]
    table.tap(anna, lobby, data=old)  # strong
    table.tap(bruno, table.lobby(), "Join")
    table.tap(anna, table.lobby(), "Start")
    game = table.game()
    assert game.status == GameStatus.RUNNING
    refused = telegram.tap(anna, lobby, callbacks.level(game.pk, 1, "strong"))
    assert telegram.toast(refused) == "The game has already started."
    assert computer(table).strategy == "strong"
    # The table names the computer with its level.
    assert "(strong)" in table.recorder.screen(table.chat_id)[-1].text


def test_level_buttons_fit_telegrams_64_bytes():
    for level in callbacks.LEVEL_CODES:
        data = callbacks.level(999_999_999_999, 99, level)
        assert len(data.encode()) <= callbacks.MAX_BYTES
        decoded = callbacks.decode(data)
        assert callbacks.level_tapped(decoded.arg) == (99, level)


def test_every_lobby_button_fits_telegrams_64_bytes(telegram, recorder):
    _group, table, anna, *_ = lobby_with_a_computer(telegram, recorder, "cats_and_dogs")
    for level in ("easy", "normal", "hard", "hard"):
        table.tap(anna, table.lobby(), f"+ {level}")
    buttons = table.buttons(table.lobby(), "l")
    assert sum("🎚" in b["text"] for b in buttons) == 5
    assert all(len(b["callback_data"].encode()) <= 64 for b in buttons)


def test_a_computer_sits_down_at_the_level_its_add_button_names(telegram, recorder):
    group, table, anna, *_ = lobby_with_a_computer(telegram, recorder)
    query = table.tap(anna, table.lobby(), "+ hard")
    assert telegram.toast(query) == "Computer 3 joins the table at level hard."
    assert [s.strategy for s in table.game().seats.filter(player__isnull=True)] == [
        "heuristic",
        "hard",
    ]
    assert "🤖 Computer 3 (hard)" in table.lobby().text
    table.tap(anna, table.lobby(), "+ easy")
    assert table.game().seats.filter(strategy="easy").count() == 1
    assert len(recorder.sent(group["id"], "sendMessage")) == 1  # the lobby, edited in place


def test_adding_a_computer_is_the_creators_and_a_forged_level_is_refused(telegram, recorder):
    _group, table, _anna, bruno, _carla = lobby_with_a_computer(telegram, recorder)
    table.tap(bruno, table.lobby(), "Join")
    refused = table.tap(bruno, table.lobby(), "+ hard")
    assert telegram.toast(refused) == "Only the game's creator or a chat administrator may do that."
    query = telegram.tap(_anna, table.lobby(), f"l{table.game().pk}:cz")
    assert telegram.toast(query) == "This button is not valid (any more)."
    assert table.game().seats.filter(player__isnull=True).count() == 1


def test_a_game_whose_computers_have_one_level_offers_no_level_button(telegram, recorder):
    _group, table, *_ = lobby_with_a_computer(telegram, recorder, "bon_appetit")
    lobby = table.lobby()
    assert not any("🎚" in b["text"] for b in lobby.buttons)
    assert "(normal)" in lobby.text  # the everyday player is shown as normal


@pytest.mark.parametrize(
    ("language", "hard", "toast"),
    [
        ("it", "Computer 2 (forte)", "Computer 2 ora gioca al livello forte."),
        ("pt", "Computador 2 (forte)", "Computador 2 agora joga no nível forte."),
    ],
)
def test_the_level_reads_in_the_chats_and_the_players_language(
    telegram, recorder, language, hard, toast
):
    _group, table, anna, *_ = lobby_with_a_computer(telegram, recorder, language=language)
    query = table.tap(anna, table.lobby(), data=f"l{table.game().pk}:v1n")
    assert telegram.toast(query) == toast
    assert hard in table.lobby().text
