"""Issue 45, the Telegram side: the site's "Sign in with Telegram" is the bot's
``/start login``, answered with a one-time link that signs a browser in; a league
organiser's /tournament in private opens the site's form for each league they run, behind
such a link. Real Bot API updates go through the Application; the site then spends the
link with Django's test client."""

from urllib.parse import urlsplit

from django.test import Client
from django.urls import reverse

from games.leagues.models import LeagueMember
from games.play.models import Player
from tests.factories import LeagueFactory
from web.actors import SESSION_KEY

SITE = "https://catclub.example"


def link_of(shown, label: str) -> str:
    button = shown.button(label)
    assert button["url"].startswith(SITE + "/signin/link/"), button
    return urlsplit(button["url"]).path


def test_issue_45_start_login_answers_a_one_time_link_that_signs_a_browser_in(telegram, recorder):
    tina = telegram.user("Tina")
    tina.say(telegram.private(tina), "/start login")
    answer = recorder.last(tina.id)
    assert "works once" in answer.text
    path = link_of(answer, "Sign in on the site")
    browser = Client()
    page = browser.get(path)  # a preview's GET signs nobody in and spends nothing
    assert page.status_code == 200 and "Tina" in page.content.decode()
    assert SESSION_KEY not in browser.session
    signed = browser.post(path)
    assert signed.status_code == 302 and signed["Location"] == reverse("web:tournaments")
    assert browser.session[SESSION_KEY] == Player.objects.get(telegram_id=tina.id).pk
    assert Client().post(path).status_code == 404  # spent
    assert Client().get("/signin/link/" + "x" * 43 + "/").status_code == 404


def test_issue_45_an_organisers_tournament_in_private_opens_the_sites_form(telegram, recorder):
    league = LeagueFactory(name="Lega Roma", slug="roma")
    olga = telegram.user("Olga")
    olga.say(telegram.private(olga), "/start")
    player = Player.objects.get(telegram_id=olga.id)
    olga.say(telegram.private(olga), "/tournament")
    assert "in a group" in recorder.last(olga.id).text  # not an organiser yet
    assert not recorder.last(olga.id).buttons
    LeagueMember.objects.create(league=league, player=player, is_organiser=True)
    olga.say(telegram.private(olga), "/tournament")
    answer = recorder.last(olga.id)
    assert "You organise these leagues" in answer.text
    browser = Client()
    signed = browser.post(link_of(answer, "Lega Roma"))
    assert signed["Location"] == reverse("web:tournament-new") + "?league=roma"
    form = browser.get(signed["Location"])
    assert form.status_code == 200 and 'value="roma" selected' in form.content.decode()


def test_issue_45_a_league_organiser_organises_in_the_leagues_group_without_being_its_admin(
    telegram, recorder
):
    from bot import callbacks
    from games.leagues.services import league_for_chat
    from games.tournaments.models import Tournament
    from tests.bot.tournament_play import club

    c = club(telegram, recorder)
    bruno = telegram.user("Bruno")
    bruno.say(c.group, "/tournament")
    assert "Only the group's administrators" in recorder.last(c.chat_id).text
    bruno.say(telegram.private(bruno), "/start")
    LeagueMember.objects.create(
        league=league_for_chat(c.chat_id),
        player=Player.objects.get(telegram_id=bruno.id),
        is_organiser=True,
    )
    bruno.say(c.group, "/tournament")
    picker = recorder.last(c.chat_id)
    assert "Which game?" in picker.text
    for data in (
        callbacks.organise("felix"),
        callbacks.organise("felix", "swiss"),
        callbacks.organise("felix", "swiss", 2),
        callbacks.organise("felix", "swiss", 2, 10),
    ):
        c.tap(bruno, c.shown(picker), data)
    t = Tournament.objects.get()
    assert t.created_by.telegram_id == bruno.id and t.chat_id == c.chat_id
