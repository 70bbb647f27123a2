"""The public pages: leagues, standings, players and replays. No login, translated,
no external assets, and a bounded number of queries however much data there is."""

import json
import re

import pytest
from django.urls import reverse

from games.leagues.models import League
from tests.factories import PlayerFactory
from tests.web.seed import T0, finished, played, players, smoking_cat_match

pytestmark = pytest.mark.django_db


def replay_of(response) -> dict:
    html = response.content.decode()
    match = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S
    )
    return json.loads(match.group(1))


def test_home_and_league_list(client, seeded):
    League.objects.create(name="Closed", slug="closed", is_active=False)
    home = client.get("/")
    assert home.status_code == 200 and "Gatti di Roma" in home.content.decode()
    page = client.get(reverse("web:leagues")).content.decode()
    assert "Gatti di Roma" in page and "Milano" in page and "Closed" not in page
    assert reverse("web:league", args=["roma"]) in page


def test_league_page_standings_matches_and_recent_games(client, seeded):
    response = client.get(reverse("web:league", args=["roma"]) + "?season=all")
    assert response.status_code == 200
    html = response.content.decode()
    rows = response.context["tables"][0][2]
    assert rows[0].name == "Bruno"
    for name in ("Anna", "Bruno", "Carla", "Dario"):
        assert f">{name}</a>" in html
    assert "Smoking Cat matches in progress" in html and "MICIO" in html
    # The running match shows the word with the received letters marked (Anna: MI).
    assert '<span class="got">M</span><span class="got">I</span>' in html
    assert reverse("web:game", args=[seeded.g6.pk]) in html  # recent games
    assert "Tuesday nights at the club." in html
    assert "Bon Appétit!</h2>" not in html  # the league does not count it


def test_league_page_season_selector(client, seeded):
    url = reverse("web:league", args=["roma"])
    spring = client.get(url, {"season": seeded.spring.pk})
    assert spring.context["season"] == seeded.spring
    assert {r.name for r in spring.context["tables"][0][2]} == {"Anna", "Bruno", "Carla"}
    assert f'<option value="{seeded.spring.pk}" selected>' in spring.content.decode()
    april = client.get(url, {"season": seeded.april.pk})
    assert {r.name for r in april.context["tables"][0][2]} == {"Bruno", "Carla", "Dario"}
    assert client.get(url, {"season": "all"}).context["season"] is None


def test_unknown_pages_are_404(client, db):
    assert client.get("/leagues/nope/").status_code == 404
    assert client.get("/players/999/").status_code == 404
    assert client.get("/games/999/").status_code == 404


def test_player_page_ratings_history_and_games(client, seeded):
    response = client.get(reverse("web:player", args=[seeded.bruno.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Bruno" in html and "Gatti di Roma" in html and "Overall" in html
    series = json.loads(
        re.search(r'id="rating-series" type="application/json">(.*?)</script>', html, re.S)[1]
    )
    # One line per game (the overall rating): the league's rating repeats the same games.
    assert [s["label"] for s in series] == ["Felix: The Cat in the Sack", "Bon Appétit!"]
    assert all(s["points"] for s in series)
    assert "web/chart.js" in html
    assert reverse("web:game", args=[seeded.g3.pk]) in html


def test_finished_replay_reveals_every_hand(client, db):
    game = played("felix", players(2), 1)
    response = client.get(reverse("web:game", args=[game.pk]))
    assert response.status_code == 200
    data = replay_of(response)
    assert data["reveal"] and not data["broken"]
    assert len(data["steps"]) == game.version + 1
    first = data["steps"][0]
    assert "hand" not in first["view"]  # the public view has no hands ...
    assert all("hand" in p for p in first["private"])  # ... each seat's part has
    assert any(step.get("action") for step in data["steps"][1:])


def test_running_replay_shows_only_the_public_view(client, db):
    people = players(4)
    match = smoking_cat_match(None, people, [1, 0, 0, 0])
    response = client.get(reverse("web:game", args=[match.pk]))
    data = replay_of(response)
    assert not data["reveal"]
    text = json.dumps(data)
    for secret in ('"hand"', '"private"', '"received"', '"passed_cards"', '"action"'):
        assert secret not in text
    assert all(e["to"] is None for step in data["steps"] for e in step["events"])
    assert data["steps"][1]["moderator"] is True
    html = response.content.decode()
    assert "this is what spectators see" in html


def test_lobby_game_has_no_replay(client, db):
    from games.play import services

    lobby = services.create_lobby(-9, "felix", PlayerFactory())
    html = client.get(reverse("web:game", args=[lobby.pk])).content.decode()
    assert "has not started yet" in html and "replay-data" not in html


def test_game_page_shows_why_a_game_is_not_rated(client, seeded):
    html = client.get(reverse("web:game", args=[seeded.g4.pk])).content.decode()
    assert "Not rated" in html and "collusion" in html
    html = client.get(reverse("web:game", args=[seeded.g8.pk])).content.decode()
    assert "rain" in html


def test_names_are_escaped(client, db):
    evil = PlayerFactory(display_name='<img src=x onerror="alert(1)">')
    game = finished("felix", [evil, PlayerFactory(), None], [1, 2, 3])
    for url in (reverse("web:game", args=[game.pk]), reverse("web:player", args=[evil.pk])):
        html = client.get(url).content.decode()
        assert "<img src=x" not in html


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "Recent games"), ("it", "Partite recenti"), ("pt", "Jogos recentes")],
)
def test_pages_are_translated_from_the_browser_language(client, seeded, language, text):
    response = client.get(
        reverse("web:league", args=["roma"]), HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5"
    )
    html = response.content.decode()
    assert text in html
    assert f'<html lang="{language}">' in html


