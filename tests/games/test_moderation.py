"""Moderator actions as services: each needs its permission and a reason, does its work
through games.services, and leaves an audit record (who, what, when, why)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from games.moderation import services as moderation
from games.moderation.models import ModerationAction
from games.play import errors, services
from games.play.models import AbortReason, Game, Move
from games.play.result import Termination
from games.ratings.models import Rating, RatingChange
from tests.factories import LeagueFactory, PlayerFactory
from tests.web.seed import _on_commit, finished, letters_of, players, smoking_cat_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    """A staff account with every moderation permission."""
    user = django_user_model.objects.create_user("mod", password="pw", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="games",
            codename__in=[
                "ban_player",
                "abort_game",
                "replace_seat",
                "flag_game",
                "adjust_letters",
            ],
        )
    )
    return django_user_model.objects.get(pk=user.pk)  # fresh permission cache


@pytest.fixture
def staff(django_user_model):
    """A staff account without moderation permissions."""
    return django_user_model.objects.create_user("helper", password="pw", is_staff=True)


def running_felix(humans=2, computers=1):
    people = players(humans)
    with _on_commit():
        game = services.create_lobby(-555, "felix", people[0])
        for p in people[1:]:
            services.join(game, p)
        for _ in range(computers):
            services.add_computer(game, by=services.SYSTEM)
        game = services.start(game, by=services.SYSTEM)
    return Game.objects.get(pk=game.pk), people


def test_ban_hands_running_seats_to_computers_and_leaves_lobbies(moderator):
    game, (anna, bob) = running_felix()
    lobby = services.create_lobby(-556, "bon_appetit", bob)
    services.join(lobby, anna)
    until = timezone.now() + timedelta(days=7)
    with _on_commit():
        entry = moderation.ban(anna, by=moderator, reason="abusive chat", until=until)
    anna.refresh_from_db()
    assert anna.banned_now and anna.ban_reason == "abusive chat" and anna.banned_until == until
    seat = game.seats.get(player=anna)
    assert seat.replaced_by_computer and seat.is_computer
    assert not lobby.seats.filter(player=anna).exists()
    assert (entry.kind, entry.actor, entry.actor_name, entry.player) == (
        "ban",
        moderator,
        "mod",
        anna,
    )
    assert entry.reason == "abusive chat"
    assert entry.details["seats_to_computer"] == [[game.pk, seat.number]]
    assert entry.details["lobbies_left"] == [lobby.pk]
    assert entry.created_at is not None
    # Their taps are refused from now on.
    with pytest.raises(errors.Banned):
        services.create_lobby(-557, "felix", anna)


def test_ban_needs_permission_reason_and_a_future_end(moderator, staff):
    anna = PlayerFactory()
    with pytest.raises(PermissionDenied):
        moderation.ban(anna, by=staff, reason="x")
    with pytest.raises(moderation.ReasonRequired):
        moderation.ban(anna, by=moderator, reason="   ")
    with pytest.raises(moderation.BanEndsInPast):
        moderation.ban(anna, by=moderator, reason="x", until=timezone.now() - timedelta(1))
    anna.refresh_from_db()
    assert not anna.is_banned
    assert not ModerationAction.objects.exists()


def test_unban(moderator, staff):
    anna = PlayerFactory(is_banned=True, ban_reason="spam")
    with pytest.raises(PermissionDenied):
        moderation.unban(anna, by=staff, reason="appeal")
    entry = moderation.unban(anna, by=moderator, reason="appeal accepted")
    anna.refresh_from_db()
    assert not anna.is_banned and anna.ban_reason == ""
    assert entry.kind == "unban" and entry.details["ban_reason"] == "spam"
    with pytest.raises(moderation.NotBanned):
        moderation.unban(anna, by=moderator, reason="again")


def test_abort_with_reason(moderator, staff):
    game, _ = running_felix()
    with pytest.raises(PermissionDenied):
        moderation.abort(game, by=staff, reason="x")
    entry = moderation.abort(game, by=moderator, reason="wrong table")
    game.refresh_from_db()
    assert (game.status, game.abort_reason, game.abort_note) == (
        "aborted",
        AbortReason.MODERATOR,
        "wrong table",
    )
    assert (entry.kind, entry.game, entry.reason) == ("abort", game, "wrong table")
    with pytest.raises(errors.GameOver):
        moderation.abort(game, by=moderator, reason="again")
    assert ModerationAction.objects.count() == 1


def test_seat_to_computer(moderator, staff):
    game, (anna, _bob) = running_felix()
    number = game.seats.get(player=anna).number
    with pytest.raises(PermissionDenied):
        moderation.seat_to_computer(game, number, by=staff, reason="afk")
    with _on_commit():
        entry = moderation.seat_to_computer(game, number, by=moderator, reason="afk")
    assert game.seats.get(number=number).replaced_by_computer
    assert (entry.kind, entry.seat, entry.player) == ("seat_to_computer", number, anna)
    with pytest.raises(moderation.SeatIsComputer):
        moderation.seat_to_computer(game, number, by=moderator, reason="again")
    cpu = game.seats.get(player__isnull=True).number
    with pytest.raises(moderation.SeatIsComputer):
        moderation.seat_to_computer(game, cpu, by=moderator, reason="x")


def test_flag_and_unflag_a_finished_game(moderator, staff):
    league = LeagueFactory()
    a, b, c = players(3)
    game = finished("felix", [a, b, c], [1, 2, 3], league=league)
    assert RatingChange.objects.filter(game=game).count() == 6
    with pytest.raises(PermissionDenied):
        moderation.flag_not_rated(game, by=staff, reason="x")
    entry = moderation.flag_not_rated(game, by=moderator, reason="collusion")
    game.refresh_from_db()
    assert game.flagged_not_rated and game.not_rated_reason == "collusion"
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert entry.kind == "flag_not_rated"
    with pytest.raises(moderation.AlreadyFlagged):
        moderation.flag_not_rated(game, by=moderator, reason="x")
    moderation.unflag_not_rated(game, by=moderator, reason="cleared")
    assert RatingChange.objects.filter(game=game).count() == 6
    with pytest.raises(moderation.NotFlagged):
        moderation.unflag_not_rated(game, by=moderator, reason="x")
    kinds = list(ModerationAction.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["flag_not_rated", "unflag_not_rated"]


def test_flagging_a_running_game_keeps_it_out_when_it_finishes(moderator):
    game, _ = running_felix()
    moderation.flag_not_rated(game, by=moderator, reason="smurfing")
    Game.objects.filter(pk=game.pk).update(
        status="finished", finished_at=timezone.now(), result={"ranks": [1, 2, 3]}
    )
    from games.ratings import service as ratings

    assert ratings.rate_game(game.pk).skipped == "flagged"


def test_S17_award_and_remove_letters(moderator, staff):
    league = LeagueFactory(word="MICIO")
    people = players(4)
    game = smoking_cat_match(league, people, [0, 0, 0, 0])
    with pytest.raises(PermissionDenied):
        moderation.game_move(game, 1, "award_letter", by=staff, reason="renege")
    with _on_commit():
        entry = moderation.game_move(game, 1, "award_letter", by=moderator, reason="renege")
    assert letters_of(game)[1] == "M"
    assert entry.details["letter"] == "M" and entry.seat == 1
    move = Move.objects.get(pk=entry.details["move"])
    assert (move.source, move.note, move.status) == ("moderator", "renege", "applied")
    with _on_commit():
        moderation.game_move(game, 1, "remove_letter", by=moderator, reason="appeal")
    assert letters_of(game)[1] == ""
    with pytest.raises(
        moderation.ModerationError, match="Seat 1 has no letter to remove"
    ) as refused:
        moderation.game_move(game, 1, "remove_letter", by=moderator, reason="x")
    assert refused.value.code == "no_letter"  # the game's own refusal (S17)
    assert ModerationAction.objects.count() == 2


def test_S17_a_completed_word_ends_the_match(moderator):
    people = players(4)
    game = smoking_cat_match(LeagueFactory(word="CAT"), people, [2, 1, 0, 0])
    seat = dict(game.seats.values_list("player_id", "number"))
    with _on_commit():
        moderation.game_move(
            game, seat[people[0].pk], "award_letter", by=moderator, reason="third renege"
        )
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.result["losers"] == [seat[people[0].pk]]
    # S16: fewer letters is better, ties share the place.
    places = [game.result["ranks"][seat[p.pk]] for p in people]
    assert places == [4, 3, 1, 1]
    # S17: the moderator's letter ended it, and the stored result says so.
    assert game.result["termination"] == "moderator"
    assert game.outcome.termination == Termination.MODERATOR
    # The match counts like any other: it was rated when it finished.
    assert RatingChange.objects.filter(game=game).count() == 8
    with pytest.raises(moderation.NotRunning):
        moderation.game_move(game, 1, "award_letter", by=moderator, reason="too late")


def test_letters_only_in_smoking_cat(moderator):
    game, _ = running_felix()
    with pytest.raises(moderation.NoSuchMove):
        moderation.game_move(game, 0, "award_letter", by=moderator, reason="x")


def test_S17_a_second_award_counts_the_first_one_still_pending(moderator):
    """Two awards in a row, the first not yet applied by the processor (its task still in
    the queue): the second names the next letter of the word, not the same one again."""
    people = players(4)
    game = smoking_cat_match(LeagueFactory(word="MICIO"), people, [0, 0, 0, 0])
    first = moderation.game_move(
        game, 1, "award_letter", by=moderator, reason="renege"
    )  # not applied
    assert Move.objects.get(pk=first.details["move"]).status == "pending"
    second = moderation.game_move(game, 1, "award_letter", by=moderator, reason="again")
    assert (first.details["letter"], second.details["letter"]) == ("M", "I")
    assert second.details["letters_before"] == "M"
