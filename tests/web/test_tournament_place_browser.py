"""Issue 45 in a real browser on a phone (390 px, light theme): the menu's Tournaments,
the index, an organiser's form filled and sent, the new tournament's page; a newcomer who
follows "Sign in to sign up", signs in under a name, is told a tournament needs more (issue
46), finishes a game with people, signs up and sees a styled Withdraw.
axe-core finds no serious violation, nothing scrolls sideways, nothing is asked of
another site."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.leagues.models import LeagueMember
from games.play.models import Player
from games.tournaments.models import Status, Tournament
from tests.factories import LeagueFactory, PlayerFactory
from tests.tourneys import finished_with_people, tournament
from tests.web.browser import fits_the_phone, phone_page, shot
from tests.web.test_accessibility import serious_violations
from tests.web.test_tournament_browser import sign_in

pytestmark = [pytest.mark.services, pytest.mark.slow]


def checked(page, name: str) -> None:
    shot(page, f"issue45-{name}")
    assert serious_violations(page) == [], name
    assert fits_the_phone(page), name
    assert page.problems == [], name


def test_issue_45_index_form_and_page_on_a_phone_in_light_theme(
    chromium, live_server, transactional_db
):
    base = live_server.url
    league = LeagueFactory(name="Lega Roma", slug="roma")
    boss = PlayerFactory(display_name="Olga Organiser")
    LeagueMember.objects.create(league=league, player=boss, is_organiser=True)
    tournament(0, league=league, name="Autumn cup", status=Status.FINISHED)
    tournament(0, league=league, name="Spring cup", starts_at=timezone.now() + timedelta(days=3))
    with phone_page(chromium, base) as page:
        page.emulate_media(color_scheme="light")
        sign_in(page, base, boss)
        page.goto(base + "/")
        page.locator("header nav").get_by_role("link", name="Tournaments").click()
        page.wait_for_url(base + "/tournaments/")
        assert page.get_by_role("link", name="Spring cup").is_visible()
        checked(page, "index")
        page.get_by_role("link", name="Finished").click()
        page.get_by_role("link", name="Autumn cup").wait_for()
        page.get_by_role("link", name="Organise a tournament").click()
        page.get_by_label("Name").wait_for()
        checked(page, "form")
        page.get_by_label("Name").fill("Winter open")
        page.get_by_label("Game").select_option("felix")
        # Only the chosen format's own field is shown.
        page.get_by_label("Format").select_option("arena")
        assert page.get_by_label("Minutes (arena)").is_visible()
        assert not page.get_by_label("Rounds (Swiss)").is_visible()
        page.get_by_label("Format").select_option("swiss")
        assert not page.get_by_label("Minutes (arena)").is_visible()
        page.get_by_label("Rounds (Swiss)").fill("3")
        start = timezone.localtime() + timedelta(days=2)
        page.get_by_label("Starts at").fill(start.strftime("%Y-%m-%dT%H:%M"))
        page.get_by_role("button", name="Create the tournament").click()
        page.get_by_role("heading", name="Winter open").wait_for()
        t = Tournament.objects.get(name="Winter open")
        assert page.url == f"{base}/tournaments/{t.pk}/"
        assert t.created_by == boss and t.round_count == 3
        assert page.get_by_text("Starts").first.is_visible()
        checked(page, "detail")


def test_issue_45_a_newcomer_signs_in_signs_up_and_sees_a_styled_withdraw(
    chromium, live_server, transactional_db
):
    base = live_server.url
    t, _ = tournament(0, name="Spring cup", starts_at=timezone.now() + timedelta(days=1))
    with phone_page(chromium, base) as page:
        page.emulate_media(color_scheme="light")
        page.goto(f"{base}/tournaments/{t.pk}/")
        page.get_by_role("link", name="Sign in to sign up").click()
        page.get_by_label("Your name").wait_for()
        checked(page, "signin")
        page.get_by_label("Your name").fill("Nina Newcomer")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{base}/tournaments/{t.pk}/")
        # Issue 46: a name alone enters no tournament; a game finished with people does.
        page.get_by_text("first finish a game with other people").wait_for()
        finished_with_people(Player.objects.get(display_name="Nina Newcomer"))
        page.reload()
        page.get_by_role("button", name="Sign up").click()
        page.get_by_text("You are signed up.").wait_for()
        withdraw = page.get_by_role("button", name="Withdraw")
        style = withdraw.evaluate(
            "b => [getComputedStyle(b).borderTopLeftRadius, getComputedStyle(b).cursor]"
        )
        assert style == ["10px", "pointer"]
        checked(page, "signed-up")
    assert t.entries.get().player.display_name == "Nina Newcomer"
