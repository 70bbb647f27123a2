"""/new, the lobby buttons, who may start and cancel, players who never started the bot."""

from games.play import finish
from games.play.models import Game, GameStatus, Seat
from tests.bot.play import Table


def setup(telegram, recorder, slug="felix"):
    group = telegram.group()
    anna, bruno, carla = (telegram.user(n) for n in ("Anna", "Bruno", "Carla"))
    anna.start_bot()
    anna.say(group, f"/new {slug}")
    return group, Table(telegram, recorder, group, [anna, bruno, carla]), anna, bruno, carla


def test_new_without_a_name_offers_a_game_picker(telegram, recorder):
    group = telegram.group()
    anna = telegram.user("Anna")
    anna.say(group, "/new")
    picker = recorder.last(group["id"])
    assert len(picker.buttons) == 4
    query = anna.tap(picker, data="n:cats_and_dogs")
    assert "Come Cani e Gatti" in telegram.toast(query)
    assert Game.objects.get().game_type == "cats_and_dogs"
    lobby = recorder.last(group["id"])
    assert "2 to 6 players" in lobby.text and "Anna" in lobby.text


def test_new_in_private_or_with_an_unknown_game_opens_nothing(telegram, recorder):
    anna = telegram.user("Anna")
    anna.say(telegram.private(anna), "/new felix")
    anna.say(telegram.group(), "/new chess")
    assert not Game.objects.exists()
    assert "group" in recorder.sent(anna.id, "sendMessage")[-1].text


def test_a_second_new_in_the_same_chat_is_refused(telegram, recorder):
    group, _table, anna, *_ = setup(telegram, recorder)
    anna.say(group, "/new bon_appetit")
    assert Game.objects.count() == 1
    assert "already a game" in recorder.last(group["id"]).text


def test_join_and_leave_update_the_lobby_message_in_place(telegram, recorder):
    group, table, _anna, bruno, carla = setup(telegram, recorder)
    lobby = table.lobby()
    table.tap(bruno, lobby, "Join")
    table.tap(carla, lobby, "Join")
    assert "Bruno" in lobby.text and "Carla" in lobby.text
    table.tap(carla, lobby, "Leave")
    assert "Carla" not in lobby.text
    again = table.tap(bruno, lobby, "Join")
    assert telegram.toast(again) == "You are already at the table."
    assert len(recorder.sent(group["id"], "sendMessage")) == 1


def test_a_player_who_never_started_the_bot_gets_a_deep_link_and_blocks_the_start(
    telegram, recorder
):
    _group, table, anna, bruno, _carla = setup(telegram, recorder)
    joined = table.tap(bruno, table.lobby(), "Join")
    assert "private chat" in telegram.toast(joined)
    table.tap(anna, table.lobby(), "+ normal")
    lobby = table.lobby()
    link = [b for b in lobby.buttons if b.get("url")]
    assert link[0]["url"] == f"https://t.me/catclub_test_bot?start=g{table.game().pk}"
    assert "⚠️" in lobby.text

    refused = table.tap(anna, lobby, "Start")
    assert "Bruno" in telegram.toast(refused)
    assert table.game().status == GameStatus.LOBBY

    # Bruno follows the link: the lobby no longer warns, and the game may start.
    bruno.start_bot(f"g{table.game().pk}")
    assert "⚠️" not in table.lobby().text
    table.tap(anna, table.lobby(), "Start")
    assert table.game().status == GameStatus.RUNNING


def test_the_creator_may_seat_a_computer_instead_of_an_unreachable_player(telegram, recorder):
    _group, table, anna, bruno, carla = setup(telegram, recorder)
    table.tap(bruno, table.lobby(), "Join")
    table.tap(carla, table.lobby(), "Join")
    lobby = table.lobby()
    refused = table.tap(carla, lobby, "instead of Bruno")
    assert "creator" in telegram.toast(refused)
    table.tap(anna, lobby, "instead of Bruno")
    table.tap(anna, table.lobby(), "instead of Carla")
    assert Seat.objects.filter(player__isnull=True).count() == 2
    table.tap(anna, table.lobby(), "Start")
    assert table.game().status == GameStatus.RUNNING


def test_only_the_creator_or_a_chat_admin_may_start_or_cancel(telegram, recorder):
    group, table, _anna, bruno, carla = setup(telegram, recorder)
    bruno.start_bot()
    carla.start_bot()
    table.tap(bruno, table.lobby(), "Join")
    table.tap(carla, table.lobby(), "Join")
    refused = table.tap(bruno, table.lobby(), "Start")
    assert telegram.toast(refused) == "Only the game's creator or a chat administrator may do that."
    refused = table.tap(bruno, table.lobby(), "Cancel")
    assert table.game().status == GameStatus.LOBBY
    assert recorder.sent(method="getChatMember")  # Telegram was asked whether Bruno is an admin

    recorder.admins[group["id"]] = {carla.id}
    table.tap(carla, table.lobby(), "Cancel")
    game = Game.objects.get()
    assert game.status == GameStatus.ABORTED
    assert "cancelled" in recorder.screen(group["id"])[-1].text
    assert not recorder.screen(group["id"])[-1].buttons


def test_too_few_players_cannot_start(telegram, recorder):
    _group, table, anna, *_ = setup(telegram, recorder)
    refused = table.tap(anna, table.lobby(), "Start")
    assert telegram.toast(refused) == "This game needs 3 to 5 players."


def test_removing_a_computer_and_the_last_human_leaving(telegram, recorder):
    group, table, anna, *_ = setup(telegram, recorder, "bon_appetit")
    table.tap(anna, table.lobby(), "Add computer")
    table.tap(anna, table.lobby(), "Remove computer")
    assert not Seat.objects.filter(player__isnull=True).exists()
    table.tap(anna, table.lobby(), "Leave")
    assert Game.objects.get().status == GameStatus.ABORTED
    assert "Everyone left" in recorder.screen(group["id"])[-1].text


def test_cancel_command_stops_a_running_game(telegram, recorder):
    group, table, anna, bruno, _ = setup(telegram, recorder, "bon_appetit")
    bruno.start_bot()
    table.tap(bruno, table.lobby(), "Join")
    table.tap(anna, table.lobby(), "Start")
    bruno.say(group, "/cancel")
    assert table.game().status == GameStatus.RUNNING
    anna.say(group, "/cancel")
    game = Game.objects.get()
    assert game.status == GameStatus.ABORTED
    table_message = recorder.screen(group["id"])[1]
    assert "cancelled" in table_message.text and not table_message.buttons


def test_a_lobby_left_alone_expires(telegram, recorder):
    from datetime import timedelta

    from django.utils import timezone

    group, _table, _anna, *_ = setup(telegram, recorder)
    Game.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert finish.expire_lobbies() == 1
    lobby = recorder.screen(group["id"])[0]
    assert "expired" in lobby.text and not lobby.buttons
