"""A tournament in a real browser on a phone (issue 26): a player signs up on the
tournament page; the page follows the tournament by itself (others signing up, the round
starting, the places and standings after the games), never reloaded; two seated players
open their tournament table from the page and play their game to its end by clicking,
and the page then shows the result. axe-core finds no serious violation and nothing
scrolls sideways, in English, Italian and Portuguese."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore
from django.urls import reverse
from django.utils import timezone

from games.play.models import Game, GameStatus
from games.tournaments import entries, rounds
from games.tournaments.models import Entry, RoundTable, Status, Tournament
from tests.factories import PlayerFactory
from tests.tourneys import play_out, tournament
from tests.web.browser import fits_the_phone, phone_page, shot
from tests.web.tables import play_together
from tests.web.test_accessibility import serious_violations
from web.actors import SESSION_AUTH_DATE, SESSION_KEY

pytestmark = [pytest.mark.services, pytest.mark.slow]

LIVE = "#tournament-live"


def sign_in(page, base: str, player) -> None:
    """The browser's session is ``player``'s, as after a Telegram sign-in."""
    store = SessionStore()
    store[SESSION_KEY] = player.pk
    store[SESSION_AUTH_DATE] = int(time.time())
    store.create()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": base}]
    )


def checked(page) -> None:
    assert serious_violations(page) == []
    assert fits_the_phone(page)
    assert page.problems == []


def shows(page, text: str, timeout: int = 15_000) -> None:
    page.locator(LIVE).get_by_text(text, exact=False).first.wait_for(timeout=timeout)


def test_issue_26_sign_up_follow_live_and_play_a_round_in_the_browser(
    chromium, live_server, transactional_db
):
    base = live_server.url
    t, _ = tournament(
        0,
        name="Autumn cup",
        game_type="bon_appetit",
        round_count=1,
        table_size=2,
        starts_at=timezone.now() + timedelta(hours=1),
    )
    anna, bruno = PlayerFactory(display_name="Anna"), PlayerFactory(display_name="Bruno")
    others = [PlayerFactory(display_name=name) for name in ("Carla", "Dario")]
    url = base + reverse("web:tournament", args=[t.pk])
    with phone_page(chromium, base) as page, phone_page(chromium, base) as bruno_page:
        sign_in(page, base, anna)
        page.goto(url)
        checked(page)
        # Sign-up on the web: the page's own button.
        page.get_by_role("button", name="Sign up").click()
        page.wait_for_load_state()
        shows(page, "You are signed up.")
        assert Entry.objects.filter(tournament=t, player=anna, withdrawn_at=None).exists()
        checked(page)
        page.evaluate("() => { window.sameDocument = true; }")

        # Others sign up elsewhere (in the group, say): the open page shows them.
        for player in (bruno, *others):
            entries.sign_up(t, player)
        shows(page, "4 entrants")
        shows(page, "Dario")

        # The tournament starts: the round and Anna's seat appear on the open page.
        rounds.start_now(t)
        shows(page, "Round 1")
        seat_link = page.locator(LIVE).get_by_role("link", name="your seat")
        seat_link.wait_for(timeout=15_000)
        assert page.evaluate("() => window.sameDocument === true"), "the page was reloaded"
        checked(page)
        shot(page, "tournament-running")

        # Anna and Bruno's table is played by clicking; the other table by its players.
        table = RoundTable.objects.get(round__tournament=t, players__contains=[anna.pk])
        mate = next(p for p in (bruno, *others) if p.pk in table.players)
        sign_in(bruno_page, base, mate)
        other = RoundTable.objects.exclude(pk=table.pk).get(round__tournament=t)
        play_out(other.game_id, random.Random(3))
        tournament_tab = page.context.new_page()
        tab_asked = []
        tournament_tab.on("request", lambda asked: tab_asked.append(asked.url))
        tournament_tab.goto(url)
        tournament_tab.evaluate("() => { window.sameDocument = true; }")
        seat_link.click()
        page.wait_for_selector(".tablebox")
        bruno_page.goto(base + reverse("web:table", args=[table.game_id]))
        bruno_page.wait_for_selector(".tablebox")
        play_together([page, bruno_page], max_clicks=600)
        assert Game.objects.get(pk=table.game_id).status == GameStatus.FINISHED

        # The round is over: the open tournament page shows the places and the standings.
        tournament_tab.locator(LIVE).get_by_text("place 1").first.wait_for(timeout=20_000)
        assert Tournament.objects.get(pk=t.pk).status == Status.FINISHED
        live = tournament_tab.locator(LIVE)
        live.get_by_text("finished", exact=True).first.wait_for(timeout=15_000)
        assert tournament_tab.evaluate("() => window.sameDocument === true")
        standings = live.locator(".standings tbody tr")
        assert standings.count() == 4
        table.refresh_from_db()
        winner = {anna.pk: anna, mate.pk: mate}[table.players[table.ranks.index(1)]]
        names = standings.locator(".name").all_inner_texts()
        assert winner.display_name in names[0] or winner.display_name in names[1]
        assert serious_violations(tournament_tab) == [] and fits_the_phone(tournament_tab)
        # Over: nothing changes any more, and the page stops asking.
        asks = [u for u in tab_asked if "/live/" in u]
        assert asks, "the page never asked for changes"
        tournament_tab.wait_for_timeout(4000)
        assert len([u for u in tab_asked if "/live/" in u]) == len(asks)
        shot(tournament_tab, "tournament-finished")
        assert not page.problems and not bruno_page.problems


@pytest.mark.parametrize(
    ("language", "signed_up", "round_word"),
    [("it", "Sei iscritto", "Turno 1"), ("pt", "Estás inscrito", "Ronda 1")],
)
def test_issue_26_the_tournament_page_in_italian_and_portuguese(
    page, live_server, language, signed_up, round_word
):
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    t, people = tournament(3, starts_at=timezone.now() + timedelta(hours=1))
    sign_in(page, live_server.url, people[0])
    page.goto(live_server.url + reverse("web:tournament", args=[t.pk]))
    assert page.locator("html").get_attribute("lang") == language
    shows(page, signed_up)
    checked(page)
    entries.sign_up(t, PlayerFactory())
    rounds.start_now(t)
    shows(page, round_word)
    checked(page)
