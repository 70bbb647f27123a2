"""Finding things on the public site (issue 17): the game archive with its filters, the
player list with its search, each game's leaderboard across leagues, the games playing
now in a league. Every list is paged by keyset and runs a fixed number of queries."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.play import services
from games.play.models import Game
from games.ratings import standings
from games.ratings.models import Rating
from tests.factories import LeagueFactory, PlayerFactory
from tests.web.seed import T0, finished, players, smoking_cat_match

pytestmark = pytest.mark.django_db

ARCHIVE = reverse("web:games")


def game_ids(response) -> list[int]:
    return [line.game.pk for line in response.context["games"]]


# --- The archive ---------------------------------------------------------------------------
def test_archive_lists_the_games_that_started_newest_first(client, seeded):
    lobby = services.create_lobby(-77, "felix", seeded.elena)
    ids = game_ids(client.get(ARCHIVE))
    started = Game.objects.filter(started_at__isnull=False).order_by("-started_at", "-pk")
    assert ids == list(started.values_list("pk", flat=True))
    assert lobby.pk not in ids  # a lobby's seats are nobody's business
    assert seeded.match.pk in ids and seeded.g8.pk in ids  # running and aborted games too


def test_archive_shows_results_and_badges(client, seeded):
    html = client.get(ARCHIVE).content.decode()
    assert reverse("web:game", args=[seeded.g1.pk]) in html
    assert f'href="{reverse("web:table", args=[seeded.match.pk])}">playing now' in html
    assert ">aborted</span>" in html and ">not rated</span>" in html


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"game": "bon_appetit"}, ["g6"]),
        ({"league": "milano"}, ["other_match", "g7"]),
        ({"status": "aborted"}, ["g8"]),
        ({"status": "running", "league": "roma"}, ["match"]),
        ({"since": "2026-04-06", "until": "2026-04-08"}, ["g6", "g5", "g4"]),
        ({"game": "felix", "league": "roma", "until": "2026-03-31"}, ["g2", "g1"]),
    ],
)
def test_archive_filters(client, seeded, params, expected):
    response = client.get(ARCHIVE, params)
    assert response.status_code == 200
    assert game_ids(response) == [getattr(seeded, name).pk for name in expected]
    # The form shows the filters that are on, and a way to clear them.
    assert "Clear the filters" in response.content.decode()


def test_archive_filters_by_player(client, seeded):
    response = client.get(ARCHIVE, {"player": seeded.dario.pk})
    assert game_ids(response) == [seeded.match.pk, seeded.g8.pk, seeded.g4.pk, seeded.g3.pk]
    html = response.content.decode()
    assert f'<a href="{reverse("web:player", args=[seeded.dario.pk])}">Dario</a>' in html
    # The filter stays on when another one is chosen, and can be taken off on its own.
    assert f'name="player" value="{seeded.dario.pk}"' in html
    assert 'class="remove" href="?"' in html


def test_archive_never_names_someone_who_only_sat_in_a_lobby(client, seeded):
    """Issue 15: only players of a started table are public; the filter refuses others."""
    services.create_lobby(-78, "felix", seeded.elena)
    response = client.get(ARCHIVE, {"player": seeded.elena.pk})
    html = response.content.decode()
    assert "Elena" not in html
    assert response.context["form"].errors["player"]
    assert len(game_ids(response)) == 10  # the invalid filter is left out, not applied


def test_archive_refuses_an_end_before_the_start(client, seeded):
    response = client.get(ARCHIVE, {"since": "2026-04-10", "until": "2026-04-01"})
    assert "The end date is before the start date." in response.content.decode()
    assert response.context["form"].errors["until"]


def test_archive_refuses_a_cursor_that_is_not_a_number(client, seeded):
    # Malformed parameters are a 400 saying which (issue 25), not a silent first page.
    response = client.get(ARCHIVE, {"after": "1; drop table"}, HTTP_ACCEPT="text/html")
    assert response.status_code == 400 and "“after”" in response.content.decode()
    assert client.get(ARCHIVE, {"before": "-3"}).status_code == 400


def many_games(n: int, league=None) -> list[Game]:
    people = players(3)
    return [
        finished("felix", people, [1, 2, 3], league=league, at=T0 + timedelta(hours=i), rate=False)
        for i in range(n)
    ]


def test_archive_pages_follow_each_other_with_the_filters(client, db):
    league = LeagueFactory(slug="big")
    games = many_games(60, league)
    many_games(3)  # outside the league
    newest_first = [g.pk for g in reversed(games)]
    first = client.get(ARCHIVE, {"league": "big"})
    assert game_ids(first) == newest_first[:25]
    page = first.context["page"]
    assert page.before is None and page.after_url == f"?league=big&after={newest_first[24]}"
    second = client.get(ARCHIVE + page.after_url)
    assert game_ids(second) == newest_first[25:50]
    third = client.get(ARCHIVE + second.context["page"].after_url)
    assert game_ids(third) == newest_first[50:]
    assert third.context["page"].after is None
    # Back again, page by page.
    back = client.get(ARCHIVE + third.context["page"].before_url)
    assert game_ids(back) == newest_first[25:50]
    back = client.get(ARCHIVE + back.context["page"].before_url)
    assert game_ids(back) == newest_first[:25] and back.context["page"].before is None
    html = second.content.decode()
    assert 'rel="prev"' in html and 'rel="next"' in html


def test_archive_pages_break_ties_of_equal_start_times(client, db):
    people = players(2)
    same = [finished("felix", [*people, None], [1, 2, 3], at=T0, rate=False) for _ in range(30)]
    ids = [g.pk for g in sorted(same, key=lambda g: -g.pk)]
    first = client.get(ARCHIVE)
    second = client.get(ARCHIVE + first.context["page"].after_url)
    assert game_ids(first) + game_ids(second) == ids


@pytest.mark.parametrize("n", [2, 40])
def test_list_pages_run_a_fixed_number_of_queries(client, seeded, django_assert_max_num_queries, n):
    many_games(n, seeded.league)
    for _ in range(n):
        finished("felix", players(3), [1, 2, 3], league=seeded.other)
    later = Game.objects.order_by("-started_at", "-pk").values_list("pk", flat=True)[10]
    pages = {
        # the form's leagues, the games, their seats (and the player filtered on)
        ARCHIVE: 3,
        ARCHIVE + "?game=felix&league=roma&status=finished&since=2026-01-01": 3,
        ARCHIVE + f"?player={seeded.anna.pk}&after={later}": 4,
        ARCHIVE + f"?before={later}": 3,
        reverse("web:players"): 1,
        reverse("web:players") + "?q=ann": 1,
        reverse("web:leaderboard-game", args=["felix"]): 2,  # the ratings; the first's place
        reverse("web:league", args=["roma"]): 12,  # as before, the games playing now, tournaments
    }
    for url, limit in pages.items():
        with django_assert_max_num_queries(limit):
            assert client.get(url).status_code == 200, url


# --- Players -------------------------------------------------------------------------------
PLAYERS = reverse("web:players")


def names(response) -> list[str]:
    return [p.display_name for p in response.context["page"].items]


def test_player_list_shows_everyone_who_played_a_to_z(client, seeded):
    response = client.get(PLAYERS)
    listed = names(response)
    assert listed[:4] == ["Anna", "Bruno", "Carla", "Dario"]
    assert "Elena" not in listed  # never sat at a table that started
    assert listed == sorted(listed, key=str.lower)
    html = response.content.decode()
    assert f'href="{reverse("web:player", args=[seeded.anna.pk])}"' in html
    anna = next(p for p in response.context["page"].items if p.pk == seeded.anna.pk)
    assert anna.n_games == 7 and "7 games" in html


def test_player_search_is_case_insensitive(client, seeded):
    PlayerFactory(display_name="anna lurking")  # never played: not found
    finished("felix", [PlayerFactory(display_name="JOANNA"), *players(2)], [1, 2, 3])
    assert names(client.get(PLAYERS, {"q": "ANN"})) == ["Anna", "JOANNA"]
    assert names(client.get(PLAYERS, {"q": "  ann "})) == ["Anna", "JOANNA"]
    response = client.get(PLAYERS, {"q": "zzz"})
    assert names(response) == [] and "Nobody’s name contains “zzz”." in response.content.decode()


def test_player_list_pages_keep_the_search(client, db):
    people = [PlayerFactory(display_name=f"Micio {i:02d}") for i in range(30)]
    for i in range(0, 30, 3):
        finished("felix", people[i : i + 3], [1, 2, 3], rate=False)
    first = client.get(PLAYERS, {"q": "micio"})
    assert names(first) == [f"Micio {i:02d}" for i in range(25)]
    assert first.context["page"].after_url.startswith("?q=micio&after=")
    second = client.get(PLAYERS + first.context["page"].after_url)
    assert names(second) == [f"Micio {i:02d}" for i in range(25, 30)]


# --- Leaderboards --------------------------------------------------------------------------
def test_leaderboard_follows_the_overall_ratings(client, seeded):
    response = client.get(reverse("web:leaderboard-game", args=["felix"]))
    rows = response.context["page"].items
    overall = Rating.objects.filter(league=None, game_type="felix").order_by("-ordinal")
    assert [r.pk for r in rows] == [r.pk for r in overall]
    assert all(r.league_id is None for r in rows)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert rows[0].wins == overall[0].changes.filter(rank=1).count()
    html = response.content.decode()
    assert f'href="{reverse("web:player", args=[rows[0].player_id])}"' in html
    assert 'aria-current="page"' in html


def test_leaderboard_counts_games_of_every_league(client, seeded):
    """Bruno's Felix games in Roma and in Milano make his one overall rating."""
    response = client.get(reverse("web:leaderboard-game", args=["felix"]))
    bruno = next(r for r in response.context["page"].items if r.player_id == seeded.bruno.pk)
    assert bruno.games == 4  # g1, g2, g3 in Roma, g7 in Milano


