"""Issue 45: tournaments have a place on the site. The index in the menu (upcoming,
running, finished; by game and league; strict and paged), a league organiser's form, a
newcomer's sign-up that leads to a sign-in that works (Telegram's Login Widget checked as
Telegram documents it, or a name in this browser), and a finished tournament that reads
as finished."""

from __future__ import annotations

import random
import re
import time
from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.leagues.models import LeagueMember
from games.play.models import Player
from games.tournaments import rounds
from games.tournaments.models import Format, Status, Tournament
from tests.factories import LeagueFactory, PlayerFactory
from tests.tourneys import after_commit, finished_with_people, play_out, tournament
from web import paging, telegram_login
from web.actors import SESSION_AUTH_DATE, SESSION_KEY

pytestmark = pytest.mark.django_db

TOKEN = "123456:TEST-token"
INDEX = "/tournaments/"


def signed_in(player, **kwargs) -> Client:
    client = Client(**kwargs)
    session = client.session
    session[SESSION_KEY] = player.pk
    session[SESSION_AUTH_DATE] = int(time.time())
    session.save()
    return client


def organiser(league, **fields) -> Player:
    player = PlayerFactory(**fields)
    LeagueMember.objects.create(league=league, player=player, is_organiser=True)
    return player


def later(**delta) -> str:
    return (timezone.localtime() + timedelta(**delta)).strftime("%Y-%m-%dT%H:%M")


# --- the index ---------------------------------------------------------------------------------
def test_issue_45_the_menu_links_the_tournaments_index_which_exists():
    home = Client().get("/").content.decode()
    nav = re.search(r"<nav>.*?</nav>", home, re.S).group(0)
    assert f'href="{INDEX}"' in nav and "Tournaments" in nav
    assert reverse("web:tournaments") == INDEX
    assert Client().get(INDEX).status_code == 200


def test_issue_45_the_index_shows_upcoming_running_and_finished_by_game_and_league():
    league = LeagueFactory(slug="roma")
    other = LeagueFactory(slug="napoli")
    soon, _ = tournament(
        0, league=league, name="Soon cup", starts_at=timezone.now() + timedelta(days=1)
    )
    _live, _ = tournament(0, league=league, name="Live cup", status=Status.RUNNING)
    _done, _ = tournament(0, league=other, name="Done cup", status=Status.FINISHED)
    _dogs, _ = tournament(
        0,
        league=other,
        name="Dog cup",
        game_type="cats_and_dogs",
        starts_at=timezone.now() + timedelta(days=2),
    )
    upcoming = Client().get(INDEX).content.decode()
    assert "Soon cup" in upcoming and "Dog cup" in upcoming
    assert "Live cup" not in upcoming and "Done cup" not in upcoming
    assert upcoming.index("Soon cup") < upcoming.index("Dog cup")  # the next to start first
    running = Client().get(INDEX, {"show": "running"}).content.decode()
    assert "Live cup" in running and "Soon cup" not in running
    finished = Client().get(INDEX, {"show": "finished"}).content.decode()
    assert "Done cup" in finished and "Live cup" not in finished
    by_game = Client().get(INDEX, {"game": "cats_and_dogs"}).content.decode()
    assert "Dog cup" in by_game and "Soon cup" not in by_game
    by_league = Client().get(INDEX, {"league": "roma"}).content.decode()
    assert "Soon cup" in by_league and "Dog cup" not in by_league
    assert reverse("web:tournament", args=[soon.pk]) in by_league


