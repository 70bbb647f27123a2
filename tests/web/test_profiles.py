"""A player's public page: the record per game (games, wins, win rate, average place, best
rating, streak, points or letters) and head-to-head, checked against figures worked out
here from the games' own rows; the rating in plain words; one chart line per game."""

import json
import re
from datetime import timedelta

import pytest
from django.db.models import Max
from django.urls import reverse

from games.play.models import Game, GameStatus
from games.ratings.models import RatingChange
from tests.web.seed import T0, finished, players

pytestmark = pytest.mark.django_db


def expected_record(player, game_type):
    """The player's rated games of one type straight from the game rows: each game's
    result ranks and scores at the player's seat, oldest first."""
    games = (
        Game.objects.filter(
            game_type=game_type,
            status=GameStatus.FINISHED,
            rating_decision__rated=True,
            seats__player=player,
        )
        .prefetch_related("seats")
        .order_by("finished_at", "pk")
    )
    ranks, scores, others = [], [], {}
    for game in games:
        seat_of = {s.player_id: s.number for s in game.seats.all() if s.player_id}
        mine = game.result["ranks"][seat_of[player.pk]]
        ranks.append(mine)
        scores.append(game.result["scores"][seat_of[player.pk]])
        for other, number in seat_of.items():
            if other == player.pk:
                continue
            theirs = game.result["ranks"][number]
            line = others.setdefault(other, [0, 0, 0, 0])  # games, ahead, behind, level
            line[0] += 1
            line[1 if mine < theirs else 2 if mine > theirs else 3] += 1
    return ranks, scores, others


def tail_run(ranks):
    won = ranks[-1] == 1
    n = 0
    for rank in reversed(ranks):
        if (rank == 1) != won:
            break
        n += 1
    return won, n


@pytest.fixture
def club():
    """Anna's Smoking Cat matches (letters: fewer is better) and Felix games, in a league,
    with one unrated game (computers in most seats) that must not count."""
    from tests.factories import LeagueFactory

    league = LeagueFactory(game_types=["felix", "smoking_cat"], word="MICIO")
    anna, bruno, carla, dario = people = players(4)
    at = lambda i: T0 + timedelta(days=i)  # noqa: E731
    sc = [
        ([1, 2, 3, 4], [0, 2, 4, 5]),
        ([2, 1, 3, 4], [1, 0, 2, 5]),
        ([3, 1, 1, 4], [3, 1, 1, 5]),
        ([4, 1, 2, 3], [5, 0, 2, 3]),
    ]
    for i, (ranks, letters) in enumerate(sc):
        finished("smoking_cat", people, ranks, letters, league=league, at=at(i))
    felix = [
        ([anna, bruno], [1, 2], [30, 10]),
        ([bruno, anna, carla], [2, 1, 3], [20, 40, 5]),
        ([anna, carla], [1, 1], [25, 25]),
        ([dario, anna], [2, 1], [5, 9]),
    ]
    for i, (seats, ranks, scores) in enumerate(felix):
        finished("felix", seats, ranks, scores, league=league, at=at(10 + i))
    finished("felix", [anna, None, None], [3, 1, 2], [0, 9, 9], league=league, at=at(20))
    return league, people


def record_of(response, game_type):
    return next(r for r in response.context["records"] if r.game_type == game_type)


@pytest.mark.parametrize("game_type", ["smoking_cat", "felix"])
def test_profile_figures_match_the_games(client, club, game_type):
    """Games, wins, win rate, average place, average score, best rating, streak and
    head-to-head, each against the same figure worked out from the game rows."""
    _league, people = club
    anna = people[0]
    response = client.get(reverse("web:player", args=[anna.pk]))
    assert response.status_code == 200
    ranks, scores, others = expected_record(anna, game_type)
    record = record_of(response, game_type)
    assert record.games == len(ranks)
    assert record.wins == sum(r == 1 for r in ranks)
    assert record.win_rate == pytest.approx(record.wins / len(ranks))
    assert record.mean_rank == pytest.approx(sum(ranks) / len(ranks))
    assert record.average_score == pytest.approx(sum(scores) / len(scores))
    peak = RatingChange.objects.filter(
        rating__player=anna, rating__game_type=game_type, rating__league=None
    ).aggregate(m=Max("ordinal_after"))["m"]
    assert record.peak == pytest.approx(peak)
    assert (record.streak.won, record.streak.length) == tail_run(ranks)
    assert {o.player_id: [o.games, o.ahead, o.behind, o.level] for o in record.opponents} == others


def test_profile_shows_the_record_in_words(client, club):
    """S16: Smoking Cat's average is letters (fewer is better), apart from points; the
    streak says which kind it is; the rating is explained without μ − 3σ."""
    _league, people = club
    html = client.get(reverse("web:player", args=[people[0].pk])).content.decode()
    assert "Letters per match" in html and "fewer is better" in html
    assert "Average score" in html
    # Smoking Cat: 1st, 2nd, 3rd, 4th: the last three without a win. Felix: four wins.
    assert "3 games without a win" in html and "4 wins in a row" in html
    assert "skill estimate" in html
    assert "3σ" not in html and "ordinal" not in html


def test_chart_has_one_line_per_game(client, club):
    """The overall and the league rating repeat the same games: one line per game."""
    _league, people = club
    html = client.get(reverse("web:player", args=[people[0].pk])).content.decode()
    series = json.loads(
        re.search(r'id="rating-series" type="application/json">(.*?)</script>', html, re.S)[1]
    )
    assert sorted(s["game"] for s in series) == ["felix", "smoking_cat"]
    felix = next(s for s in series if s["game"] == "felix")
    assert len(felix["points"]) == 4  # the game with two computers is not rated


def test_profile_queries_do_not_grow_with_games(client, club, django_assert_max_num_queries):
    # Six queries, and one for the completion record (issue 26).
    league, people = club
    url = reverse("web:player", args=[people[0].pk])
    with django_assert_max_num_queries(7):
        assert client.get(url).status_code == 200
    more = players(6)
    for i in range(12):
        finished("felix", [people[0], more[i % 6]], [1 + i % 2, 2 - i % 2], league=league)
        finished("smoking_cat", [people[0], *more[i % 3 : i % 3 + 3]], [1, 2, 3, 4], league=league)
    with django_assert_max_num_queries(7):
        assert client.get(url).status_code == 200


def test_a_player_without_rated_games_has_no_record(client, db):
    anna, bruno = players(2)
    finished("felix", [anna, bruno], [1, 2], rate=False)
    response = client.get(reverse("web:player", args=[anna.pk]))
    assert response.status_code == 200
    assert response.context["records"] == [] and "No rated games yet." in response.content.decode()


def test_league_standings_head_smoking_cat_averages_as_letters(client, club):
    """S16: Smoking Cat's average in the standings is letters (fewer is better), not under
    the points heading the other games use; the rating is explained in words there too."""
    league, _people = club
    html = client.get(reverse("web:league", args=[league.slug])).content.decode()
    smoking = html[html.index('id="smoking_cat"') :]
    felix = html[html.index('id="felix"') : html.index('id="smoking_cat"')]
    assert "fewer is better" in smoking and "Average score" not in smoking
    assert "Average score" in felix and "fewer is better" not in felix
    assert "skill estimate" in html and "3σ" not in html