def test_leaderboard_shares_places_across_pages(client, db):
    """Equal ratings share a place (1, 1, 3), also when the tie spans two pages."""
    people = players(30)
    for i, p in enumerate(people):
        ordinal = 100.0 - min(i, 24) if i < 26 else 100.0 - i  # the 25th and 26th tie
        Rating.objects.create(player=p, game_type="felix", mu=ordinal + 3, sigma=1, ordinal=ordinal)
    url = reverse("web:leaderboard-game", args=["felix"])
    first = client.get(url)
    rows = first.context["page"].items
    assert [r.rank for r in rows[:3]] == [1, 2, 3] and rows[-1].rank == 25
    second = client.get(url + first.context["page"].after_url).context["page"].items
    assert second[0].rank == 25 and second[0].ordinal == rows[-1].ordinal
    assert [r.rank for r in second[1:]] == [27, 28, 29, 30]


def big_league(n_players: int):
    """A league with ``n_players`` rated in Felix, one game each against two others."""
    league = LeagueFactory(slug="big", game_types=["felix"])
    people = players(n_players)
    for i in range(0, n_players, 3):
        trio = (people * 2)[i : i + 3]
        finished("felix", trio, [1, 2, 3], [30, 20, 10], league=league, at=T0 + timedelta(hours=i))
    return league


