"""Issue 45 in Telegram: the final result offers "Play again", which opens a new lobby of
the same game in the group with the same computers at their levels; the people join it
with a tap, as any lobby."""

from __future__ import annotations

import pytest

from games.play.models import Game, GameStatus
from tests.bot.play import Table
from tests.bot.test_game_felix import choose

pytestmark = pytest.mark.django_db(transaction=True)


def test_issue_45_the_final_result_offers_play_again(telegram, recorder):
    group = telegram.group()
    anna, bruno = telegram.user("Anna", "en"), telegram.user("Bruno", "en")
    anna.start_bot()
    bruno.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno])
    game = table.open_lobby("felix", anna, [bruno], computers=1)
    game = table.play(choose)
    assert game.status == GameStatus.FINISHED
    final = recorder.last(group["id"])
    data = f"n:felix.{game.pk}"
    # Play again first; the report button (issue 48) follows it, two people having played.
    assert [b["callback_data"] for b in final.buttons] == [data, f"R{game.pk}"]
    assert "Play again" in final.buttons[0]["text"]

    table.tap(bruno, final, data=data)
    new = Game.objects.filter(chat_id=group["id"]).exclude(pk=game.pk).get()
    assert new.status == GameStatus.LOBBY and new.game_type == "felix"
    assert new.created_by.telegram_id == bruno.id
    computers = lambda g: sorted(g.seats.filter(player=None).values_list("strategy", flat=True))  # noqa: E731
    assert computers(new) == computers(game)
    # Anna joins with a tap, as at any lobby.
    table.tap(anna, table.lobby(), data=f"l{new.pk}:j")
    assert new.seats.filter(player__telegram_id=anna.id).exists()
