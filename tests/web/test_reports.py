"""Issue 48: reporting a player from a finished game's page and from a profile; one report
per reporter, game and player; a daily limit; nobody learns who reported."""

import time

import pytest
from django.urls import reverse
from django.utils import translation

from games.moderation.models import Case, Report
from tests.web.seed import finished, players

pytestmark = pytest.mark.django_db


def sign_in(client, player):
    session = client.session
    session["catclub_player"] = player.pk
    # The factory's players are Telegram's: signed in through the Mini App just now.
    session["catclub_auth_date"] = int(time.time())
    session.save()


@pytest.fixture
def game_of_three():
    people = players(3)
    return finished("felix", people, [1, 2, 3]), people


def test_issue_48_a_game_page_offers_report_only_to_its_players(client, game_of_three):
    game, (anna, bea, cleo) = game_of_three
    url = reverse("web:report-game", args=[game.pk])
    assert url not in client.get(reverse("web:game", args=[game.pk])).content.decode()
    outsider = players(1)[0]
    sign_in(client, outsider)
    assert url not in client.get(reverse("web:game", args=[game.pk])).content.decode()
    assert client.get(url).status_code == 403
    sign_in(client, anna)
    assert url in client.get(reverse("web:game", args=[game.pk])).content.decode()
    page = client.get(url).content.decode()
    assert bea.display_name in page and cleo.display_name in page


def test_issue_48_a_report_from_a_game_page_opens_one_case(client, game_of_three):
    game, (anna, bea, cleo) = game_of_three
    url = reverse("web:report-game", args=[game.pk])
    sign_in(client, anna)
    answer = client.post(url, {"reported": bea.pk, "reason": "stalling"})
    assert answer.status_code == 200 and "Thank you" in answer.content.decode()
    # The same report again is refused; one about another player is not.
    again = client.post(url, {"reported": bea.pk, "reason": "collusion"})
    assert again.status_code == 409
    assert client.post(url, {"reported": cleo.pk, "reason": "name"}).status_code == 200
    sign_in(client, cleo)
    answer = client.post(url, {"reported": bea.pk, "reason": "stalling"})
    # Cleo is not told that Anna reported Bea too.
    assert anna.display_name not in answer.content.decode()
    case = Case.objects.get(player=bea, status="open")
    assert case.reports.count() == 2
    assert set(case.reports.values_list("reporter", flat=True)) == {anna.pk, cleo.pk}
    assert Case.objects.filter(player=cleo).count() == 1


def test_issue_48_other_needs_bounded_text(client, game_of_three):
    game, (anna, bea, _cleo) = game_of_three
    url = reverse("web:report-game", args=[game.pk])
    sign_in(client, anna)
    assert client.post(url, {"reported": bea.pk, "reason": "other"}).status_code == 400
    too_long = "x" * (Report.MAX_TEXT + 1)
    assert (
        client.post(url, {"reported": bea.pk, "reason": "other", "text": too_long}).status_code
        == 400
    )
    assert not Report.objects.exists()
    ok = client.post(url, {"reported": bea.pk, "reason": "other", "text": "rude in chat"})
    assert ok.status_code == 200
    assert Report.objects.get().text == "rude in chat"


def test_issue_48_a_profile_report_and_the_daily_limit(client, settings):
    settings.REPORTS_PER_DAY = 2
    anna, *others = players(4)
    for other in others:
        finished("felix", [anna, other], [1, 2])
    sign_in(client, anna)
    profile = reverse("web:player", args=[others[0].pk])
    url = reverse("web:report-player", args=[others[0].pk])
    assert url in client.get(profile).content.decode()
    # Nobody reports themselves: their own profile has no link.
    assert (
        reverse("web:report-player", args=[anna.pk])
        not in client.get(reverse("web:player", args=[anna.pk])).content.decode()
    )
    assert client.post(url, {"reported": others[0].pk, "reason": "name"}).status_code == 200
    assert client.post(url, {"reported": others[0].pk, "reason": "name"}).status_code == 409
    second = reverse("web:report-player", args=[others[1].pk])
    assert client.post(second, {"reported": others[1].pk, "reason": "name"}).status_code == 200
    third = reverse("web:report-player", args=[others[2].pk])
    refused = client.post(third, {"reported": others[2].pk, "reason": "name"})
    assert refused.status_code == 429 and "tomorrow" in refused.content.decode()
    assert Report.objects.filter(reporter=anna).count() == 2


def test_issue_48_a_forged_player_in_the_form_is_refused(client, game_of_three):
    game, (anna, _bea, _cleo) = game_of_three
    stranger = players(1)[0]
    sign_in(client, anna)
    url = reverse("web:report-game", args=[game.pk])
    assert client.post(url, {"reported": stranger.pk, "reason": "name"}).status_code == 400
    assert not Report.objects.exists()


@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_issue_48_the_report_page_speaks_each_language(client, game_of_three, language):
    game, (anna, _bea, _cleo) = game_of_three
    sign_in(client, anna)
    client.cookies["django_language"] = language
    # (The middleware leaves the request's language active in this thread: put back after.)
    with translation.override(None):
        page = client.get(reverse("web:report-game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
    heading = {"en": "Report a player", "it": "Segnala un giocatore", "pt": "Denunciar um jogador"}
    assert heading[language] in page.content.decode()
