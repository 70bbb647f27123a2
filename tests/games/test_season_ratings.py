"""Fair play (issue 15): ratings per season. A season's table starts everyone afresh; the
league's all-time rating runs on; past seasons keep their tables."""

from datetime import date

import pytest
from openskill.models import PlackettLuce

from games.leagues.models import Season
from games.moderation.services import _redecide
from games.play.models import Game
from games.ratings import service as ratings
from games.ratings import standings
from games.ratings.models import RatedGame, Rating
from tests.factories import LeagueFactory
from tests.web.seed import T0, finished, players

pytestmark = pytest.mark.django_db
OS = PlackettLuce()


def at(month, day):
    return T0.replace(month=month, day=day)


def test_a_new_season_starts_everyone_afresh_and_the_old_one_is_kept():
    league = LeagueFactory()
    march = Season.objects.create(
        league=league, name="March", starts_on=date(2026, 3, 1), ends_on=date(2026, 3, 31)
    )
    april = Season.objects.create(league=league, name="April", starts_on=date(2026, 4, 1))
    a, b = players(2)
    for day in (2, 3, 4):
        finished("felix", [a, b, None], [1, 2, 3], league=league, at=at(3, day))
    finished("felix", [a, b, None], [2, 1, 3], league=league, at=at(4, 2))

    in_april = {r.player_id: r for r in Rating.objects.filter(season=april)}
    fresh = [t[0] for t in OS.rate([[OS.rating()], [OS.rating()]], ranks=[2, 1])]
    assert in_april[a.pk].ordinal == pytest.approx(fresh[0].ordinal())
    assert in_april[b.pk].ordinal == pytest.approx(fresh[1].ordinal())
    assert in_april[b.pk].ordinal > in_april[a.pk].ordinal and in_april[a.pk].games == 1
    # The all-time table runs on: Anna still leads after her three March wins.
    all_time = standings.table(league, "felix")
    assert [row.player_id for row in all_time] == [a.pk, b.pk]
    assert [row.player_id for row in standings.table(league, "felix", april)] == [b.pk, a.pk]
    # March keeps its table.
    past = standings.table(league, "felix", march)
    assert [(row.player_id, row.games) for row in past] == [(a.pk, 3), (b.pk, 3)]
    assert RatedGame.objects.filter(season=march).count() == 3


def test_a_game_outside_every_season_counts_all_time_only():
    league = LeagueFactory()
    Season.objects.create(league=league, name="April", starts_on=date(2026, 4, 1))
    a, b = players(2)
    finished("felix", [a, b, None], [1, 2, 3], league=league, at=at(3, 2))
    assert Rating.objects.filter(league=league, season=None).count() == 2
    assert not Rating.objects.filter(season__isnull=False).exists()


def test_flagging_a_game_rebuilds_its_season():
    league = LeagueFactory()
    spring = Season.objects.create(league=league, name="Spring", starts_on=date(2026, 3, 1))
    a, b = players(2)
    game = finished("felix", [a, b, None], [1, 2, 3], league=league, at=at(3, 2))
    finished("felix", [a, b, None], [2, 1, 3], league=league, at=at(3, 3))
    Game.objects.filter(pk=game.pk).update(flagged_not_rated=True)
    _redecide(Game.objects.get(pk=game.pk))
    rows = {r.player_id: r for r in Rating.objects.filter(season=spring)}
    assert rows[a.pk].games == 1 and rows[b.pk].ordinal > rows[a.pk].ordinal


def test_a_season_added_later_collects_its_games():
    league = LeagueFactory()
    a, b = players(2)
    finished("felix", [a, b, None], [1, 2, 3], league=league, at=at(3, 2))
    spring = Season.objects.create(league=league, name="Spring", starts_on=date(2026, 3, 1))
    assert standings.table(league, "felix", spring) == []
    assert ratings.rebuild_season(spring) == 1
    assert [row.player_id for row in standings.table(league, "felix", spring)] == [a.pk, b.pk]
    # Its dates move past the game: the game leaves it.
    spring.starts_on = date(2026, 3, 5)
    spring.save()
    assert ratings.rebuild_season(spring) == 0
    assert standings.table(league, "felix", spring) == []


def test_the_migration_builds_the_tables_of_existing_seasons(transactional_db):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("games", "0007_league_join_code")], [("games", "0009_season_ratings_data")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    League, Season = old.get_model("games", "League"), old.get_model("games", "Season")
    Player, Game = old.get_model("games", "Player"), old.get_model("games", "Game")
    Seat, RatedGame = old.get_model("games", "Seat"), old.get_model("games", "RatedGame")
    league = League.objects.create(name="Roma", slug="roma", game_types=["felix"])
    Season.objects.create(league=league, name="Spring", starts_on=date(2026, 3, 1))
    a, b = (Player.objects.create(display_name=n, telegram_id=i + 1) for i, n in enumerate("AB"))
    for day, ranks in ((2, [1, 2, 3]), (3, [2, 1, 3]), (4, [1, 2, 3])):
        game = Game.objects.create(
            game_type="felix",
            chat_id=-day,
            league=league,
            status="finished",
            started_at=at(3, day),
            finished_at=at(3, day),
            result={"ranks": ranks, "scores": [0, 0, 0]},
        )
        for number, player in enumerate([a, b, None]):
            Seat.objects.create(
                game=game, number=number, player=player, strategy="" if player else "heuristic"
            )
        RatedGame.objects.create(game=game, rated=True, skipped="", league=league)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    rows = new.get_model("games", "Rating").objects.filter(season__isnull=False)
    assert sorted(rows.values_list("player_id", "games")) == [(a.pk, 3), (b.pk, 3)]
    expected = OS.rating(), OS.rating()
    for ranks in ([1, 2], [2, 1], [1, 2]):
        expected = [t[0] for t in OS.rate([[expected[0]], [expected[1]]], ranks=ranks)]
    assert rows.get(player_id=a.pk).ordinal == pytest.approx(expected[0].ordinal())
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
