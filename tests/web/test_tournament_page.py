"""The tournament page (issue 26): entrants, rounds with their tables (links to the live
games, the player's own seat), standings with the announced tie-breaks, sign-up and
withdrawal by POST with CSRF for the session's player; nothing hidden shown."""

import random
import time

import pytest
from django.test import Client
from django.urls import reverse

from games.play.models import Game
from games.tournaments import entries
from games.tournaments.models import Entry, Format, RoundTable, Status, Tournament
from tests.factories import PlayerFactory
from tests.tourneys import after_commit, finished_with_people, play_out, tournament
from web.actors import SESSION_AUTH_DATE, SESSION_KEY

pytestmark = pytest.mark.django_db


def signed_in(player, **kwargs) -> Client:
    client = Client(**kwargs)
    session = client.session
    session[SESSION_KEY] = player.pk
    session[SESSION_AUTH_DATE] = int(time.time())  # a fresh Telegram sign-in
    session.save()
    return client


def test_issue_26_the_page_shows_entrants_tables_and_standings_without_hidden_cards():
    from games.tournaments import rounds

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
    guest = PlayerFactory(telegram_id=None)
    finished_with_people(guest)  # a guest who may enter (issue 46): the page offers sign-up
    client = signed_in(guest)
    html = client.get(
        reverse("web:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for word in words:
        assert word.lower() in html.lower()


# --- The page follows the tournament ----------------------------------------------------------
def test_issue_26_the_live_answer_costs_no_query_until_the_tournament_changes(
    django_assert_num_queries,
):
    from django.core.cache import cache

    from games.tournaments import rounds

    cache.clear()
    t, people = tournament(7)
    client = signed_in(people[0])
    url = reverse("web:tournament-live", args=[t.pk])
    page = client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    version = Tournament.objects.get(pk=t.pk).version
    assert f'data-version="{version}"' in page and url in page and "tournament.js" in page
    client.get(url, {"v": version})  # the cache holds the version now
    with django_assert_num_queries(0):
        for _ in range(5):
            answer = client.get(url, {"v": version}).json()
            assert answer == {"version": version}
    # Someone signs up elsewhere: the next ask has the page's new part.
    zoe = PlayerFactory(display_name="Zoe Newcomer")
    after_commit(entries.sign_up, t, zoe)
    answer = client.get(url, {"v": version}).json()
    assert answer["version"] > version and "Zoe Newcomer" in answer["html"]
    assert "8 entrants" in answer["html"] and 'name="csrfmiddlewaretoken"' in answer["html"]
    # The tournament starts: the first round and its tables, with the player's own seat.
    version = answer["version"]
    after_commit(rounds.advance, t.pk)
    answer = client.get(url, {"v": version}).json()
    html = answer["html"]
    mine = RoundTable.objects.get(round__tournament=t, players__contains=[people[0].pk])
    assert "Round 1" in html and reverse("web:table", args=[mine.game_id]) in html
    assert "Standings" in html


def test_issue_26_the_live_answer_refuses_bad_input_and_unknown_tournaments():
    t, _ = tournament(0)
    url = reverse("web:tournament-live", args=[t.pk])
    for bad in ("x", "-1", "1" * 40, "1.5"):
        assert Client().get(url, {"v": bad}).status_code == 400
    assert Client().get(reverse("web:tournament-live", args=[9999])).status_code == 404
    assert Client().post(url).status_code == 405
    # A page with no version yet (or an old one) gets the part.
    assert "html" in Client().get(url).json()


def test_issue_26_a_beat_that_changes_nothing_leaves_the_version_alone():
    from games.tournaments import rounds

    t, _ = tournament(8)
    after_commit(rounds.advance, t.pk)
    version = Tournament.objects.get(pk=t.pk).version
    after_commit(rounds.advance, t.pk)
    assert Tournament.objects.get(pk=t.pk).version == version


# --- Duplicate deals: like with like on the round ---------------------------------------------
def test_issue_26_a_duplicate_round_compares_each_player_with_the_field_on_the_same_seat():
    from games.tournaments import rounds

    t, people = tournament(12, duplicate_deals=True)
    after_commit(rounds.advance, t.pk)
    rnd = t.rounds.get()
    tables = list(rnd.tables.order_by("number"))
    for table in tables:
        play_out(table.game_id, random.Random(table.number))
    after_commit(rounds.advance, t.pk)
    # Known scores, so the comparison is checked against numbers worked by hand: seat 0
    # scored 30, 20 and 10 at the three tables (the field's mean for each is the other two).
    for table, seat0 in zip(tables, (30, 20, 10), strict=True):
        table.refresh_from_db()
        table.scores = [seat0, 5, 5, 5]
        table.save(update_fields=["scores"])
    names = {p.pk: p.display_name for p in people}
    html = signed_in(people[0]).get(reverse("web:tournament", args=[t.pk])).content.decode()
    first = names[tables[0].players[0]]
    last = names[tables[2].players[0]]
    middle = names[tables[1].players[0]]
    assert "Against the field, with the same cards" in html
    assert f"With the same cards, {first} did 15 points better than the field." in html
    assert f"With the same cards, {middle} did as well as the field." in html
    assert f"With the same cards, {last} did 15 points worse than the field." in html
    url = reverse("web:tournament", args=[t.pk])
    italian = Client().get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert f"Con le stesse carte, {first} ha fatto 15 punti meglio degli altri." in italian
    portuguese = Client().get(url, HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    assert f"Com as mesmas cartas, {last} fez 15 pontos a menos que os outros." in portuguese
    # Seats 1-3 scored like their field everywhere.
    assert f"With the same cards, {names[tables[0].players[1]]} did as well" in html
    # An ordinary round has no comparison.
    plain, _ = tournament(8)
    after_commit(rounds.advance, plain.pk)
    other = Client().get(reverse("web:tournament", args=[plain.pk])).content.decode()
    assert "with the same cards" not in other.lower()


def test_issue_26_fewer_is_better_turns_the_comparison_round():
    from games.tournaments import rounds

    t, people = tournament(8, game_type="smoking_cat", duplicate_deals=True)
    after_commit(rounds.advance, t.pk)
    tables = list(t.rounds.get().tables.order_by("number"))
    for table in tables:
        play_out(table.game_id, random.Random(table.number))
    after_commit(rounds.advance, t.pk)
    for table, seat0 in zip(tables, (1, 4), strict=True):
        table.refresh_from_db()
        table.scores = [seat0, 2, 2, 2]
        table.save(update_fields=["scores"])
    names = {p.pk: p.display_name for p in people}
    html = Client().get(reverse("web:tournament", args=[t.pk])).content.decode()
    assert f"{names[tables[0].players[0]]} did 3 points better than the field" in html
    assert f"{names[tables[1].players[0]]} did 3 points worse than the field" in html
