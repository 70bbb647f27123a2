"""Ratings: openskill Plackett–Luce updates per game, overall and per league; unrated
games skipped; every change kept; idempotent and safe when games finish together."""

import itertools
import threading

import pytest
from django.db import connection
from openskill.models import PlackettLuce

from games.leagues.models import LeagueMember
from games.play.models import Game
from games.ratings import service as ratings
from games.ratings import tasks as ratings_tasks
from games.ratings.maths import Placing, Played, Skill, fold, update
from games.ratings.models import RatedGame, Rating, RatingChange
from tests.factories import LeagueFactory, PlayerFactory
from tests.web.seed import T0, finished, played, players

pytestmark = pytest.mark.django_db
OS = PlackettLuce()


def flat(pairs):
    return [x for pair in pairs for x in pair]


def openskill_after(ranks, start=None):
    """What openskill itself says, computed here without games.ratings."""
    teams = [[OS.rating(*(start[i] if start else (25.0, 25 / 3)))] for i in range(len(ranks))]
    return [(t[0].mu, t[0].sigma) for t in OS.rate(teams, ranks=ranks)]


@pytest.mark.parametrize(
    "ranks",
    [
        [1, 2],
        [2, 1],
        [1, 1],
        [1, 2, 3],
        [1, 1, 3],
        [3, 1, 1],
        [1, 2, 3, 4],
        [1, 2, 2, 4],
        [1, 1, 1, 4],
        [2, 1, 3, 5, 4],
        [1, 1, 3, 3, 5],
        [1, 2, 3, 4, 5, 6],
        [6, 5, 4, 3, 2, 1],
        [1, 1, 1, 1, 1, 1],
        [4, 1, 1, 4, 3, 4],
    ],
)
def test_update_is_openskill_plackett_luce_with_ties(ranks):
    after = update([Skill()] * len(ranks), ranks)
    expected = openskill_after(ranks)
    assert flat((s.mu, s.sigma) for s in after) == pytest.approx(flat(expected))
    # Tied seats end equal. (Between different places openskill's tie formula is not
    # always monotonic, e.g. [1, 1, 3, 4, 4, 4]: that is the library's arithmetic.)
    for i, a in enumerate(after):
        assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
        for j, b in enumerate(after):
            if ranks[i] == ranks[j]:
                assert (a.mu, a.sigma) == pytest.approx((b.mu, b.sigma))
    if len(set(ranks)) > 1:
        best = min(range(len(ranks)), key=ranks.__getitem__)
        worst = max(range(len(ranks)), key=ranks.__getitem__)
        assert after[best].mu > 25 > after[worst].mu


def test_update_needs_two_players():
    with pytest.raises(ValueError, match="two or more players"):
        update([Skill()], [1])


def test_fold_chains_games_from_the_previous_ratings():
    games = [
        Played(1, T0, (Placing(10, 1), Placing(11, 2), Placing(12, 3))),
        Played(2, T0, (Placing(12, 1), Placing(10, 2))),
    ]
    skills, counts, changes = fold(games)
    first = openskill_after([1, 2, 3])
    second = openskill_after([1, 2], start=[first[2], first[0]])
    assert (skills[12].mu, skills[12].sigma) == pytest.approx(second[0])
    assert (skills[10].mu, skills[10].sigma) == pytest.approx(second[1])
    assert (skills[11].mu, skills[11].sigma) == pytest.approx(first[1])
    assert counts == {10: 2, 11: 1, 12: 2}
    assert [(c.game_id, c.placing.player_id) for c in changes] == [
        (1, 10),
        (1, 11),
        (1, 12),
        (2, 12),
        (2, 10),
    ]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_finished_game_rates_every_player_overall_and_in_its_league(n):
    league = LeagueFactory()
    people = players(n)
    ranks = [1, 1, *range(3, n + 1)][:n]
    game = finished("bon_appetit", people, ranks, [10 * (n - i) for i in range(n)], league=league)
    expected = openskill_after(ranks)
    for scope in (None, league):
        rows = {r.player_id: r for r in Rating.objects.filter(league=scope)}
        assert len(rows) == n
        for player, (mu, sigma), rank in zip(people, expected, ranks, strict=True):
            rating = rows[player.pk]
            assert (rating.mu, rating.sigma) == pytest.approx((mu, sigma))
            assert rating.ordinal == pytest.approx(mu - 3 * sigma)
            assert rating.games == 1
            change = rating.changes.get()
            assert (change.game_id, change.rank) == (game.pk, rank)
            assert change.mu_before == 25.0 and change.mu_after == pytest.approx(mu)
    decision = RatedGame.objects.get(game=game)
    assert decision.rated and decision.league == league
    assert set(LeagueMember.objects.values_list("player_id", flat=True)) == {p.pk for p in people}