def test_league_page_shows_the_top_and_links_the_whole_table(client, db):
    """Issue 17: a league of many players shows the top 20 of a table; its leaderboard,
    paged, is the whole table in the same order."""
    league = big_league(30)
    response = client.get(reverse("web:league", args=["big"]), {"season": "all"})
    (kind, _name, top, more), *_ = response.context["tables"]
    whole = standings.table(league, "felix")
    assert kind == "felix" and more and len(whole) == 30
    assert [r.player_id for r in top] == [r.player_id for r in whole[:20]]
    link = reverse("web:leaderboard-game", args=["felix"]) + "?league=big"
    assert f'href="{link}"' in response.content.decode()
    first = client.get(link)
    second = client.get(
        reverse("web:leaderboard-game", args=["felix"]) + first.context["page"].after_url
    )
    rows = first.context["page"].items + second.context["page"].items
    # The same places (players tied on a rating share one, in either order).
    assert {r.player_id: r.rank for r in rows} == {r.player_id: r.rank for r in whole}
    assert [r.rank for r in rows] == [r.rank for r in whole]
    assert "The league's games count." in first.content.decode()


def test_a_small_leagues_table_has_no_link_to_more(client, seeded):
    html = client.get(reverse("web:league", args=["roma"])).content.decode()
    assert "The whole table" not in html


