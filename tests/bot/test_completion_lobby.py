"""The completion record in the bot's lobby message, and a league's minimum refusing a
Join tap with the reason (issue 26)."""

from games.leagues.services import link_chat
from games.play.models import Player
from tests.bot.play import Table
from tests.factories import LeagueFactory
from tests.games.test_completion import done, timed_out


def test_the_lobby_shows_each_players_record(telegram, recorder):
    """issue 26: beside each name; a newcomer with no counted game shows none."""
    group = telegram.group()
    anna, bruno, carla = (telegram.user(n) for n in ("Anna", "Bruno", "Carla"))
    for user in (anna, bruno, carla):
        user.start_bot()
    a, b = (Player.objects.get(telegram_id=u.id) for u in (anna, bruno))
    for _ in range(2):
        done(a)
    done(b)
    done(b, **timed_out())
    anna.say(group, "/new felix")
    table = Table(telegram, recorder, group, [anna, bruno, carla])
    table.tap(bruno, table.lobby(), "Join")
    table.tap(carla, table.lobby(), "Join")
    lines = table.lobby().text.splitlines()
    assert any("Anna" in line and "finished 2 of 2" in line for line in lines)
    assert any("Bruno" in line and "finished 1 of 2" in line for line in lines)
    assert any("Carla" in line and "finished" not in line for line in lines)


def test_a_league_minimum_refuses_the_join_tap_with_the_reason(telegram, recorder):
    """issue 26: below the league's minimum, the tap is refused and says why."""
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    link_chat(group["id"], LeagueFactory(min_completion=90, game_types=["felix"]))
    b = Player.objects.get(telegram_id=bruno.id)
    done(b)
    done(b, **timed_out())
    anna.say(group, "/new felix")
    table = Table(telegram, recorder, group, [anna, bruno])
    query = table.tap(bruno, table.lobby(), "Join")
    assert "90%" in telegram.toast(query) and "1 of 2" in telegram.toast(query)
    assert table.game().seats.count() == 1