def test_issue_45_the_index_reads_its_parameters_strictly_and_pages_are_bounded():
    assert Client().get(INDEX, {"show": "someday"}).status_code == 400
    assert Client().get(INDEX, {"game": "chess"}).status_code == 400
    assert Client().get(INDEX, {"league": "nowhere"}).status_code == 404
    assert Client().get(INDEX, {"league": "x" * 500}).status_code == 400
    assert Client().get(INDEX, {"after": "abc"}).status_code == 400
    assert Client().get(INDEX, {"after": "9" * 30}).status_code == 400
    assert Client().get(INDEX, {"after": "1", "before": "2"}).status_code == 400
    league = LeagueFactory()
    start = timezone.now() + timedelta(days=1)
    for n in range(paging.PAGE_SIZE + 2):
        tournament(0, league=league, name=f"Cup {n:02d}", starts_at=start + timedelta(hours=n))
    first = Client().get(INDEX).content.decode()
    assert first.count('<li><a href="/tournaments/') == paging.PAGE_SIZE
    next_url = re.search(r'rel="next" href="([^"]+)"', first).group(1).replace("&amp;", "&")
    second = Client().get(INDEX + next_url).content.decode()
    assert second.count('<li><a href="/tournaments/') == 2 and "Cup 26" in second
    assert "Later →" in first and "← Earlier" in second  # the next to start first
    for n in range(paging.PAGE_SIZE + 1):
        tournament(0, league=league, name=f"Old {n:02d}", status=Status.FINISHED)
    finished = Client().get(INDEX, {"show": "finished"}).content.decode()
    assert "Earlier →" in finished  # the latest first


def test_issue_45_the_league_page_lists_its_tournaments_near_the_top_even_before_any():
    league = LeagueFactory(slug="roma")
    empty = Client().get(reverse("web:league", args=["roma"])).content.decode()
    assert "Tournaments" in empty and "No tournament is coming up." in empty
    assert f"{INDEX}?league=roma" in empty
    tournament(0, league=league, name="Old cup", status=Status.FINISHED)
    tournament(0, league=league, name="Next cup", starts_at=timezone.now() + timedelta(hours=3))
    page = Client().get(reverse("web:league", args=["roma"])).content.decode()
    assert page.index('id="tournaments"') < page.index('class="season"')
    assert page.index("Next cup") < page.index("Old cup")


# --- organising from the site --------------------------------------------------------------------
def test_issue_45_a_league_organiser_creates_a_tournament_from_the_site():
    league = LeagueFactory(slug="roma")
    boss = organiser(league)
    client = signed_in(boss)
    page = client.get(reverse("web:league", args=["roma"])).content.decode()
    assert reverse("web:tournament-new") + "?league=roma" in page
    form = client.get(reverse("web:tournament-new"), {"league": "roma"})
    assert form.status_code == 200 and 'name="csrfmiddlewaretoken"' in form.content.decode()
    answer = client.post(
        reverse("web:tournament-new"),
        {
            "league": "roma",
            "name": "Winter open",
            "game": "felix",
            "format": "swiss",
            "round_count": "3",
            "duration_minutes": "",
            "table_size": "4",
            "starts_at": later(days=2),
        },
    )
    t = Tournament.objects.get(name="Winter open")
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "web:tournament", args=[t.pk]
    )
    assert (t.league, t.game_type, t.format, t.round_count) == (league, "felix", "swiss", 3)
    assert t.status == Status.SIGNUP and t.created_by == boss and t.starts_at > timezone.now()


def test_issue_45_the_form_is_for_organisers_only_checked_on_the_server_and_strict():
    league = LeagueFactory(slug="roma")
    other = LeagueFactory(slug="napoli")
    boss = organiser(league)
    url = reverse("web:tournament-new")
    anonymous = Client().get(url)
    assert anonymous.status_code == 403 and reverse("web:signin") in anonymous.content.decode()
    member = PlayerFactory()
    LeagueMember.objects.create(league=league, player=member)
    good = {
        "league": "roma",
        "name": "Cup",
        "game": "felix",
        "format": "swiss",
        "round_count": "3",
        "table_size": "4",
        "starts_at": later(days=1),
    }
    assert signed_in(member).post(url, good).status_code == 403
    assert signed_in(boss, enforce_csrf_checks=True).post(url, good).status_code == 403
    client = signed_in(boss)
    for bad in (
        {"league": "napoli"},  # a league someone else runs
        {"starts_at": later(hours=-1)},  # in the past
        {"starts_at": later(days=400)},
        {"starts_at": "tomorrow"},
        {"round_count": "99"},
        {"round_count": ""},  # a Swiss tournament needs its rounds
        {"format": "arena", "duration_minutes": "100000"},
        {"format": "lottery"},
        {"table_size": "9"},  # more than the game seats
        {"game": "chess"},
        {"name": ""},
        {"name": "x" * 101},
    ):
        answer = client.post(url, {**good, **bad})
        assert answer.status_code == 400, bad
    assert not Tournament.objects.exists()
    assert other.tournaments.count() == 0
    arena = client.post(
        url, {**good, "format": "arena", "duration_minutes": "30", "round_count": ""}
    )
    assert arena.status_code == 302
    assert Tournament.objects.get().duration_minutes == 30


