"""A whole Felix game played from /new to the final scores by two people and a computer."""

from games.play.models import GameStatus
from tests.bot.leaks import check_calls
from tests.bot.play import Table, answered_once


def choose(table: Table, user) -> None:
    message = table.private(user)
    actions = table.actions(message)
    if actions[0].startswith("place:"):
        table.tap(
            user,
            message,
            data=table.buttons(message, "g")[table.rng.randrange(len(actions))]["callback_data"],
        )
        return
    menus = table.buttons(message, "m")
    if menus and not getattr(table, "used_custom_bid", False):
        # The custom amount: "Other…" opens every legal bid, a page at a time.
        table.used_custom_bid = True
        table.tap(user, message, data=menus[0]["callback_data"])
        amounts = table.private(user)
        assert any(b["text"].isdigit() for b in amounts.buttons)
        table.tap(user, amounts, data=table.buttons(amounts, "g")[0]["callback_data"])
        return
    bids = [b for b in table.buttons(message, "g") if ":bid:" in b["callback_data"]]
    if bids and table.rng.random() < 0.35:
        table.tap(user, message, data=bids[0]["callback_data"])
    else:
        table.tap(
            user,
            message,
            data=next(
                b for b in table.buttons(message, "g") if b["callback_data"].endswith(":pass")
            )["callback_data"],
        )


def test_felix_is_played_from_new_to_final_scores_with_taps_only(telegram, recorder):
    group = telegram.group()
    anna, bruno = telegram.user("Anna", "en"), telegram.user("Bruno", "it")
    anna.start_bot()
    bruno.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno])
    game = table.open_lobby("felix", anna, [bruno], computers=1)

    # Each person sees their own hand and mice in private, with the cards to place.
    for user in (anna, bruno):
        private = table.private(user)
        assert "🐭" in private.text and len(table.actions(private)) == 9

    game = table.play(choose)
    assert game.status == GameStatus.FINISHED

    final = recorder.last(group["id"])
    assert f"https://catclub.example/games/{game.pk}/" in final.text
    assert "🥇" in final.text
    for seat in game.seats.all():
        assert str(game.result["scores"][seat.number]) in final.text

    # The group got the lobby, the table and the final result; the table was edited in place.
    group_sends = recorder.sent(group["id"], "sendMessage")
    assert len(group_sends) == 3
    assert len(recorder.sent(group["id"], "editMessageText")) >= 9
    answered_once(table)
    assert check_calls(recorder.calls) > 50
