"""A table's change token (``web.tables.change_token``) moves with every change its open
pages must show: the pages follow it (``web.live.changes``) and render again when it moves."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.play import services
from games.play.models import Game
from tests.factories import PlayerFactory
from web.tables import change_token

pytestmark = pytest.mark.django_db


def token(game: Game) -> str:
    game = Game.objects.get(pk=game.pk)
    return change_token(game, game.seats.count())


def test_a_lobby_seat_handed_to_a_computer_moves_the_token(monkeypatch):
    """The seat count stays, so only the row's ``updated_at`` can tell the pages."""
    creator, friend = PlayerFactory(), PlayerFactory()
    game = services.create_lobby(-100, "felix", creator)
    services.join(game, friend)
    before = token(game)
    later = timezone.now() + timedelta(seconds=5)
    monkeypatch.setattr(timezone, "now", lambda: later)
    number = game.seats.get(player=friend).number
    services.replace_with_computer(game, number, by=services.SYSTEM)
    assert game.seats.get(number=number).player is None
    assert token(game) != before
