"""``manage.py demo`` fills a fresh install: a league whose season of games was played
through the real services, so standings, profiles and replays have something to show."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.leagues.models import League
from games.play import services
from games.play.models import Game, GameStatus, Move, MoveSource, Player
from games.ratings.models import RatedGame

pytestmark = pytest.mark.django_db(transaction=True)  # moves are processed after commit


def test_demo_plays_a_season_in_a_demo_league_and_is_idempotent(client):
    call_command("demo", games=5)
    league = League.objects.get(slug="demo")
    games = Game.objects.filter(league=league)
    assert games.filter(status=GameStatus.FINISHED).count() == 5
    assert RatedGame.objects.filter(game__in=games, rated=True).count() >= 4
    # The demo players' moves were submitted like anyone's.
    assert Move.objects.filter(game__in=games, source=MoveSource.HUMAN).exists()
    page = client.get(reverse("web:league", args=["demo"])).content.decode()
    assert "Anna" in page or "Bruno" in page
    call_command("demo", games=5)  # a second run adds nothing
    assert Game.objects.filter(league=league).count() == 5


def test_the_home_page_lists_the_games_being_played_now(client):
    anna = Player.objects.create(display_name="Anna")
    game = services.create_lobby(None, "felix", anna)
    for _n in range(2):
        services.add_computer(game, by=services.SYSTEM)
    services.start(game, by=anna)
    done = services.create_lobby(None, "felix", anna)
    services.abort(done, by=anna)
    page = client.get(reverse("web:home")).content.decode()
    assert "Playing now" in page
    assert reverse("web:table", args=[game.pk]) in page
    assert reverse("web:table", args=[done.pk]) not in page
    assert client.get("/favicon.ico").status_code == 301
