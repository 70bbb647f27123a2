"""A whole Bon Appétit! game: Flip on the table for whoever must flip, then automatic."""

from django.utils import translation

from bot.models import ChatSettings
from games.play.models import GameStatus, MoveSource
from tests.bot.leaks import check_calls
from tests.bot.play import Table, answered_once, play_out_automatic_moves


def flip_button(table: Table):
    game = table.game()
    return table.recorder.with_button(table.chat_id, f"g{game.pk}:")


def test_bon_appetit_is_flipped_on_the_table_then_runs_on_its_own(telegram, recorder):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno", "it")
    recorder.admins[group["id"]] = {anna.id}
    anna.start_bot()
    bruno.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno])
    game = table.open_lobby("bon_appetit", anna, [bruno])
    seats = {table.seat_of(anna): anna, table.seat_of(bruno): bruno}

    # Nothing is private in Bon Appétit: no private game message, the Flip is on the table.
    for user in (anna, bruno):
        assert all("Bon" not in m.text for m in recorder.screen(user.id))

    for _ in range(12):
        if table.game().status != GameStatus.RUNNING:
            break
        (mover,) = table.to_act()
        other = seats[1 - mover]
        message = flip_button(table)
        assert seats[mover].first_name in message.buttons[0]["text"]
        refused = table.tap(other, message, data=message.buttons[0]["callback_data"])
        with translation.override(other.language_code):
            assert telegram.toast(refused) == translation.gettext("It is not your turn.")
        before = table.game().version
        table.tap(seats[mover], message, data=message.buttons[0]["callback_data"])
        assert table.game().version > before

    # An administrator turns on automatic flipping: the timers play the game out (each
    # sweep finds the short deadline of a forced flip and plays it).
    anna.say(group, "/settings")
    table.tap(anna, recorder.last(group["id"]), data="s:flip:1")
    assert ChatSettings.objects.get(chat_id=group["id"]).auto_play
    assert table.game().auto_play
    play_out_automatic_moves(table)
    game = table.game()
    auto = game.moves.filter(source=MoveSource.AUTO)
    assert auto.exists() and not game.moves.filter(source=MoveSource.TIMEOUT).exists()
    assert game.status == GameStatus.FINISHED

    final = recorder.last(group["id"])
    assert f"/games/{game.pk}/" in final.text and "🥇" in final.text
    assert flip_button(table) is None  # no Flip left once the game is over
    catches = [c for c in recorder.sent(group["id"], "sendMessage") if c.text.startswith("🎉")]
    assert len(catches) == sum(game.result["tokens"])
    answered_once(table)
    assert check_calls(recorder.calls) > 20
