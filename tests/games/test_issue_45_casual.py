"""Issue 45, casual tables: a person alone with computers whose page is open and in sight
is never cancelled (the clock stands still while they read); a game alone with computers
is no part of the public completion record; and "Play again" seats the same table anew."""

from datetime import timedelta

import pytest
from django.core.cache import caches
from django.utils import timezone

from games.play import again, completion, errors, finish, presence, services, tasks
from games.play.models import AbortReason, Game, GameStatus, Move, MoveSource, Seat
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def alone_with_computers(lobby, run_on_commit):
    game, (anna,) = lobby("smoking_cat", humans=1, computers=3, chat_id=None)
    run_on_commit(services.start, game, anna)
    game.refresh_from_db()
    return game, anna


def browser_table(game_type, humans, computers):
    players = [PlayerFactory() for _ in range(humans)]
    game = services.create_lobby(None, game_type, players[0])
    for player in players[1:]:
        services.join(game, player, invite=game.invite)
    for _ in range(computers):
        services.add_computer(game, by=players[0])
    return game, players


def overdue(game):
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def sweep_past_the_clock(game, run_on_commit, times):
    for _ in range(times):
        overdue(game)
        run_on_commit(tasks.sweep)
        game.refresh_from_db()


def test_issue_45_a_reader_alone_with_computers_whose_page_is_in_sight_is_not_cancelled(
    lobby, run_on_commit, settings
):
    settings.TIMEOUTS_BEFORE_COMPUTER = 2
    game, anna = alone_with_computers(lobby, run_on_commit)
    seat = Seat.objects.get(game=game, player=anna)
    presence.mark(game.pk, seat.number)
    sweep_past_the_clock(game, run_on_commit, 4)
    assert game.status == GameStatus.RUNNING
    # Nothing was played for her, and her clock started again.
    assert not Move.objects.filter(game=game, source=MoveSource.TIMEOUT).exists()
    seat.refresh_from_db()
    assert seat.timeouts == 0 and not seat.replaced_by_computer
    assert game.deadline > timezone.now()


def test_issue_45_once_the_page_is_gone_the_clock_runs_and_the_table_is_cancelled(
    lobby, run_on_commit, settings
):
    settings.TIMEOUTS_BEFORE_COMPUTER = 2
    game, anna = alone_with_computers(lobby, run_on_commit)
    seat = Seat.objects.get(game=game, player=anna)
    presence.mark(game.pk, seat.number)
    sweep_past_the_clock(game, run_on_commit, 1)
    assert game.status == GameStatus.RUNNING
    # The report expires: as if the page had been hidden.
    caches["shared"].delete(f"presence:{game.pk}:{seat.number}")
    assert not presence.present(game.pk, seat.number)
    sweep_past_the_clock(game, run_on_commit, 2)
    assert game.status == GameStatus.ABORTED and game.abort_reason == AbortReason.ABANDONED


def test_issue_45_a_table_with_another_person_keeps_its_clock(run_on_commit, settings):
    """Another person waits on a late one: presence does not stop that clock."""
    settings.TIMEOUTS_BEFORE_COMPUTER = 5
    game, players = browser_table("felix", 2, 1)
    run_on_commit(services.start, game, players[0])
    game.refresh_from_db()
    for seat in game.seats.filter(player__isnull=False):
        presence.mark(game.pk, seat.number)
    version = game.version
    sweep_past_the_clock(game, run_on_commit, 1)
    assert game.version > version
    assert Move.objects.filter(game=game, source=MoveSource.TIMEOUT).exists()


def test_issue_45_a_game_alone_with_computers_is_no_part_of_the_completion_record(
    lobby, run_on_commit
):
    game, anna = alone_with_computers(lobby, run_on_commit)
    finish.abort(Game.objects.get(pk=game.pk), AbortReason.ABANDONED)
    assert completion.record(anna.pk) == completion.NONE
    # With another person at the table, the same cancellation counts against her.
    other, (bruno, _carla) = browser_table("felix", 2, 1)
    run_on_commit(services.start, other, bruno)
    finish.abort(Game.objects.get(pk=other.pk), AbortReason.ABANDONED)
    assert completion.record(bruno.pk) == completion.Completion(0, 1)


def test_issue_45_play_again_alone_starts_the_same_table_at_once(lobby, run_on_commit):
    game, (anna,) = lobby("smoking_cat", humans=1, computers=0, chat_id=None)
    for strategy in ("random", "heuristic", "random"):
        services.add_computer(game, strategy, by=anna)
    run_on_commit(services.start, game, anna)
    finish.abort(Game.objects.get(pk=game.pk), AbortReason.ABANDONED)
    new = run_on_commit(again.play_again, Game.objects.get(pk=game.pk), anna)
    assert new.pk != game.pk and new.game_type == game.game_type
    new.refresh_from_db()
    assert new.status == GameStatus.RUNNING
    old_strategies = sorted(s.strategy for s in game.seats.filter(player__isnull=True))
    new_strategies = sorted(s.strategy for s in new.seats.filter(player__isnull=True))
    assert new_strategies == old_strategies
    assert new.seats.filter(player=anna).exists()


def test_issue_45_play_again_with_friends_gathers_them_at_one_new_table(run_on_commit):
    game, (anna, bruno) = browser_table("felix", 2, 1)
    run_on_commit(services.start, game, anna)
    finish.abort(Game.objects.get(pk=game.pk), AbortReason.CANCELLED)
    first = again.play_again(Game.objects.get(pk=game.pk), bruno)
    second = again.play_again(Game.objects.get(pk=game.pk), anna)
    assert first.pk == second.pk and first.status == GameStatus.LOBBY
    assert set(first.seats.values_list("player_id", flat=True)) == {anna.pk, bruno.pk, None}
    with pytest.raises(errors.GameError):  # a stranger has no seat to take again
        again.play_again(Game.objects.get(pk=game.pk), PlayerFactory())
