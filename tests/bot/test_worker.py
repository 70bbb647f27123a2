"""With a real Celery worker (Redis): taps are answered at once by the bot, and the
messages are brought up to date afterwards by the worker."""

import functools

from games.play.models import Game, GameStatus
from tests.waiting import wait_until

wait_for = functools.partial(wait_until, timeout=20.0, interval=0.05)


def test_the_worker_sends_the_messages_and_taps_are_answered_at_once(
    celery_worker, telegram, recorder
):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    anna.say(group, "/new bon_appetit")
    wait_for(lambda: recorder.with_button(group["id"], "l"))
    game = Game.objects.get()
    lobby = recorder.with_button(group["id"], f"l{game.pk}:")

    joined = telegram.tap(bruno, lobby, f"l{game.pk}:j")
    assert telegram.toast(joined) == "You joined the game."  # answered by the bot itself
    wait_for(lambda: "Bruno" in lobby.text)
    telegram.tap(anna, lobby, f"l{game.pk}:s")
    wait_for(lambda: recorder.with_button(group["id"], f"g{game.pk}:"))
    assert Game.objects.get().status == GameStatus.RUNNING

    table = recorder.with_button(group["id"], f"g{game.pk}:")
    mover = anna if "Anna" in table.buttons[0]["text"] else bruno
    flip = telegram.tap(mover, table, table.buttons[0]["callback_data"])
    assert telegram.toast(flip) == "Flipped!"
    wait_for(lambda: Game.objects.get().version >= 1)
    wait_for(lambda: "turns up" in recorder.with_button(group["id"], f"g{game.pk}:").text)
