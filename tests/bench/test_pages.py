"""The public pages' benchmark: its filler makes rows the models accept, and every page it
times answers, within the queries the pages promise (issue 17)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench import fill
from bench import pages as bench
from games.play.models import Game, GameStatus, Seat
from games.ratings.models import Rating

pytestmark = pytest.mark.django_db


def test_the_filled_club_answers_on_every_page_it_times(client, postgres):
    filled = fill.fill(games=300, players=60, leagues=3, running=5)
    assert Game.objects.count() == 300 and filled.seats == Seat.objects.count()
    assert Game.objects.filter(status=GameStatus.RUNNING).count() == 5
    assert Rating.objects.filter(league=None).exists()
    for name, url in bench.urls().items():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, (name, url)
        if name.startswith(("archive", "players", "leaderboard")):
            assert len(queries) <= 4, (name, len(queries))
    # The archive's deep page is the middle of the list, not its first page.
    assert re.search(r"after=\d+", bench.urls()["archive_deep"])
