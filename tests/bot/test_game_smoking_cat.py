"""A whole Smoking Cat match: the league's word, passing one card at a time, cards,
throw-downs."""

from games.leagues.models import League
from games.leagues.services import issue_join_code
from games.play.models import GameStatus
from tests.bot.leaks import check_calls
from tests.bot.play import Table, answered_once


def choose(table: Table, user) -> None:
    message = table.private(user)
    passes = [b for b in table.buttons(message, "g") if ":pass:" in b["callback_data"]]
    if passes:  # passing: a tap passes a card, one at a time (three in all)
        table.tap(user, message, data=passes[0]["callback_data"])
        return
    game = table.game()
    plays = [b for b in table.buttons(message, "g") if ":play:" in b["callback_data"]]
    throw = table.buttons(message, "m")
    if game.state["deal"] >= 2 and throw:
        table.tap(user, message, data=throw[0]["callback_data"])
        confirm = table.private(user)
        assert "🏳" in confirm.buttons[0]["text"]
        table.tap(user, confirm, data=table.buttons(confirm, "g")[0]["callback_data"])
        return
    table.tap(user, message, data=plays[0]["callback_data"])


def test_smoking_cat_match_is_played_for_the_league_word(telegram, recorder):
    league = League.objects.create(name="Gatti di Praga", slug="praga", word="CAT")
    group = telegram.group()
    anna, bruno = telegram.user("Anna", "it"), telegram.user("Bruno", "pt")
    recorder.admins[group["id"]] = {anna.id}
    anna.start_bot()
    bruno.start_bot()

    # An administrator links the group to the league with its join code in /settings.
    anna.say(group, f"/settings {issue_join_code(league)}")
    table = Table(telegram, recorder, group, [anna, bruno])
    assert "Gatti di Praga" in recorder.last(group["id"]).text

    game = table.open_lobby("smoking_cat", anna, [bruno], computers=2)
    assert game.options["word"] == "CAT"

    # Passing, one card at a time (the engine's pass:<card>): once three are passed no
    # card is offered, and the message says which three went.
    first = table.private(anna)
    offered = [b for b in table.buttons(first, "g") if ":pass:" in b["callback_data"]]
    assert len(offered) == 8
    for _n in range(3):
        message = table.private(anna)
        button = next(b for b in table.buttons(message, "g") if ":pass:" in b["callback_data"])
        table.tap(anna, message, data=button["callback_data"])
    done = table.private(anna)
    assert not [b for b in table.buttons(done, "g") if ":pass:" in b["callback_data"]]
    passed = [b["text"] for b in offered[:3]]  # each tap passed the first card offered
    assert all(card in done.text for card in passed), done.text

    game = table.play(choose)
    assert game.status == GameStatus.FINISHED
    assert max(game.result["scores"]) == 3

    final = recorder.last(group["id"])
    assert "CA" in final.text or "CAT" in final.text
    assert f"/games/{game.pk}/" in final.text
    # One notice per deal (who got a letter), and the table edited in place.
    deals = game.state["deal"]
    group_sends = recorder.sent(group["id"], "sendMessage")
    notices = [c for c in group_sends if c.text.startswith("📝")]
    assert len(notices) == deals
    assert len(group_sends) == 1 + 1 + 1 + deals + 1  # settings, lobby, table, notices, final
    answered_once(table)
    assert check_calls(recorder.calls) > 50
