"""Difficulty levels (issue 14): a lobby computer's level, and the level of a seat handed
to a computer mid-game (its league's, normal outside leagues)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import catalog
from games.moderation import services as moderation
from games.play import errors, levels, processing, services
from games.play.models import GameStatus, Seat
from games.play.table import Table
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db


def overdue_until_handed_over(game, settings):
    for _ in range(settings.TIMEOUTS_BEFORE_COMPUTER):
        game.refresh_from_db()
        if game.status != GameStatus.RUNNING:
            return
        game.deadline = timezone.now() - timedelta(seconds=1)
        game.save(update_fields=["deadline"])
        processing.process(game.pk, timeout_version=game.version)


def person(game) -> int:
    """A person's seat (the start shuffles the seats)."""
    return game.seats.filter(player__isnull=False).first().number


class Recording:
    """A hard player that remembers the seats it played for (the easy one underneath)."""

    needs_history = False

    def __init__(self, inner):
        self.inner, self.views = inner, []

    def choose(self, view, legal, rng, history=()):
        self.views.append(view)
        return self.inner.choose(view, legal, rng)


def test_a_lobby_computer_changes_level_and_plays_at_it(lobby, run_on_commit, monkeypatch):
    found = catalog.get("cats_and_dogs").strategies()
    hard = Recording(found["easy"])
    monkeypatch.setitem(found, "hard", hard)
    game, (anna,) = lobby("cats_and_dogs", humans=1, computers=1)
    seat = game.seats.get(player__isnull=True)
    assert levels.level_of(seat.strategy) == "normal"
    services.set_computer_level(game, seat.number, "hard", by=anna, current="normal")
    seat.refresh_from_db()
    assert seat.strategy == "hard"
    run_on_commit(services.start, game, anna)
    for _ in range(20):  # the person plays until the computer has had a turn
        game.refresh_from_db()
        if hard.views or game.status != GameStatus.RUNNING:
            break
        legal = Table(game).legal(game.seats.get(player=anna).number)
        run_on_commit(services.submit_move, game.pk, anna, legal[0], f"k{game.version}")
    assert hard.views  # the seat's level played it


def test_a_level_change_from_an_older_screen_or_another_player_is_refused(lobby):
    game, (anna, bruno) = lobby("felix", humans=2, computers=1)
    number = game.seats.get(player__isnull=True).number
    with pytest.raises(errors.NotAllowed):
        services.set_computer_level(game, number, "hard", by=bruno)
    with pytest.raises(errors.StaleButton):
        services.set_computer_level(game, number, "hard", by=anna, current="easy")
    with pytest.raises(errors.GameError):  # a person's seat has no level
        services.set_computer_level(game, 0, "hard", by=anna)
    with pytest.raises(errors.GameError):
        services.set_computer_level(game, number, "genius", by=anna)
    assert levels.level_of(game.seats.get(number=number).strategy) == "normal"


def test_normal_is_stored_as_the_everyday_player_and_levels_read_back():
    felix = catalog.get("felix")
    # The ladder (issue 47), weakest first; the first three names kept their players.
    assert levels.offered(felix) == ["beginner", "easy", "normal", "strong", "hard"]
    assert levels.offered(catalog.get("bon_appetit")) == []  # one computer player only
    assert levels.strategy_for(felix, "normal") == felix.default_strategy == "heuristic"
    assert levels.strategy_for(felix, "hard") == "hard"
    assert levels.strategy_for(felix, "genius") == "heuristic"
    assert [levels.level_of(s) for s in ("easy", "heuristic", "hard", "random")] == [
        "easy",
        "normal",
        "hard",
        None,
    ]
    assert [levels.next_level(x) for x in ("easy", "normal", "strong", "hard")] == [
        "normal",
        "strong",
        "hard",
        "beginner",
    ]


def test_a_seat_handed_over_after_timeouts_plays_at_its_leagues_level(
    lobby, run_on_commit, settings, quick_hard
):
    settings.TIMEOUTS_BEFORE_COMPUTER = 1
    league = LeagueFactory(computer_level="hard")
    game, (anna, _bruno) = lobby("smoking_cat", humans=2, computers=2, league=league)
    run_on_commit(services.start, game, anna)
    overdue_until_handed_over(game, settings)
    replaced = Seat.objects.filter(game=game, replaced_by_computer=True)
    assert replaced.exists()
    assert {s.strategy for s in replaced} == {"hard"}


def test_a_single_late_move_is_played_at_the_leagues_level(lobby, run_on_commit, monkeypatch):
    """A person who misses one deadline (not yet handed over) gets the league's level for
    that move too, not the everyday player."""
    found = catalog.get("felix").strategies()
    hard = Recording(found["easy"])
    monkeypatch.setitem(found, "hard", hard)
    league = LeagueFactory(computer_level="hard")
    game, (anna, _bruno) = lobby("felix", humans=2, computers=1, league=league)
    run_on_commit(services.start, game, anna)
    game.refresh_from_db()
    late = Table(game).to_act()[0]
    assert not game.seats.get(number=late).is_computer
    game.deadline = timezone.now() - timedelta(seconds=1)
    game.save(update_fields=["deadline"])
    processing.process(game.pk, timeout_version=game.version)
    assert [view["seat"] for view in hard.views][:1] == [late]
    assert not Seat.objects.get(game=game, number=late).replaced_by_computer


def test_outside_leagues_a_handed_over_seat_plays_normal(lobby, run_on_commit):
    game, (anna, _bruno) = lobby("felix", humans=2, computers=1)
    run_on_commit(services.start, game, anna)
    seat = services.replace_with_computer(game, person(game), by=services.SYSTEM)
    assert seat.replaced_by_computer and levels.level_of(seat.strategy) == "normal"


def test_a_moderators_handover_takes_the_leagues_level(lobby, run_on_commit, django_user_model):
    league = LeagueFactory(computer_level="easy")
    game, (anna, _bruno) = lobby("felix", humans=2, computers=1, league=league)
    run_on_commit(services.start, game, anna)
    moderator = django_user_model.objects.create_superuser("mod", "mod@example.com", "pw")
    number = person(game)
    action = moderation.seat_to_computer(game, number, by=moderator, reason="left the chat")
    assert Seat.objects.get(game=game, number=number).strategy == "easy"
    assert action.details["strategy"] == "easy"


def test_a_new_league_hands_seats_to_normal_computers():
    assert LeagueFactory().computer_level == "normal"