def test_ratings_carry_over_and_history_is_kept():
    a, b, c = players(3)
    finished("felix", [a, b, c], [1, 2, 3], at=T0)
    finished("felix", [c, a], [1, 2], at=T0.replace(day=3))
    rating = Rating.objects.get(player=a, league=None, game_type="felix")
    assert rating.games == 2
    history = list(rating.changes.order_by("played_at"))
    assert [h.rank for h in history] == [1, 2]
    assert history[1].mu_before == pytest.approx(history[0].mu_after)
    assert history[1].ordinal_after == pytest.approx(rating.ordinal)
    # Different games keep different ratings.
    finished("smoking_cat", [a, b, c, PlayerFactory()], [1, 2, 2, 4])
    assert Rating.objects.filter(player=a, league=None).count() == 2


def test_league_counts_only_its_game_types():
    league = LeagueFactory(game_types=["felix"])
    a, b = players(2)
    finished("bon_appetit", [a, b], [1, 2], league=league)
    assert not Rating.objects.filter(league=league).exists()
    assert Rating.objects.filter(league=None).count() == 2
    assert RatedGame.objects.get().league is None
    finished("felix", [a, b], [2, 1], league=league)
    assert Rating.objects.filter(league=league, game_type="felix").count() == 2


@pytest.mark.parametrize(
    ("seats", "fields", "skip"),
    [
        ("HHHH", {"status": "aborted", "result": None}, "aborted"),
        ("HHHH", {"flagged_not_rated": True, "not_rated_reason": "collusion"}, "flagged"),
        ("HCC", {}, "computers"),
        ("HHCCC", {}, "computers"),
        ("HRHRR", {}, "computers"),  # players who walked away: their seats are computers
        ("HC", {}, "too_few"),
        ("HHHH", {"result": {"scores": [1, 2, 3, 4]}}, "no_result"),
    ],
)
def test_unrated_games_are_skipped(seats, fields, skip):
    people = [None if s == "C" else PlayerFactory() for s in seats]
    replaced = tuple(i for i, s in enumerate(seats) if s == "R")
    game = finished(
        "felix" if len(seats) > 2 else "bon_appetit",
        people,
        list(range(1, len(seats) + 1)),
        rate=False,
        replaced=replaced,
    )
    Game.objects.filter(pk=game.pk).update(**fields)
    ratings_tasks.rate_game(game.pk)
    decision = RatedGame.objects.get(game=game)
    assert (decision.rated, decision.skipped) == (False, skip)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_half_computers_is_rated_and_only_humans_are():
    a, b = players(2)
    finished("felix", [a, None, b, None], [3, 1, 2, 4], league=None)
    assert {r.player_id for r in Rating.objects.all()} == {a.pk, b.pk}
    # The humans are rated between themselves, in the order the table placed them.
    expected = openskill_after([3, 2])
    got = [Rating.objects.get(player=p) for p in (a, b)]
    assert flat((r.mu, r.sigma) for r in got) == pytest.approx(flat(expected))
    assert got[1].ordinal > got[0].ordinal


def test_running_and_lobby_games_are_not_decided():
    a, b = players(2)
    game = finished("felix", [a, b, None], [1, 2, 3], rate=False)
    Game.objects.filter(pk=game.pk).update(status="running", finished_at=None)
    assert ratings.rate_game(game.pk) is None
    assert ratings.rate_game(10**9) is None
    assert not RatedGame.objects.exists()


