"""The completion record where people see it (issue 26): a player's page and the seats
of a browser lobby; the league's minimum, editable in the admin."""

import pytest
from django.urls import reverse

from admin_ui.forms import LeagueForm
from games.play import services
from tests.factories import LeagueFactory, PlayerFactory
from tests.games.test_completion import aborted, done, timed_out

pytestmark = pytest.mark.django_db


def test_the_player_page_shows_the_record(client):
    """issue 26: two finished, one walked out of; a moderator's abort does not count."""
    anna = PlayerFactory()
    done(anna)
    done(anna)
    done(anna, **timed_out())
    aborted(anna, "moderator")
    html = client.get(reverse("web:player", args=[anna.pk])).content.decode()
    assert 'id="completion"' in html
    assert "Finished 2 of their last 3 games (67%)." in html


def test_a_player_without_counted_games_shows_no_record(client):
    anna = PlayerFactory()
    aborted(anna, "moderator")  # started, so the page exists; nothing counted
    html = client.get(reverse("web:player", args=[anna.pk])).content.decode()
    assert 'id="completion"' not in html


def test_the_browser_lobby_shows_each_players_record(client, django_assert_max_num_queries):
    """issue 26: beside each name, in one query for every seat."""
    anna, bruno = PlayerFactory(), PlayerFactory()
    done(anna)
    for _ in range(3):
        done(bruno)
    done(bruno, **timed_out())
    game = services.create_lobby(None, "felix", anna)
    services.join(game, bruno, invite=game.invite)
    url = reverse("web:table", args=[game.pk])
    html = client.get(url).content.decode()
    assert "finished 1 of 1" in html and "finished 3 of 4" in html
    with django_assert_max_num_queries(8) as two:
        client.get(url)
    for _ in range(2):
        services.join(game, PlayerFactory(), invite=game.invite)
    with django_assert_max_num_queries(len(two.captured_queries)):
        client.get(url)  # four seats: no more queries than two


def test_the_league_minimum_is_edited_in_the_admin(admin_client):
    league = LeagueFactory(game_types=["felix"])
    page = admin_client.get(reverse("admin:games_league_change", args=[league.pk]))
    assert 'name="min_completion"' in page.content.decode()
    data = {
        "name": league.name,
        "slug": league.slug,
        "game_types": ["felix"],
        "word": "GATTO",
        "computer_level": league.computer_level,
        "is_active": "on",
    }
    form = LeagueForm({**data, "min_completion": "80"}, instance=league)
    assert form.is_valid(), form.errors
    assert form.save().min_completion == 80
    assert not LeagueForm({**data, "min_completion": "120"}, instance=league).is_valid()
    form = LeagueForm({**data, "min_completion": ""}, instance=league)
    assert form.is_valid() and form.save().min_completion is None
