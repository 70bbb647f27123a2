"""Issue 48: reporting a player in Telegram, from a finished game's final message and with
/report as a reply in a league's group; the limits; nobody learns who reported."""

import time

import pytest
from django.contrib.auth.models import Permission

from bot.reporting import final_rows
from games.leagues.models import LeagueChat, LeagueMember
from games.moderation import cases
from games.moderation.models import Case, Report
from games.play.models import GameStatus, Player
from tests.bot.play import felix_table
from tests.bot.test_game_felix import choose
from tests.factories import LeagueFactory
from tests.web.seed import finished, players


@pytest.fixture
def finished_table(telegram, recorder):
    table, _game, users = felix_table(telegram, recorder)
    game = table.play(choose)
    assert game.status == GameStatus.FINISHED
    return table, game, users


def told(recorder, user, since: int = 0) -> str:
    """Everything the bot sent or edited in the user's private chat since call ``since``."""
    return "\n".join(c.everything() for c in recorder.calls[since:] if c.chat_id == user.id)


def test_issue_48_a_report_from_the_final_message(telegram, recorder, finished_table):
    table, game, (anna, bruno, carla) = finished_table
    final = recorder.last(table.chat_id)
    assert f"R{game.pk}" in [b["callback_data"] for b in final.buttons]
    group_before = len(recorder.sent(table.chat_id, "sendMessage"))

    # Anna taps Report in the group: the bot asks her in private whom she reports.
    query = anna.tap(final, data=f"R{game.pk}")
    assert "private" in telegram.answer_to(query).params.get("text", "")
    whom = recorder.last(anna.id)
    names = [b["text"] for b in whom.buttons]
    assert sorted(names) == ["Bruno", "Carla"]
    bruno_seat = game.seats.get(player__telegram_id=bruno.id).number
    anna.tap(whom, data=f"R{game.pk}:{bruno_seat}")
    why = recorder.last(anna.id)
    assert "Bruno" in why.text
    anna.tap(why, data=f"R{game.pk}:{bruno_seat}:s")
    report = Report.objects.get()
    assert (report.reporter.telegram_id, report.reported.telegram_id) == (anna.id, bruno.id)
    assert (report.reason, report.game_id, report.source) == ("stalling", game.pk, "telegram")
    assert "Thank you" in recorder.last(anna.id).text

    # The same report again: refused, and still one.
    query = telegram.tap(anna, why, f"R{game.pk}:{bruno_seat}:c")
    assert "already" in telegram.answer_to(query).params["text"]
    assert Report.objects.count() == 1

    # Carla reports Bruno too: she is not told Anna did; Bruno hears nothing; the group
    # saw nothing more than its final message.
    since = len(recorder.calls)
    carla.tap(final, data=f"R{game.pk}")
    # (Whom she may report names everyone she played with: Anna too.)
    after_whom = len(recorder.calls)
    carla.tap(recorder.last(carla.id), data=f"R{game.pk}:{bruno_seat}")
    carla.tap(recorder.last(carla.id), data=f"R{game.pk}:{bruno_seat}:n")
    assert "Anna" not in told(recorder, carla, after_whom)
    assert Case.objects.get(player__telegram_id=bruno.id).reports.count() == 2
    assert told(recorder, bruno, since) == ""
    assert len(recorder.sent(table.chat_id, "sendMessage")) == group_before


def test_issue_48_stale_and_forged_report_buttons_are_refused(telegram, recorder, finished_table):
    table, game, (anna, _bruno, _carla) = finished_table
    final = recorder.last(table.chat_id)
    stranger = telegram.user("Zed")
    stranger.start_bot()
    query = stranger.tap(final, data=f"R{game.pk}")
    assert "finished game you played" in telegram.answer_to(query).params["text"]
    for forged in (f"R{game.pk}:9:s", f"R{game.pk}:0:x", "R999999:0:s", f"Rp{game.pk}:1:s"):
        query = telegram.tap(anna, final, forged)
        assert telegram.answer_to(query).params.get("show_alert")
    # Nobody reports themselves, even by forging their own seat.
    own = game.seats.get(player__telegram_id=anna.id).number
    query = telegram.tap(anna, final, f"R{game.pk}:{own}:s")
    assert telegram.answer_to(query).params.get("show_alert")
    assert not Report.objects.exists()


