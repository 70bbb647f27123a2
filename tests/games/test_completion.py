"""A player's completion record (issue 26): the share of their last started games they
saw to the end, counted only against what they did themselves, in one query for any
number of players; and a league's minimum of it at the door of its games."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play import completion, errors, services
from games.play.models import AbortReason, Game, GameStatus, Seat
from tests.factories import LeagueFactory, PlayerFactory
from tests.web.seed import T0, finished

pytestmark = pytest.mark.django_db

_clock = iter(range(1, 10_000))


def at() -> dict:
    """Each game a minute later than the last, so "newest" is well defined."""
    return {"at": T0 + timedelta(minutes=next(_clock))}


def done(player, **seat) -> Game:
    """A finished game of ``player`` (seat 0) against another player."""
    game = finished("felix", [player, PlayerFactory()], [1, 2], rate=False, **at())
    if seat:
        Seat.objects.filter(game=game, number=0).update(**seat)
    return game


def aborted(player, reason: str, **seat) -> Game:
    """A started game of ``player`` that ended without a result."""
    when = at()["at"]
    game = Game.objects.create(
        game_type="felix",
        status=GameStatus.ABORTED,
        abort_reason=reason,
        seed=1,
        started_at=when,
        finished_at=when,
    )
    Seat.objects.create(game=game, number=0, player=player, **seat)
    Seat.objects.create(game=game, number=1, player=PlayerFactory())
    return game


def timed_out() -> dict:
    return {
        "replaced_by_computer": True,
        "strategy": "heuristic",
        "timeouts": settings.TIMEOUTS_BEFORE_COMPUTER,
    }


def test_finished_games_count_in_full():
    anna = PlayerFactory()
    for _ in range(3):
        done(anna)
    assert completion.record(anna.pk) == completion.Completion(3, 3)
    assert completion.record(anna.pk).percent == 100


def test_a_server_side_or_moderator_abort_does_not_lower_the_record():
    """issue 26: games the server or a moderator ended, and a seat a moderator handed to
    a computer, are not the player's doing: they do not count at all."""
    anna = PlayerFactory()
    done(anna)
    aborted(anna, AbortReason.MODERATOR)
    aborted(anna, AbortReason.MOVED)
    aborted(anna, AbortReason.CANCELLED)  # another player cancelled it
    done(anna, replaced_by_computer=True, strategy="heuristic", timeouts=0)  # a moderator
    assert completion.record(anna.pk) == completion.Completion(1, 1)


def test_leaving_or_being_replaced_lowers_the_record():
    """issue 26: cancelling a running game (a forfeit), timing out until a computer took
    the seat, and abandoning a casual table all count against the player."""
    anna = PlayerFactory()
    done(anna)
    aborted(anna, AbortReason.CANCELLED, forfeited=True)
    done(anna, **timed_out())
    aborted(anna, AbortReason.ABANDONED)
    assert completion.record(anna.pk) == completion.Completion(1, 4)
    assert completion.record(anna.pk).percent == 25


def test_only_the_last_twenty_counted_games_make_the_record():
    anna = PlayerFactory()
    for _ in range(5):
        done(anna, **timed_out())  # long ago
    for _ in range(completion.WINDOW):
        done(anna)
    assert completion.record(anna.pk) == completion.Completion(20, 20)
    done(anna, **timed_out())
    assert completion.record(anna.pk) == completion.Completion(19, 20)


def test_a_newcomer_has_no_record_and_meets_any_minimum():
    record = completion.record(PlayerFactory().pk)
    assert record == completion.NONE and record.percent is None and record.meets(100)


def test_many_players_cost_one_query():
    """issue 26: a lobby of several players asks once, not once per player."""
    people = [PlayerFactory() for _ in range(5)]
    for i, person in enumerate(people):
        for _ in range(i + 1):
            done(person)
        done(person, **timed_out())
    with CaptureQueriesContext(connection) as queries:
        got = completion.records([p.pk for p in people] + [None])
    assert len(queries) == 1
    for i, person in enumerate(people):
        assert got[person.pk] == completion.Completion(i + 1, i + 2)


def test_a_lobby_of_five_costs_what_a_lobby_of_one_does(django_assert_num_queries):
    one, five = [PlayerFactory()], [PlayerFactory() for _ in range(5)]
    for person in one + five:
        done(person)
    with django_assert_num_queries(1):
        completion.records([p.pk for p in one])
    with django_assert_num_queries(1):
        assert len(completion.records([p.pk for p in five])) == 5


# --- A league's minimum ----------------------------------------------------------------
@pytest.fixture
def strict_league():
    return LeagueFactory(min_completion=75, game_types=["felix"])


def record_of(player, finished_games: int, walked_out: int):
    for _ in range(finished_games):
        done(player)
    for _ in range(walked_out):
        done(player, **timed_out())


def test_the_league_minimum_refuses_a_player_below_it(strict_league):
    """issue 26: 2 of 4 (50%) is below the league's 75%: refused, with the figures."""
    creator, quitter = PlayerFactory(), PlayerFactory()
    game = services.create_lobby(-555, "felix", creator, league=strict_league)
    record_of(quitter, 2, 2)
    with pytest.raises(errors.CompletionTooLow) as refused:
        services.join(game, quitter)
    assert "75%" in str(refused.value) and "2 of 4" in str(refused.value)
    assert not game.seats.filter(player=quitter).exists()


def test_the_league_minimum_admits_a_player_above_it(strict_league):
    """issue 26: 4 of 5 (80%) reaches 75%; a newcomer has nothing against them."""
    creator, steady, newcomer = PlayerFactory(), PlayerFactory(), PlayerFactory()
    game = services.create_lobby(-556, "felix", creator, league=strict_league)
    record_of(steady, 4, 1)
    services.join(game, steady)
    services.join(game, newcomer)
    assert game.seats.filter(player__in=[steady, newcomer]).count() == 2


def test_the_league_minimum_also_binds_the_lobbys_creator(strict_league):
    quitter = PlayerFactory()
    record_of(quitter, 1, 3)
    with pytest.raises(errors.CompletionTooLow):
        services.create_lobby(-557, "felix", quitter, league=strict_league)


def test_without_a_minimum_anyone_joins():
    league = LeagueFactory(game_types=["felix"])
    creator, quitter = PlayerFactory(), PlayerFactory()
    record_of(quitter, 0, 5)
    game = services.create_lobby(-558, "felix", creator, league=league)
    services.join(game, quitter)
    assert game.seats.count() == 2
