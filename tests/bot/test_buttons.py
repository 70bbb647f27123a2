"""Taps that must change nothing: stale, malformed, out of turn, by a stranger or a banned
player; and private menus that must never open in a group."""

from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from bot import callbacks
from games.play import services
from games.play.models import Move, Player
from tests.bot.play import Table


def felix(telegram, recorder):
    group = telegram.group()
    anna, bruno, carla = (telegram.user(n) for n in ("Anna", "Bruno", "Carla"))
    for user in (anna, bruno, carla):
        user.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno, carla])
    table.open_lobby("felix", anna, [bruno, carla])
    return table, anna, bruno, carla


def moves():
    return Move.objects.filter(source="human").count()


def test_a_stale_button_is_out_of_date_and_changes_nothing(telegram, recorder):
    table, anna, _bruno, _carla = felix(telegram, recorder)
    old = table.private(anna)
    stale_data = old.buttons[0]["callback_data"]
    table.tap(anna, old, data=stale_data)  # places a card
    assert moves() == 1
    again = telegram.tap(anna, old, stale_data)  # the same card again, from the old message
    assert telegram.toast(again) in ("This button is out of date.", "Got it already — one moment.")
    assert moves() == 1


def test_a_tap_by_someone_not_playing_is_refused(telegram, recorder):
    table, anna, *_ = felix(telegram, recorder)
    stranger = telegram.user("Dora")
    data = table.private(anna).buttons[0]["callback_data"]
    query = telegram.tap(stranger, table.private(anna), data)
    assert telegram.toast(query) == "You are not playing in this game."
    assert moves() == 0


def test_the_player_comes_from_the_update_not_from_the_button(telegram, recorder):
    table, anna, bruno, _carla = felix(telegram, recorder)
    data = table.private(anna).buttons[0]["callback_data"]  # Anna's card...
    query = telegram.tap(bruno, table.private(anna), data)  # ...tapped by Bruno
    assert moves() in (0, 1)
    if moves():
        move = Move.objects.get()
        assert move.seat == table.seat_of(bruno)  # Bruno's own seat, never Anna's
    else:
        assert telegram.toast(query)


def test_malformed_callback_data_gets_a_short_answer(telegram, recorder):
    table, anna, *_ = felix(telegram, recorder)
    message = table.private(anna)
    for data in ("x", "g1:2", "gabc:1:pass", "g1:1:" + "x" * 50, "l1:z", "s", "m1:x:bid"):
        query = telegram.tap(anna, message, data)
        assert 0 < len(telegram.toast(query)) <= 200
    assert moves() == 0


def test_an_illegal_action_in_well_formed_data_is_refused(telegram, recorder):
    table, anna, *_ = felix(telegram, recorder)
    game = table.game()
    query = telegram.tap(anna, table.private(anna), callbacks.move(game.pk, game.version, "bid:5"))
    assert telegram.toast(query) == "That move is not possible now."
    assert moves() == 0


def test_a_banned_player_cannot_move(telegram, recorder):
    table, anna, *_ = felix(telegram, recorder)
    Player.objects.filter(telegram_id=anna.id).update(is_banned=True, banned_until=None)
    query = table.tap(
        anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"]
    )
    assert telegram.toast(query) == "You are banned from playing."
    assert moves() == 0
    Player.objects.filter(telegram_id=anna.id).update(banned_until=timezone.now())
    table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
    assert moves() == 1


def test_a_private_menu_never_opens_in_a_group_message(telegram, recorder):
    table, anna, *_ = felix(telegram, recorder)
    game = table.game()
    group_message = recorder.screen(table.chat_id)[-1]
    before = group_message.text
    query = telegram.tap(anna, group_message, callbacks.menu(game.pk, game.version, "bid"))
    assert "private chat" in telegram.toast(query)
    assert group_message.text == before


def test_out_of_turn_moves_are_refused(telegram, recorder):
    table, anna, bruno, carla = felix(telegram, recorder)
    for user in (anna, bruno, carla):
        table.tap(user, table.private(user), data=table.private(user).buttons[0]["callback_data"])
    (turn,) = table.to_act()
    waiting = next(u for u in (anna, bruno, carla) if table.seat_of(u) != turn)
    game = table.game()
    query = telegram.tap(
        waiting, table.private(waiting), callbacks.move(game.pk, game.version, "pass")
    )
    assert telegram.toast(query) == "It is not your turn."


def test_a_tap_is_answered_before_its_message_is_edited(telegram, recorder):
    """Editing may wait for the chat's send window; the tapper's answer never does."""
    anna = telegram.user("Anna")
    anna.start_bot()
    anna.say(telegram.private(anna), "/lang")
    recorder.calls.clear()
    anna.tap(recorder.last(anna.id), data="L:it")
    methods = [c.method for c in recorder.calls]
    assert methods.index("answerCallbackQuery") < methods.index("editMessageText"), methods


def test_a_move_tap_costs_two_queries_the_player_and_the_move(
    telegram, recorder, monkeypatch, postgres
):
    """Issue 16: the tap reads its player and records the move in one statement, which
    checks it against the table (the game's step is not the tap's: it runs after)."""
    table, anna, *_ = felix(telegram, recorder)
    message = table.private(anna)
    data = message.buttons[0]["callback_data"]
    monkeypatch.setattr(services, "enqueue", lambda game_id: None)
    statements = []
    execute = CursorWrapper.execute

    def counted(self, sql, params=None):
        statements.append(sql)
        return execute(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", counted)
    query = telegram.tap(anna, message, data)
    monkeypatch.setattr(CursorWrapper, "execute", execute)
    assert moves() == 1
    assert telegram.toast(query)  # the move's own answer
    assert len(statements) == 2, "\n".join(s[:120] for s in statements)
