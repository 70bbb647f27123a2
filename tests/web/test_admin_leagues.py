"""League organisers in the admin: join codes are issued and revoked there (a group joins
only with the code), and a season saved there takes its games into its own table."""

from datetime import date

import pytest
from django.urls import reverse

from games.leagues.models import League, Season
from games.ratings import service as ratings

pytestmark = pytest.mark.django_db


def test_a_join_code_is_issued_and_revoked_from_the_admin(admin_client):
    league = League.objects.create(name="Roma", slug="roma")
    url = reverse("admin:games_league_changelist")
    admin_client.post(url, {"action": "issue_code", "_selected_action": [league.pk]})
    league.refresh_from_db()
    first = league.join_code
    assert first and len(first) == 8
    admin_client.post(url, {"action": "issue_code", "_selected_action": [league.pk]})
    league.refresh_from_db()
    assert league.join_code and league.join_code != first  # the old code stops working
    page = admin_client.get(reverse("admin:games_league_change", args=[league.pk]))
    assert league.join_code in page.content.decode()  # shown, not editable
    admin_client.post(url, {"action": "revoke_code", "_selected_action": [league.pk]})
    league.refresh_from_db()
    assert not league.join_code


def test_saving_a_season_rebuilds_its_table(admin_client, monkeypatch):
    league = League.objects.create(name="Roma", slug="roma")
    rebuilt = []
    monkeypatch.setattr(ratings, "rebuild_season", lambda season: rebuilt.append(season.name))
    admin_client.post(
        reverse("admin:games_season_add"),
        {"league": league.pk, "name": "Spring", "starts_on": date(2026, 3, 1)},
    )
    assert Season.objects.filter(name="Spring").exists()
    assert rebuilt == ["Spring"]
