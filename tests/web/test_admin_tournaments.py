"""Tournaments in the admin (issue 26): organisers create one, see its entries, start it
now (its first round is made) and cancel it; staff without the permission cannot."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from games.tournaments.models import Status, Tournament
from tests.factories import LeagueFactory
from tests.tourneys import after_commit, tournament

pytestmark = pytest.mark.django_db


def test_issue_26_an_organiser_creates_a_tournament_in_the_admin(admin_client):
    league = LeagueFactory()
    form = {
        "name": "Autumn cup",
        "league": league.pk,
        "game_type": "felix",
        "status": Status.SIGNUP,
        "starts_at_0": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d"),
        "starts_at_1": "20:00:00",
        "format": "swiss",
        "table_size": 4,
        "round_count": 3,
        "go_on": 2,
        "tiebreaks": '["buchholz", "wins"]',
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "rounds-TOTAL_FORMS": 0,
        "rounds-INITIAL_FORMS": 0,
    }
    response = admin_client.post(reverse("admin:tourneys_tournament_add"), form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    t = Tournament.objects.get(name="Autumn cup")
    assert (t.round_count, t.table_size, t.status) == (3, 4, Status.SIGNUP)
    # An edit moves the version the open pages follow.
    version = t.version
    form["name"] = "Autumn cup, renamed"
    response = admin_client.post(reverse("admin:tourneys_tournament_change", args=[t.pk]), form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    t.refresh_from_db()
    assert t.name == "Autumn cup, renamed" and t.version > version


def test_issue_26_a_swiss_without_rounds_or_a_table_the_game_cannot_seat_is_refused():
    from django.core.exceptions import ValidationError

    t = Tournament(
        name="x",
        league=LeagueFactory(),
        game_type="felix",
        format="swiss",
        table_size=9,
        starts_at=timezone.now(),
    )
    with pytest.raises(ValidationError) as refused:
        t.full_clean()
    assert {"round_count", "table_size"} <= set(refused.value.message_dict)


def test_issue_26_start_now_and_cancel_from_the_admin(admin_client):
    t, _ = tournament(8, starts_at=timezone.now() + timedelta(days=1))
    page = admin_client.get(reverse("admin:tourneys_tournament_change", args=[t.pk]))
    assert page.status_code == 200 and "Player " in page.content.decode()
    url = reverse("admin:tourneys_tournament_changelist")
    after_commit(admin_client.post, url, {"action": "start_now", "_selected_action": [t.pk]})
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.rounds.count() == 1
    admin_client.post(url, {"action": "cancel", "_selected_action": [t.pk]})
    t.refresh_from_db()
    assert t.status == Status.CANCELLED


def test_issue_26_staff_without_the_tournament_permission_cannot_add_one(client, django_user_model):
    user = django_user_model.objects.create_user("viewer", password="pw", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="tourneys", codename="view_tournament")
    )
    client.force_login(user)
    assert client.get(reverse("admin:tourneys_tournament_add")).status_code == 403
    assert client.get(reverse("admin:tourneys_tournament_changelist")).status_code == 200
