"""Issue 45 on the web table: the page of a person alone with computers reports itself
while it is in sight, and every end screen (finished or cancelled) offers "Play again",
which seats the same game anew: the person and the computers at their levels."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.play import finish, presence, services
from games.play.models import AbortReason, Game, GameStatus
from tests.web.seed import _on_commit

pytestmark = pytest.mark.django_db


def table_of_one(client: Client) -> Game:
    data = {"game": "felix", "name": "Ann", "computers": "2", "level": ["easy", "normal"]}
    with _on_commit():  # the start's step runs, as after a real commit
        assert client.post(reverse("web:play-create"), data).status_code == 302
    return Game.objects.order_by("-pk").first()


def play_out(game: Game) -> Game:
    """The person plays at random to the end, each move processed as after a commit."""
    rules, rng = game.kind.rules, random.Random(3)
    person = game.seats.get(player__isnull=False)
    for step in range(5_000):
        game = Game.objects.get(pk=game.pk)
        if game.status != GameStatus.RUNNING:
            return game
        state = rules.load(game.state)
        assert person.number in rules.to_act(state)
        action = rng.choice(rules.legal_actions(state, person.number))
        with _on_commit():
            services.submit_move(game.pk, person.player, action, f"t{step}", game.version)
    raise AssertionError("the game did not finish")


def levels_of(game: Game) -> list[str]:
    return sorted(game.seats.filter(player__isnull=True).values_list("strategy", flat=True))


def test_issue_45_the_table_page_reports_itself_and_only_for_its_seat(client):
    game = table_of_one(client)
    page = client.get(reverse("web:table", args=[game.pk])).content.decode()
    url = reverse("web:table-present", args=[game.pk])
    assert f'data-present="{url}"' in page and "web/presence.js" in page
    # A spectator's page has no seat to report.
    assert "data-present" not in Client().get(reverse("web:table", args=[game.pk])).content.decode()
    seat = game.seats.get(player__isnull=False).number
    assert not presence.present(game.pk, seat)
    assert Client().post(url).status_code == 204  # a stranger: answered alike, noted nowhere
    assert not presence.present(game.pk, seat)
    assert client.post(url).status_code == 204
    assert presence.present(game.pk, seat)


def test_issue_45_a_finished_table_offers_play_again_with_the_same_seats(client):
    game = table_of_one(client)
    game = play_out(game)
    assert game.status == GameStatus.FINISHED
    page = client.get(reverse("web:table", args=[game.pk])).content.decode()
    again = reverse("web:table-again", args=[game.pk])
    assert f'action="{again}"' in page and "Play again" in page
    # A spectator's table offers nothing of the kind.
    assert (
        f'action="{again}"'
        not in Client().get(reverse("web:table", args=[game.pk])).content.decode()
    )
    with _on_commit():
        response = client.post(again)
    assert response.status_code == 302
    new = Game.objects.order_by("-pk").first()
    assert response["Location"] == reverse("web:table", args=[new.pk])
    assert new.pk != game.pk and new.game_type == game.game_type
    assert new.status == GameStatus.RUNNING
    assert levels_of(new) == levels_of(game)
    assert (
        new.seats.get(player__isnull=False).player_id
        == game.seats.get(player__isnull=False).player_id
    )


def test_issue_45_a_cancelled_table_offers_play_again_too(client):
    game = table_of_one(client)
    finish.abort(Game.objects.get(pk=game.pk), AbortReason.ABANDONED)
    page = client.get(reverse("web:table", args=[game.pk])).content.decode()
    assert f'action="{reverse("web:table-again", args=[game.pk])}"' in page


def test_issue_45_the_profile_counts_only_games_with_other_people(client):
    game = table_of_one(client)
    finish.abort(Game.objects.get(pk=game.pk), AbortReason.ABANDONED)
    ann = game.seats.get(player__isnull=False).player
    page = client.get(reverse("web:player", args=[ann.pk])).content.decode()
    assert "Finished 0 of their last 1 games" not in page and 'id="completion"' not in page
    # With a friend at the table, the game counts, and the page says which games do.
    with _on_commit():
        data = {"game": "felix", "name": "Ann", "computers": "1", "friends": "1"}
        assert client.post(reverse("web:play-create"), data).status_code == 302
    lobby = Game.objects.order_by("-pk").first()
    friend = Client()
    join = {"invite": lobby.invite, "name": "Bea"}
    assert friend.post(reverse("web:table-join", args=[lobby.pk]), join).status_code == 302
    with _on_commit():
        assert client.post(reverse("web:table-start", args=[lobby.pk])).status_code == 302
    finish.abort(Game.objects.get(pk=lobby.pk), AbortReason.ABANDONED)
    page = client.get(reverse("web:player", args=[ann.pk])).content.decode()
    assert "Finished 0 of their last 1 games" in page
    assert "Only games with other people at the table count" in page