def test_issue_48_the_daily_limit_in_telegram(telegram, recorder, finished_table, settings):
    settings.REPORTS_PER_DAY = 1
    table, game, (anna, bruno, carla) = finished_table
    final = recorder.last(table.chat_id)
    seats = [game.seats.get(player__telegram_id=u.id).number for u in (bruno, carla)]
    telegram.tap(anna, final, f"R{game.pk}:{seats[0]}:s")
    query = telegram.tap(anna, final, f"R{game.pk}:{seats[1]}:s")
    assert "tomorrow" in telegram.answer_to(query).params["text"]
    assert Report.objects.count() == 1


def reply_update(telegram, user, group, target, text="/report"):
    update = telegram.message_update(user, group, text)
    update["message"]["reply_to_message"] = {
        "message_id": 42,
        "date": int(time.time()),
        "chat": group,
        "from": target.json(),
        "text": "a rude word",
    }
    return update


def test_issue_48_report_as_a_reply_in_a_league_group(telegram, recorder, db):
    league = LeagueFactory()
    group = telegram.group()
    LeagueChat.objects.create(league=league, chat_id=group["id"])
    anna, bruno = telegram.user("Anna", "it"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    bruno_player = Player.objects.get(telegram_id=bruno.id)
    LeagueMember.objects.create(league=league, player=bruno_player)
    # The league's moderator, who hears of new cases in private.
    mod = telegram.user("Mod")
    mod.start_bot()
    mod_player = Player.objects.get(telegram_id=mod.id)
    LeagueMember.objects.create(league=league, player=mod_player, is_moderator=True)

    # Not a reply: told how.
    anna.say(group, "/report")
    assert "/report" in recorder.sent(group["id"], "sendMessage")[-1].text
    telegram.deliver(reply_update(telegram, anna, group, bruno))
    why = recorder.last(anna.id)
    assert "Bruno" in why.text and "Perché" in why.text  # in Anna's language
    assert not recorder.sent(bruno.id, "sendMessage")[1:]  # Bruno's /start answer only
    anna.tap(why, data=why.buttons[0]["callback_data"])
    report = Report.objects.get()
    assert report.reported == bruno_player and report.league == league
    assert report.reason == "name" and report.game is None
    case = Case.objects.get(player=bruno_player)
    told_mod = recorder.last(mod.id)
    assert f"/admin/games/case/{case.pk}/change/" in told_mod.text
    assert "Bruno" in told_mod.text and "Anna" not in told_mod.text
    # A second report about Bruno waits on the first.
    telegram.deliver(reply_update(telegram, anna, group, bruno))
    again = recorder.last(anna.id)
    query = anna.tap(again, data=again.buttons[1]["callback_data"])
    assert telegram.answer_to(query).params.get("show_alert")
    assert Report.objects.count() == 1


def test_issue_48_report_outside_a_league_is_refused(telegram, recorder, db):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    telegram.deliver(reply_update(telegram, anna, group, bruno))
    assert "league" in recorder.sent(group["id"], "sendMessage")[-1].text
    assert not Report.objects.exists()


def test_issue_48_a_rename_shows_in_later_telegram_messages(
    telegram, recorder, finished_table, django_user_model
):
    table, game, (anna, bruno, _carla) = finished_table
    final = recorder.last(table.chat_id)
    seat = game.seats.get(player__telegram_id=bruno.id).number
    telegram.tap(anna, final, f"R{game.pk}:{seat}:n")
    staff = django_user_model.objects.create_user("casemod", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename="handle_cases"))
    staff = django_user_model.objects.get(pk=staff.pk)
    case = Case.objects.get(player__telegram_id=bruno.id)
    cases.rename(case, "Polite Cat", by=staff, reason="abusive name")
    bruno.say(telegram.private(bruno), "/start")  # Telegram still says "Bruno"
    assert Player.objects.get(telegram_id=bruno.id).display_name == "Polite Cat"
    telegram.tap(anna, final, f"R{game.pk}")
    names = [b["text"] for b in recorder.last(anna.id).buttons]
    assert "Polite Cat" in names and "Bruno" not in names


def test_issue_48_no_report_button_without_two_people(db):
    anna, bruno = players(2)
    alone = finished("felix", [anna, None, None], [1, 2, 3], rate=False)
    together = finished("felix", [anna, bruno, None], [1, 2, 3], rate=False)
    assert final_rows(alone) == []
    assert [b.data for row in final_rows(together) for b in row] == [f"R{together.pk}"]
