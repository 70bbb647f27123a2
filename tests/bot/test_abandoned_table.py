"""A casual table whose only person stayed away is cancelled (issue 25): the group, the
private chats and the web table say why, in the reader's language."""

import pytest
from django.urls import reverse
from django.utils import translation

from bot.render import lobby as lobby_render
from games.play import finish, services
from games.play.models import AbortReason, Game
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def abandoned(chat_id) -> Game:
    anna = PlayerFactory()
    game = services.create_lobby(chat_id, "felix", anna)
    services.add_computer(game, by=services.SYSTEM)
    services.add_computer(game, by=services.SYSTEM)
    services.start(game, anna)
    game = Game.objects.get(pk=game.pk)
    finish.abort(game, AbortReason.ABANDONED)
    return game


def test_the_bot_says_the_only_player_stopped_playing():
    game = abandoned(-100)
    assert "its only player stopped playing" in lobby_render.cancelled(game)
    with translation.override("it"):
        assert "il suo unico giocatore ha smesso di giocare" in lobby_render.cancelled(game)


def test_the_web_table_says_so_too(client):
    game = abandoned(None)
    page = client.get(reverse("web:table", args=[game.pk])).content.decode()
    assert "its only player stopped playing" in page