def test_a_seasons_leaderboard_is_its_table(client, seeded):
    url = reverse("web:leaderboard-game", args=["felix"])
    response = client.get(url, {"league": "roma", "season": seeded.spring.pk})
    rows = response.context["page"].items
    table = standings.table(seeded.league, "felix", seeded.spring)
    assert [r.player_id for r in rows] == [r.player_id for r in table]
    assert [r.ordinal for r in rows] == [r.rating for r in table]
    assert "Spring 2026" in response.content.decode()
    # Only the league's games are offered, and an unknown league is no page.
    assert [k.slug for k in response.context["kinds"]] == seeded.league.game_types
    assert client.get(url, {"league": "nope"}).status_code == 404
    assert (
        client.get(
            reverse("web:leaderboard-game", args=["bon_appetit"]), {"league": "roma"}
        ).status_code
        == 404
    )


def test_leaderboard_of_an_unknown_game_is_404(client, db):
    assert client.get("/leaderboard/chess/").status_code == 404
    assert client.get(reverse("web:leaderboard")).status_code == 200


# --- Links and the league's games playing now ------------------------------------------------
def test_league_page_shows_its_games_playing_now(client, seeded):
    response = client.get(reverse("web:league", args=["roma"]))
    playing = [line.game.pk for line in response.context["playing"]]
    assert playing == [seeded.match.pk]  # not Milano's match
    html = response.content.decode()
    assert reverse("web:table", args=[seeded.match.pk]) in html
    assert f"{ARCHIVE}?league=roma&amp;status=running" in html
    assert f"{ARCHIVE}?league=roma" in html


def test_a_league_with_nothing_running_has_no_playing_now(client, seeded):
    html = client.get(reverse("web:league", args=["milano"])).content.decode()
    assert "Playing now" in html  # Milano's match runs
    Game.objects.filter(league=seeded.other, status="running").update(
        status="finished", finished_at=timezone.now()
    )
    assert "Playing now" not in client.get(reverse("web:league", args=["milano"])).content.decode()


def test_player_page_links_to_all_their_games(client, seeded):
    html = client.get(reverse("web:player", args=[seeded.anna.pk])).content.decode()
    assert f'href="{ARCHIVE}?player={seeded.anna.pk}"' in html


def test_the_nav_leads_to_the_lists(client, db):
    html = client.get("/").content.decode()
    nav = re.search(r"<nav>(.*?)</nav>", html, re.S)[1]
    for name in ("web:games", "web:players", "web:leaderboard"):
        assert f'href="{reverse(name)}"' in nav


@pytest.mark.parametrize(
    ("language", "text"), [("it", "Partite"), ("pt", "Partidas")], ids=["it", "pt"]
)
def test_the_lists_are_translated(client, seeded, language, text):
    for url in (ARCHIVE, PLAYERS, reverse("web:leaderboard")):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<html lang="{language}">' in html and text in html


def test_games_playing_now_stay_public_only(client, db):
    """A running match in the archive shows who sits there, never a hand."""
    match = smoking_cat_match(None, players(4), [0, 0, 0, 0])
    html = client.get(ARCHIVE).content.decode()
    assert reverse("web:table", args=[match.pk]) in html
    assert "hand" not in html.lower()