# --- a newcomer's sign-up ------------------------------------------------------------------------
def test_issue_45_a_fresh_visitors_sign_up_leads_to_a_sign_in_that_works():
    t, _ = tournament(0, starts_at=timezone.now() + timedelta(hours=1))
    detail = reverse("web:tournament", args=[t.pk])
    visitor = Client()
    page = visitor.get(detail).content.decode()
    assert "Sign in (open a table, or from Telegram)" not in page
    link = re.search(r'href="(/signin/\?next=[^"]+)"', page).group(1)
    signin = visitor.get(link.replace("&amp;", "&"))
    html = signin.content.decode()
    assert signin.status_code == 200 and reverse("web:play") in html
    assert "telegram.org" not in html  # nothing from outside unless the operator asks
    answer = visitor.post(reverse("web:signin"), {"name": "Newcomer Nina"})
    assert answer.status_code == 302 and answer["Location"] == detail
    # Issue 46: a name is no identity that costs something; the page says what is (and
    # offers a table), and a sign-up is refused until Nina has finished a game with people.
    page = visitor.get(detail).content.decode()
    assert 'value="join"' not in page and "first finish a game with other people" in page
    assert reverse("web:play") in page
    url = reverse("web:tournament-entry", args=[t.pk])
    assert visitor.post(url, {"action": "join"}).status_code == 409
    assert not t.entries.exists()
    finished_with_people(Player.objects.get(display_name="Newcomer Nina"))
    assert 'value="join"' in visitor.get(detail).content.decode()
    visitor.post(url, {"action": "join"})
    assert t.entries.get().player.display_name == "Newcomer Nina"


def test_issue_45_sign_in_refuses_a_bad_name_and_a_next_address_elsewhere():
    visitor = Client()
    assert visitor.get(reverse("web:signin"), {"next": "https://evil.example/"}).status_code == 200
    assert visitor.post(reverse("web:signin"), {"name": ""}).status_code == 400
    answer = visitor.post(reverse("web:signin"), {"name": "Nina"})
    assert answer["Location"] == INDEX


@override_settings(TELEGRAM_BOT_USERNAME="catclub_bot", TELEGRAM_MINIAPP_SHORT_NAME="table")
def test_issue_45_without_the_widget_the_page_links_the_bot_and_its_mini_app():
    html = Client().get(reverse("web:signin")).content.decode()
    assert "https://t.me/catclub_bot/table" in html and "telegram-widget" not in html


def widget_fields(**over) -> dict[str, str]:
    fields = {
        "id": "4242",
        "first_name": "Tina",
        "last_name": "Telegram",
        "username": "tina",
        "auth_date": str(int(time.time())),
    }
    fields.update(over)
    fields["hash"] = telegram_login.sign(fields, TOKEN)
    return fields


def test_issue_45_the_login_widgets_hash_is_checked_as_telegram_documents_it():
    import hashlib
    import hmac

    fields = widget_fields()
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")
    secret = hashlib.sha256(TOKEN.encode()).digest()
    assert fields["hash"] == hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    assert telegram_login.check(fields, TOKEN).id == 4242
    with pytest.raises(telegram_login.InvalidLogin):
        telegram_login.check({**fields, "id": "4243"}, TOKEN)  # tampered
    with pytest.raises(telegram_login.InvalidLogin):
        telegram_login.check(fields, "654321:other")
    with pytest.raises(telegram_login.InvalidLogin):
        telegram_login.check(widget_fields(auth_date=str(int(time.time()) - 86401)), TOKEN)
    with pytest.raises(telegram_login.InvalidLogin):
        telegram_login.check({**fields, "hash": "é" * 64}, TOKEN)
    with pytest.raises(telegram_login.InvalidLogin):
        telegram_login.check(fields, "")


