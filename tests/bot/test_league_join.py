"""Fair play (issue 15): a group joins a league only with the league's approval, its join
code; a group administrator cannot link the group to any league they like."""

from bot.handlers.settings_menu import apply
from bot.models import ChatSettings
from games.leagues.models import League
from games.leagues.services import (
    issue_join_code,
    join_with_code,
    league_for_chat,
    league_for_code,
    link_chat,
    revoke_join_code,
)
from tests.bot.play import Table


def admin_group(telegram, recorder):
    group = telegram.group()
    anna = telegram.user("Anna")
    recorder.admins[group["id"]] = {anna.id}
    return group, anna


def test_a_group_admin_cannot_link_the_group_to_a_league_without_its_code(telegram, recorder):
    league = League.objects.create(name="Roma", slug="roma")
    group, anna = admin_group(telegram, recorder)
    anna.say(group, "/settings")
    table = Table(telegram, recorder, group, [anna])
    table.tap(anna, recorder.last(group["id"]), data="s:leagues")
    screen = recorder.last(group["id"])
    # The picker offers no league to pick, only how to join one.
    assert "Roma" not in str(screen.buttons) and "/settings" in screen.text
    # A button made up by hand (the old picker's data) does not link the group either.
    chat_settings = ChatSettings.objects.get(chat_id=group["id"])
    assert apply(chat_settings, "league", str(league.pk)) is None
    assert league_for_chat(group["id"]) is None


def test_the_join_code_links_the_group(telegram, recorder):
    league = League.objects.create(name="Roma", slug="roma")
    code = issue_join_code(league)
    group, anna = admin_group(telegram, recorder)
    anna.say(group, f"/settings {code.lower()}")
    assert league_for_chat(group["id"]) == league
    assert "Roma" in recorder.last(group["id"]).text


def test_a_wrong_or_retired_code_links_nothing(telegram, recorder):
    league = League.objects.create(name="Roma", slug="roma")
    old = issue_join_code(league)
    new = issue_join_code(league)
    assert old != new
    group, anna = admin_group(telegram, recorder)
    anna.say(group, f"/settings {old}")
    assert league_for_chat(group["id"]) is None
    assert "join code" in recorder.last(group["id"]).text
    revoke_join_code(league)
    assert league_for_code(new) is None


def test_only_a_group_admin_may_send_the_code(telegram, recorder):
    league = League.objects.create(name="Roma", slug="roma")
    code = issue_join_code(league)
    group, _anna = admin_group(telegram, recorder)
    bruno = telegram.user("Bruno")
    bruno.say(group, f"/settings {code}")
    assert league_for_chat(group["id"]) is None


def test_an_inactive_league_cannot_be_joined(db):
    league = League.objects.create(name="Roma", slug="roma", is_active=False)
    code = issue_join_code(league)
    assert join_with_code(-100, code) is None and league_for_chat(-100) is None


def test_a_group_leaves_its_league_in_settings(telegram, recorder):
    league = League.objects.create(name="Roma", slug="roma")
    group, anna = admin_group(telegram, recorder)
    link_chat(group["id"], league)
    anna.say(group, "/settings")
    table = Table(telegram, recorder, group, [anna])
    table.tap(anna, recorder.last(group["id"]), data="s:leagues")
    table.tap(anna, recorder.last(group["id"]), data="s:league:0")
    assert league_for_chat(group["id"]) is None
