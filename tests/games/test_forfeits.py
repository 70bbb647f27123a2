"""Fair play (issue 15): a player who abandons a game is rated as last. Staying away
until the seat goes to a computer, or cancelling a running game, is a forfeit; only a
moderator's abort ends a running game without one."""

import pytest
from django.contrib.auth.models import Permission

from games.moderation import services as moderation
from games.play import errors, services
from games.play.models import AbortReason, Game, Seat
from games.ratings import service as ratings
from games.ratings.models import RatedGame, Rating
from tests.factories import PlayerFactory
from tests.web.seed import finished, players

pytestmark = pytest.mark.django_db


def ordinal(player, league=None):
    return Rating.objects.get(player=player, league=league).ordinal


def test_a_player_who_timed_out_until_a_computer_took_over_is_rated_last():
    a, b, c = players(3)
    # Bruno stayed away; the computer playing his seat went on to win the game. (Four
    # seats: his and a computer's are half of them; two of three would leave the game
    # unrated, issue 45.)
    game = finished("felix", [a, b, c, None], [2, 1, 3, 4], rate=False, replaced=(1,))
    Seat.objects.filter(game=game, number=1).update(timeouts=2)
    decision = ratings.rate_game(game.pk)
    assert decision.rated, decision.skipped
    changes = {c.rating.player_id: c.rank for c in game.rating_changes.select_related("rating")}
    # Last, 4 of 4; the others as they played (issue 45: nobody moves up past a forfeit).
    assert changes == {a.pk: 2, b.pk: 4, c.pk: 3}
    assert ordinal(a) > ordinal(c) > ordinal(b)


def test_issue_45_a_forfeit_leaving_computers_in_most_seats_is_not_rated():
    a, b = players(2)
    game = finished("felix", [a, b, None], [2, 1, 3], rate=False, replaced=(1,))
    Seat.objects.filter(game=game, number=1).update(timeouts=2)
    assert ratings.rate_game(game.pk).skipped == RatedGame.Skip.COMPUTERS


def test_a_seat_a_moderator_handed_to_a_computer_is_no_forfeit():
    a, b = players(2)
    game = finished("felix", [a, b, None], [2, 1, 3], rate=False, replaced=(1,))
    assert ratings.rate_game(game.pk).skipped == RatedGame.Skip.COMPUTERS


def test_replace_with_computer_is_not_a_forfeit_even_after_timeouts(lobby):
    game = services.start(lobby("felix", humans=3)[0], by=services.SYSTEM)
    Seat.objects.filter(game=game, number=0).update(timeouts=1)
    services.replace_with_computer(game, 0, by=services.SYSTEM)
    seat = Seat.objects.get(game=game, number=0)
    assert seat.replaced_by_computer and not seat.forfeits


def test_the_creator_who_cancels_a_running_game_forfeits_it(lobby):
    game = services.start(lobby("felix", humans=3)[0], by=services.SYSTEM)
    creator = game.created_by
    services.abort(game, by=creator)
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.abort_reason) == ("aborted", AbortReason.CANCELLED)
    decision = ratings.rate_game(game.pk)
    assert decision.rated, decision.skipped
    ranks = {c.rating.player_id: c.rank for c in game.rating_changes.select_related("rating")}
    others = [p for p in ranks if p != creator.pk]
    assert len(others) == 2 and all(ranks[p] == 1 for p in others)
    assert ranks[creator.pk] == 3  # the table's last place (issue 45: n of n)
    assert all(ordinal(creator) < ordinal(PlayerFactory._meta.model(pk=p)) for p in others)


def test_cancelling_a_lobby_is_no_forfeit(lobby):
    game, _people = lobby("felix", humans=2)
    services.abort(game, by=game.created_by)
    assert ratings.rate_game(game.pk).skipped == RatedGame.Skip.ABORTED
    assert not Seat.objects.filter(forfeited=True).exists()


def test_a_chat_admin_who_does_not_play_cannot_stop_a_running_game(lobby):
    game = services.start(lobby("felix", humans=3)[0], by=services.SYSTEM)
    with pytest.raises(errors.NotAllowed):
        services.abort(game, by=PlayerFactory(), is_chat_admin=True)
    assert Game.objects.get(pk=game.pk).status == "running"


def test_a_moderator_aborts_a_running_game_without_a_forfeit(lobby, django_user_model):
    game = services.start(lobby("felix", humans=3)[0], by=services.SYSTEM)
    mod = django_user_model.objects.create_user("mod", is_staff=True)
    mod.user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename="abort_game")
    )
    mod = django_user_model.objects.get(pk=mod.pk)
    moderation.abort(game, by=mod, reason="wrong table")
    game = Game.objects.get(pk=game.pk)
    assert game.abort_reason == AbortReason.MODERATOR
    assert ratings.rate_game(game.pk).skipped == RatedGame.Skip.ABORTED
    assert not Seat.objects.filter(forfeited=True).exists()