@override_settings(
    TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_BOT_USERNAME="catclub_bot", TELEGRAM_LOGIN_WIDGET=True
)
def test_issue_45_the_login_widget_signs_the_browser_in_and_links_the_telegram_player():
    known = PlayerFactory(telegram_id=4242, display_name="Old name")
    t, _ = tournament(0, starts_at=timezone.now() + timedelta(hours=1))
    detail = reverse("web:tournament", args=[t.pk])
    visitor = Client()
    page = visitor.get(reverse("web:signin"), {"next": detail})
    html = page.content.decode()
    assert 'src="https://telegram.org/js/telegram-widget.js' in html
    assert 'data-telegram-login="catclub_bot"' in html
    csp = page["Content-Security-Policy"]
    assert "https://telegram.org" in csp and "https://oauth.telegram.org" in csp
    assert "telegram.org" not in Client().get(INDEX)["Content-Security-Policy"]
    done = reverse("web:signin-telegram")
    assert visitor.get(done, {**widget_fields(), "id": "9"}).status_code == 403
    assert visitor.get(done, widget_fields(auth_date="100")).status_code == 403
    answer = visitor.get(done, widget_fields())
    assert answer.status_code == 302 and answer["Location"] == detail
    assert visitor.session[SESSION_KEY] == known.pk
    assert Player.objects.filter(telegram_id=4242).count() == 1
    assert 'value="join"' in visitor.get(detail).content.decode()
    assert Client().get(done, widget_fields(id="777")).status_code == 302
    assert Player.objects.filter(telegram_id=777).exists()  # a newcomer's player is made


# --- a tournament's page for what it is now ---------------------------------------------------
def test_issue_45_a_finished_tournament_reads_as_finished_with_its_winner():
    t, _people = tournament(4, round_count=1)
    after_commit(rounds.advance, t.pk)
    table = t.rounds.get().tables.get()
    play_out(table.game_id, random.Random(3))
    after_commit(rounds.advance, t.pk, timezone.now() + timedelta(hours=1))
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    html = Client().get(reverse("web:tournament", args=[t.pk])).content.decode()
    assert "Starts" not in html and "Sign in" not in html.split("</header>")[1]
    assert "Sign-up is closed" not in html and "Taking part" not in html
    table.refresh_from_db()
    winner = Player.objects.get(pk=table.players[table.ranks.index(1)])
    assert "Winner: " in html and winner.display_name in html and "Final standings" in html


def test_issue_45_a_running_tournament_says_its_round_and_withdraw_is_a_styled_button():
    t, people = tournament(4)
    after_commit(rounds.advance, t.pk)
    html = signed_in(people[0]).get(reverse("web:tournament", args=[t.pk])).content.decode()
    assert "round 1 is being played" in html and "Starts" not in html
    withdraw = re.search(r"<button[^>]*>Withdraw</button>", html).group(0)
    assert 'class="secondary"' in withdraw
    arena, _ = tournament(
        0, format=Format.ARENA, round_count=None, duration_minutes=20, status=Status.RUNNING
    )
    assert "Starts" not in Client().get(reverse("web:tournament", args=[arena.pk])).content.decode()


@pytest.mark.parametrize("language", ["it", "pt"])
def test_issue_45_the_new_pages_speak_italian_and_portuguese(language):
    league = LeagueFactory(slug="roma")
    boss = organiser(league)
    english = {
        INDEX: ("Upcoming", "Show tournaments"),
        reverse("web:signin"): ("In this browser", "Your name"),
        reverse("web:tournament-new"): ("Organise a tournament", "Create the tournament"),
    }
    upcoming, _ = tournament(0, league=league, starts_at=timezone.now() + timedelta(hours=1))
    detail = reverse("web:tournament", args=[upcoming.pk])
    page = Client().get(detail, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "Sign in to sign up" not in page and "/signin/?next=" in page
    client = signed_in(boss)
    for url, words in english.items():
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for word in words:
            assert word not in html, (url, word)