def test_rating_is_idempotent_when_the_task_is_delivered_twice():
    a, b, c = players(3)
    game = finished("felix", [a, b, c], [1, 2, 3], rate=False)
    ratings_tasks.rate_game(game.pk)
    first = list(Rating.objects.values_list("mu", "sigma", "games"))
    ratings_tasks.rate_game(game.pk)
    ratings.rate_game(game.pk)
    assert list(Rating.objects.values_list("mu", "sigma", "games")) == first
    assert RatingChange.objects.count() == 3


def test_a_real_game_is_rated_by_the_game_finished_task():
    league = LeagueFactory()
    people = players(2)
    game = played("felix", people, 1, league=league, humans_play=True, seed=3)
    assert game.status == "finished"
    decision = RatedGame.objects.get(game=game)
    assert decision.rated and decision.league == league
    ranks = game.result["ranks"]
    numbers = dict(game.seats.filter(player__isnull=False).values_list("player_id", "number"))
    for scope in (None, league):
        for player in people:
            change = RatingChange.objects.get(rating__player=player, rating__league=scope)
            assert change.rank == ranks[numbers[player.pk]]


def test_computer_played_game_is_not_rated():
    game = played("bon_appetit", players(2), 2)
    assert game.status == "finished"
    assert RatedGame.objects.get(game=game).skipped == "computers"


def test_flagging_a_rated_game_rebuilds_later_ratings_without_it():
    league = LeagueFactory()
    a, b, c = players(3)
    g1 = finished("felix", [a, b, c], [1, 2, 3], league=league, at=T0)
    g2 = finished("felix", [b, c, a], [1, 2, 3], league=league, at=T0.replace(day=4))
    g3 = finished("felix", [c, a], [1, 2], league=league, at=T0.replace(day=5))
    before = {r.pk: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}

    Game.objects.filter(pk=g2.pk).update(flagged_not_rated=True)
    ratings.redecide(g2)
    skills, counts, _ = fold(
        [
            Played(g1.pk, T0, (Placing(a.pk, 1), Placing(b.pk, 2), Placing(c.pk, 3))),
            Played(g3.pk, T0, (Placing(c.pk, 1), Placing(a.pk, 2))),
        ]
    )
    for scope in (None, league):
        for player in (a, b, c):
            rating = Rating.objects.get(player=player, league=scope)
            assert (rating.mu, rating.sigma) == pytest.approx(
                (skills[player.pk].mu, skills[player.pk].sigma)
            )
            assert rating.games == counts[player.pk]
    assert not RatingChange.objects.filter(game=g2).exists()
    assert RatedGame.objects.get(game=g2).skipped == "flagged"

    Game.objects.filter(pk=g2.pk).update(flagged_not_rated=False)
    ratings.redecide(g2)
    after = {r.pk: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert after.keys() == before.keys()
    for pk, values in before.items():
        assert after[pk] == pytest.approx(values)


def test_rebuild_drops_ratings_left_without_games():
    a, b = players(2)
    game = finished("felix", [a, b, None], [1, 2, 3])
    Game.objects.filter(pk=game.pk).update(flagged_not_rated=True)
    ratings.redecide(game)
    assert not Rating.objects.exists()


@pytest.mark.services
def test_two_games_finishing_together_for_the_same_player_both_count(transactional_db, postgres):
    """Two workers rate two games of the same players at the same moment: row locks make
    the second wait for the first, so neither update is lost."""
    a, b, c = players(3)
    games = [
        finished("felix", [a, b, c], [1, 2, 3], rate=False),
        finished("felix", [a, c, b], [2, 1, 3], rate=False),
        finished("felix", [b, a, c], [1, 3, 2], rate=False),
    ]
    barrier = threading.Barrier(len(games))
    failures = []

    def rate(game_id):
        try:
            barrier.wait()
            ratings_tasks.rate_game(game_id)
            ratings_tasks.rate_game(game_id)  # and a redelivery
        except Exception as exc:  # pragma: no cover - reported below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=rate, args=(g.pk,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not failures
    for player in (a, b, c):
        rating = Rating.objects.get(player=player, league=None)
        assert rating.games == 3
        chain = list(rating.changes.order_by("id"))
        for prev, nxt in itertools.pairwise(chain):
            assert nxt.mu_before == pytest.approx(prev.mu_after)
        assert chain[-1].mu_after == pytest.approx(rating.mu)
    assert RatingChange.objects.count() == 9