def test_language_switcher(client, seeded):
    url = reverse("web:league", args=["roma"])
    response = client.post(reverse("set_language"), {"language": "it", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert "Partite recenti" in client.get(url).content.decode()


def test_pages_use_no_external_assets(client, seeded):
    urls = [
        "/",
        reverse("web:leagues"),
        reverse("web:league", args=["roma"]),
        reverse("web:player", args=[seeded.anna.pk]),
        reverse("web:game", args=[seeded.g1.pk]),
    ]
    for url in urls:
        html = client.get(url).content.decode()
        for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert not re.match(r"^(https?:)?//", ref), (url, ref)


def test_static_assets_are_served(client, db):
    for path in ("web/site.css", "web/replay.js", "web/chart.js", "web/cat.svg"):
        from django.contrib.staticfiles import finders

        assert finders.find(path), path


# --- Query counts: the same bound with little and with much data -------------------------
def grow(league, people, n):
    """n more rated games of every kind the league counts, and running matches."""
    for i in range(n):
        finished(
            "felix", people[:3], [1, 2, 3], [3, 2, 1], league=league, at=T0.replace(day=1 + i % 27)
        )
        finished("cats_and_dogs", people[1:4], [2, 1, 3], league=league)
        finished("smoking_cat", people[:4], [1, 1, 3, 4], league=league)
    smoking_cat_match(league, [PlayerFactory() for _ in range(4)], [1, 2, 0, 0])


@pytest.mark.parametrize("n", [1, 12])
def test_query_counts_stay_bounded(client, seeded, django_assert_max_num_queries, n):
    people = [seeded.anna, seeded.bruno, seeded.carla, seeded.dario, *players(4)]
    grow(seeded.league, people, n)
    # Measured: the same with 1 and with 12 rounds of games; a new N+1 fails here.
    pages = {
        # leagues; games playing now, with their seats and players; the tournaments to come;
        # up to three boards, each a spectator's table (its seats, its moves)
        "/": 11,
        reverse("web:leagues"): 1,
        reverse(
            "web:league", args=["roma"]
        ): 12,  # with the games playing now, their seats; tournaments
        reverse("web:league", args=["roma"]) + f"?season={seeded.spring.pk}": 12,
        # player; its ratings; its rated games; their other players; its completion
        # record (issue 26); recent games, seats
        reverse("web:player", args=[seeded.anna.pk]): 7,
        reverse("web:game", args=[seeded.g1.pk]): 5,
        # A running game's page adds its live table: the seats and the latest moves.
        reverse("web:game", args=[seeded.match.pk]): 7,
    }
    for url, limit in pages.items():
        with django_assert_max_num_queries(limit):
            assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    ("game_type", "humans", "computers"),
    [("felix", 1, 2), ("smoking_cat", 1, 3), ("bon_appetit", 1, 1), ("cats_and_dogs", 1, 2)],
)
def test_every_game_replays_to_its_end(client, db, game_type, humans, computers):
    game = played(game_type, players(humans), computers)
    assert game.status == "finished"
    data = replay_of(client.get(reverse("web:game", args=[game.pk])))
    assert not data["broken"] and data["reveal"]
    assert len(data["steps"]) == game.version + 1


def test_a_finished_replay_is_computed_once(client, db, django_assert_max_num_queries):
    game = played("bon_appetit", players(1), 1)
    url = reverse("web:game", args=[game.pk])
    first = client.get(url)
    with django_assert_max_num_queries(4):  # game, seats, rating decision and changes
        second = client.get(url)
    assert replay_of(first) == replay_of(second)


def test_a_running_games_replay_is_built_once_per_version(client, db, monkeypatch):
    from games.play.models import Game
    from web import replay

    match = smoking_cat_match(None, players(4), [1, 0, 0, 0])
    assert match.status == "running"
    url = reverse("web:game", args=[match.pk])
    built = []
    build = replay.build
    monkeypatch.setattr(replay, "build", lambda g: built.append(g.version) or build(g))
    first, second = replay_of(client.get(url)), replay_of(client.get(url))
    assert first == second and built == [match.version]
    # The game moves on (a new version): its replay is built again.
    Game.objects.filter(pk=match.pk).update(version=match.version + 1)
    client.get(url)
    assert built == [match.version, match.version + 1]


def test_player_page_lists_each_seasons_rating(client, seeded):
    """Issue 15: a season's rating starts afresh; the player page keeps each season's."""
    response = client.get(reverse("web:player", args=[seeded.bruno.pk]))
    html = response.content.decode()
    assert "Gatti di Roma · Spring 2026" in html and "Gatti di Roma · April 2026" in html
    assert f"?season={seeded.spring.pk}" in html


def test_league_page_season_table_starts_afresh(client, seeded):
    response = client.get(
        reverse("web:league", args=[seeded.league.slug]), {"season": seeded.april.pk}
    )
    html = response.content.decode()
    assert "each season starts everyone afresh" in html
    assert "rated as last" in html


def test_someone_who_only_talked_to_the_bot_has_no_public_page(client, db):
    """Issue 15: a person who only sent /help is not listed under their full name."""
    lurker = PlayerFactory(display_name="Lurking Larry")
    assert client.get(reverse("web:player", args=[lurker.pk])).status_code == 404
    game = played("felix", [lurker, *players(2)], 0)
    assert game.started_at is not None
    assert client.get(reverse("web:player", args=[lurker.pk])).status_code == 200
