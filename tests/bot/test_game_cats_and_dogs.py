"""A whole Come Cani e Gatti game: markers, feeding, and action cards chosen step by step."""

from bot.callbacks import decode
from games.play.models import GameStatus
from tests.bot.leaks import check_calls
from tests.bot.play import Table, answered_once


def play_action_card(table: Table, user, message) -> bool:
    """Open an action card's menu and follow its steps to a move; False if none."""
    menus = [b for b in table.buttons(message, "m") if decode(b["callback_data"]).arg]
    if not menus:
        return False
    steps = 0
    button = menus[0]
    while button["callback_data"].startswith("m"):
        table.tap(user, message, data=button["callback_data"])
        message = table.private(user)
        assert "🃏" in message.text
        choices = [b for b in message.buttons if decode(b["callback_data"]).arg]
        assert any(b["text"].startswith("‹") for b in message.buttons)  # a way back
        button = choices[0]
        steps += 1
    table.tap(user, message, data=button["callback_data"])
    table.action_steps = max(getattr(table, "action_steps", 0), steps)
    return True


def choose(table: Table, user) -> None:
    message = table.private(user)
    actions = table.actions(message)
    head = actions[0].split(":")[0]
    if head in ("mark", "feed"):
        table.tap(user, message, data=table.buttons(message, "g")[0]["callback_data"])
    elif head in ("more", "stop"):
        wanted = "more" if table.rng.random() < 0.3 else "stop"
        button = [
            b for b in table.buttons(message, "g") if b["callback_data"].endswith(":" + wanted)
        ]
        table.tap(user, message, data=button[0]["callback_data"])
    elif user.id not in table.played_cards and play_action_card(table, user, message):
        table.played_cards.add(user.id)
    else:
        draw = [b for b in table.buttons(message, "g") if b["callback_data"].endswith(":draw")]
        table.tap(user, message, data=draw[0]["callback_data"])


def test_cats_and_dogs_is_played_with_action_cards_chosen_step_by_step(telegram, recorder):
    group = telegram.group()
    anna, bruno = telegram.user("Anna", "pt"), telegram.user("Bruno", "en")
    anna.start_bot()
    bruno.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno])
    table.played_cards = set()
    table.open_lobby("cats_and_dogs", anna, [bruno])

    # Each player sees their own three action cards in private; the group sees none.
    for user in (anna, bruno):
        assert "🃏" in table.private(user).text

    game = table.play(choose)
    assert game.status == GameStatus.FINISHED
    assert table.played_cards, "nobody could play an action card"

    final = recorder.last(group["id"])
    assert f"/games/{game.pk}/" in final.text and "🥇" in final.text
    answered_once(table)
    assert check_calls(recorder.calls) > 30
