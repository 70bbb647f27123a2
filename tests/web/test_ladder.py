"""The computers' ladder on the web (issue 47): each level with its measured rating in
the lobbies and on the game's page, and "Play at my level" in one tap."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.play import levels
from games.play.models import Game, Player
from games.ratings import at_my_level
from games.ratings.models import Rating
from tests.ladder import FELIX, measured  # noqa: F401 (the fixture)
from tests.web.test_levels import choose, new_table, strategies

pytestmark = pytest.mark.usefixtures("measured")


def rated(player: Player, mu: float, sigma: float = 2.0, games: int = 30) -> None:
    Rating.objects.create(
        player=player, game_type="felix", mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=games
    )


@pytest.mark.django_db
def test_issue_47_the_lobby_offers_each_level_with_its_rating(client):
    game = new_table(client, "felix", ["normal"])
    html = client.get(reverse("web:table", args=[game.pk])).content.decode()
    for level, (points, _, _) in FELIX.items():
        assert f"{levels.LABELS[level]} · {points}" in html
    assert "Play at my level" in html


@pytest.mark.django_db
def test_issue_47_the_new_table_form_carries_each_games_ladder(client):
    html = client.get(reverse("web:play")).content.decode()
    assert "hard · 1720" in html  # in the felix radio's data-ladder, for the script
    assert 'name="at_my_level"' in html


@pytest.mark.django_db
def test_issue_47_play_at_my_level_seats_a_newcomer_at_normal(client):
    response = client.post(
        reverse("web:play-create"),
        {
            "game": "felix",
            "name": "Ann",
            "computers": "3",
            "level": ["hard"] * 3,
            "at_my_level": "1",
            "friends": "1",
        },
    )
    assert response.status_code == 302
    game = Game.objects.order_by("-pk").first()
    # A newcomer's 1500 is normal's: the levels the form said are overruled in one tap.
    assert strategies(game) == ["heuristic"] * 3


@pytest.mark.django_db
def test_issue_47_play_at_my_level_in_the_lobby_moves_every_computer_to_the_nearest(client):
    game = new_table(client, "felix", ["easy", "normal"])
    rated(game.created_by, mu=3 * 2 + 210 / 24)  # ordinal 8.75 shows 1710: hard's 1720 is nearest
    assert at_my_level.person_rating(game.created_by, game.kind) == 1710
    choose(client, game, level="mine")
    # Signed out of Telegram a table may have one hard computer: the level below, for both.
    assert strategies(game) == ["strong", "strong"]
    rated_low = Rating.objects.get(player=game.created_by)
    rated_low.mu = 3 * 2 - 180 / 24  # shows 1320: easy's 1300
    rated_low.save()
    choose(client, game, level="mine")
    assert strategies(game) == ["easy", "easy"]


@pytest.mark.django_db
def test_issue_47_play_at_my_level_seats_one_hard_computer_when_that_is_nearest(client):
    game = new_table(client, "felix", ["easy"])
    rated(game.created_by, mu=3 * 2 + 210 / 24)
    choose(client, game, level="mine")
    assert strategies(game) == ["hard"]


@pytest.mark.django_db
def test_issue_47_play_at_my_level_seats_a_computer_at_an_empty_table(client):
    game = new_table(client, "felix", [])
    choose(client, game, level="mine")
    assert strategies(game) == ["heuristic"]


@pytest.mark.django_db
def test_issue_47_the_games_page_shows_the_ladder_with_ratings(client):
    html = client.get(reverse("web:rules-game", args=["felix"])).content.decode()
    assert "beginner · 1100" in html and "hard · 1720" in html
    assert "Computers are never rated" in html
    other = client.get(reverse("web:rules-game", args=["bon_appetit"])).content.decode()
    assert 'id="computers"' not in other  # one computer player: no ladder


@pytest.mark.django_db
def test_issue_47_the_levels_read_in_italian_and_portuguese(client):
    game = new_table(client, "felix", ["normal"])
    url = reverse("web:table", args=[game.pk])
    it = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "principiante · 1100" in it and "forte · 1640" in it and "Gioca al mio livello" in it
    pt = client.get(url, HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    assert "difícil · 1720" in pt and "Jogar ao meu nível" in pt


@pytest.mark.django_db
def test_issue_47_the_admin_shows_a_computers_level_with_its_rating(client):
    from admin_ui.admin import rated_level

    game = new_table(client, "felix", ["hard"])
    computer = game.seats.get(player__isnull=True)
    assert rated_level(computer) == "hard · 1720"
    person = game.seats.get(player__isnull=False)
    assert rated_level(person) == "—"
