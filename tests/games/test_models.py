"""The database itself enforces the core invariants, not just Python."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from games.languages import from_telegram
from games.leagues.models import League
from games.play.models import Game, Move, Player, Seat
from tests.factories import (
    GameFactory,
    LeagueFactory,
    MoveFactory,
    PlayerFactory,
    RunningGameFactory,
    SeatFactory,
)

pytestmark = pytest.mark.django_db


def violates(fn) -> bool:
    try:
        with transaction.atomic():
            fn()
    except IntegrityError:
        return True
    return False


def test_telegram_id_is_unique_and_64_bit():
    big = 2**62
    PlayerFactory(telegram_id=big)
    assert Player.objects.get(telegram_id=big)
    assert violates(lambda: PlayerFactory(telegram_id=big))
    assert violates(lambda: PlayerFactory(telegram_id=-5))


def test_language_must_be_known():
    assert violates(lambda: PlayerFactory(language="xx"))


def test_language_from_telegram_tags():
    assert from_telegram("pt-br") == "pt"
    assert from_telegram("it") == "it"
    assert from_telegram("de") == "en"
    assert from_telegram(None) == "en"


def test_one_open_game_per_chat():
    GameFactory(chat_id=-42)
    assert violates(lambda: GameFactory(chat_id=-42))
    # Finished and aborted games do not count.
    Game.objects.filter(chat_id=-42).update(status="finished", started_at="2026-01-01T00:00Z")
    GameFactory(chat_id=-42)
    assert Game.objects.filter(chat_id=-42).count() == 2


def test_unknown_status_is_refused_by_the_database():
    assert violates(lambda: GameFactory(status="paused"))
    assert violates(lambda: GameFactory(status="running", started_at=None))


def test_seats_are_unique_per_number_and_player():
    seat = SeatFactory(number=0)
    assert violates(lambda: SeatFactory(game=seat.game, number=0))
    assert violates(lambda: SeatFactory(game=seat.game, number=1, player=seat.player))
    SeatFactory(game=seat.game, number=1)
    assert seat.game.seats.count() == 2


def test_a_computer_seat_needs_a_strategy():
    game = GameFactory()
    assert violates(lambda: Seat.objects.create(game=game, number=0, player=None))
    cpu = Seat.objects.create(game=game, number=0, player=None, strategy="heuristic")
    assert cpu.is_computer
    human = SeatFactory(game=game, number=1)
    assert not human.is_computer
    human.replaced_by_computer = True
    assert violates(human.save)


def test_move_keys_are_unique_per_game_and_applied_moves_numbered():
    game = RunningGameFactory()
    MoveFactory(game=game, key="u1")
    assert violates(lambda: MoveFactory(game=game, key="u1"))
    MoveFactory(key="u1")  # another game may reuse the key
    assert violates(lambda: MoveFactory(game=game, key="u2", status="applied", seq=None))
    assert violates(lambda: MoveFactory(game=game, key="u3", status="pending", seq=1))
    MoveFactory(game=game, key="u4", status="applied", seq=1)
    assert violates(lambda: MoveFactory(game=game, key="u5", status="applied", seq=1))
    assert Move.objects.filter(Q(game=game) & Q(status="applied")).count() == 1


def test_league_word_is_checked():
    league = LeagueFactory(word="micio")
    league.refresh_from_db()
    assert league.word == "MICIO"
    assert violates(lambda: LeagueFactory(word="ab"))
    assert violates(lambda: League.objects.filter(pk=league.pk).update(word="X" * 2))


def test_an_unknown_game_type_fails_validation():
    """Game types come from the catalog (which a migration cannot follow), so the model's
    validation refuses them, and the services before it (``UnknownGameType``)."""
    game = GameFactory.build(game_type="poker", chat_id=-1)
    with pytest.raises(ValidationError) as caught:
        game.full_clean(exclude=["league", "created_by"])
    assert "game_type" in caught.value.message_dict
    GameFactory.build(game_type="felix", chat_id=-1).full_clean(exclude=["league", "created_by"])
