"""The tournament page (issue 26): entrants, rounds with their tables (links to the live
games, the player's own seat), standings with the announced tie-breaks, sign-up and
withdrawal by POST with CSRF for the session's player; nothing hidden shown."""

import random
import time

import pytest
from django.test import Client
from django.urls import reverse

from games.play.models import Game
from games.tourneys.models import Entry, Format, Status
from tests.factories import PlayerFactory
from tests.tourneys import after_commit, play_out, tournament
from web.play import SESSION_AUTH_DATE, SESSION_KEY

pytestmark = pytest.mark.django_db


def signed_in(player, **kwargs) -> Client:
    client = Client(**kwargs)
    session = client.session
    session[SESSION_KEY] = player.pk
    session[SESSION_AUTH_DATE] = int(time.time())  # a fresh Telegram sign-in
    session.save()
    return client


def test_issue_26_the_page_shows_entrants_tables_and_standings_without_hidden_cards():
    from games.tourneys import rounds

    t, people = tournament(8)
    after_commit(rounds.advance, t.pk)
    first = t.rounds.get().tables.order_by("number").first()
    play_out(first.game_id, random.Random(7))
    client = signed_in(people[0])
    page = client.get(reverse("web:tournament", args=[t.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for person in people:
        assert person.display_name in html
    assert "Round 1" in html and "Table 1" in html and "Table 2" in html
    for table in t.rounds.get().tables.all():
        assert reverse("web:game", args=[table.game_id]) in html
    mine = next(tb for tb in t.rounds.get().tables.all() if people[0].pk in tb.players)
    if Game.objects.get(pk=mine.game_id).is_open:
        assert reverse("web:table", args=[mine.game_id]) in html
    assert "Standings" in html and "Opp." in html and "Wins" in html
    assert "place 1" in html  # the finished table's places
    for game in Game.objects.filter(tournament_table__round__tournament=t):
        assert "hand" not in html.lower() or str(game.state) not in html
    assert 'style="' not in html and "<script>" not in html  # CSP: nothing inline


def test_issue_26_sign_up_and_withdraw_by_post_with_csrf():
    t, _ = tournament(0)
    anna = PlayerFactory()
    url = reverse("web:tournament-entry", args=[t.pk])
    forged = signed_in(anna, enforce_csrf_checks=True)
    assert forged.post(url, {"action": "join"}).status_code == 403
    client = signed_in(anna)
    assert "Sign up" in client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    assert client.post(url, {"action": "join"}).status_code == 302
    assert Entry.objects.filter(tournament=t, player=anna).exists()
    assert "Withdraw" in client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    refused = client.post(url, {"action": "join"}, HTTP_ACCEPT="text/html")
    assert refused.status_code == 409 and "already signed up" in refused.content.decode()
    assert client.post(url, {"action": "leave"}).status_code == 302
    assert not Entry.objects.filter(tournament=t, player=anna).exists()


def test_issue_26_the_entry_form_is_strict_and_needs_a_player():
    t, _ = tournament(0)
    url = reverse("web:tournament-entry", args=[t.pk])
    assert Client().post(url, {"action": "join"}).status_code == 403
    assert signed_in(PlayerFactory()).post(url, {"action": "dance"}).status_code == 400
    assert Client().get(reverse("web:tournament", args=[999])).status_code == 404


def test_issue_26_an_arena_page_offers_pause_and_the_league_page_lists_tournaments():
    t, _ = tournament(
        0, format=Format.ARENA, round_count=None, duration_minutes=20, status=Status.RUNNING
    )
    client = signed_in(PlayerFactory())
    url = reverse("web:tournament-entry", args=[t.pk])
    client.post(url, {"action": "join"})
    assert "Pause" in client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    client.post(url, {"action": "pause"})
    assert Entry.objects.get(tournament=t).paused
    league = client.get(reverse("web:league", args=[t.league.slug])).content.decode()
    assert reverse("web:tournament", args=[t.pk]) in league and t.name in league


@pytest.mark.parametrize(
    ("language", "words"),
    [("it", ("Iscritti", "Iscriviti", "Partecipazione")), ("pt", ("inscritos", "Inscrever-me"))],
)
def test_issue_26_the_page_speaks_italian_and_portuguese(language, words):
    t, _ = tournament(2)
    client = signed_in(PlayerFactory(telegram_id=None))
    html = client.get(
        reverse("web:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for word in words:
        assert word.lower() in html.lower()
