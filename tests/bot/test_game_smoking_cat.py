"""A whole Smoking Cat match: the league's word, passing with toggles, cards, throw-downs."""

from games.leagues.models import League
from games.leagues.services import issue_join_code
from games.play.models import GameStatus
from tests.bot.leaks import check_calls
from tests.bot.play import Table, answered_once


def choose(table: Table, user) -> None:
    message = table.private(user)
    toggles = table.buttons(message, "t")
    if toggles:  # passing: pick three cards one by one, then confirm
        picked = 0
        while picked < 3:
            message = table.private(user)
            unpicked = [b for b in table.buttons(message, "t") if not b["text"].startswith("✅")]
            table.tap(user, message, data=unpicked[0]["callback_data"])
            picked += 1
        message = table.private(user)
        confirm = [b for b in table.buttons(message, "g") if ":pass:" in b["callback_data"]]
        assert len(confirm) == 1, [b["text"] for b in message.buttons]
        table.tap(user, message, data=confirm[0]["callback_data"])
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
    league = League.objects.create(name="Gatti di Praga", slug="praga", game_word="CAT")
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

    # Passing: the selection is kept while choosing; a fourth card is refused.
    message = table.private(anna)
    toggles = table.buttons(message, "t")
    for button in toggles[:3]:
        table.tap(anna, table.private(anna), data=button["callback_data"])
    chosen = table.private(anna)
    assert sum(b["text"].startswith("✅") for b in chosen.buttons) == 3
    refused = table.tap(anna, chosen, data=toggles[3]["callback_data"])
    assert telegram.toast(refused)
    table.tap(anna, table.private(anna), data=toggles[0]["callback_data"])  # unselect one
    assert sum(b["text"].startswith("✅") for b in table.private(anna).buttons) == 2
    table.tap(anna, table.private(anna), data=toggles[0]["callback_data"])

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
