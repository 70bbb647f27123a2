"""The rating on a familiar scale wherever it is shown (issue 26): the profile, the
leaderboards, a league's standings, a game's page and the admin lists show whole numbers
around 1500, never negative however low openskill's ordinal falls, with a provisional
mark on few games."""

import re

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from games.ratings import display
from games.ratings.models import Rating, RatingChange
from tests.factories import LeagueFactory
from tests.web.seed import finished, players

pytestmark = pytest.mark.django_db

# A minus sign (ASCII or typographic) before a digit, not inside a date or a word.
NEGATIVE = re.compile(r"(?<![\w.,/])[-−]\s?\d")


def negatives(html: str) -> list[str]:
    text = strip_tags(re.sub(r"<(style|svg)\b.*?</\1>", "", html, flags=re.S))
    return [text[max(0, m.start() - 30) : m.end() + 10] for m in NEGATIVE.finditer(text)]


@pytest.fixture
def sunk():
    """Two players whose ratings sank far below zero (a run of heavy losses): ordinals
    of -100 and -5, every rating row and change row alike."""
    league = LeagueFactory(game_types=["felix"])
    anna, bruno = players(2)
    game = finished("felix", [anna, bruno], [1, 2], league=league)
    Rating.objects.filter(player=anna).update(mu=-91.0, sigma=3.0, ordinal=-100.0)
    Rating.objects.filter(player=bruno).update(mu=4.0, sigma=3.0, ordinal=-5.0, games=12)
    RatingChange.objects.filter(rating__player=anna).update(
        ordinal_before=-90.0, ordinal_after=-100.0
    )
    RatingChange.objects.filter(rating__player=bruno).update(
        ordinal_before=-3.0, ordinal_after=-5.0
    )
    return league, anna, bruno, game


def test_no_public_page_shows_a_negative_rating(client, sunk):
    league, anna, bruno, game = sunk
    pages = [
        reverse("web:player", args=[anna.pk]),
        reverse("web:leaderboard-game", args=["felix"]),
        reverse("web:leaderboard-game", args=["felix"]) + f"?league={league.slug}",
        reverse("web:league", args=[league.slug]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert not negatives(html), (url, negatives(html))
        assert str(display.FLOOR) in strip_tags(html), url  # Anna sits on the floor
    bruno_page = client.get(reverse("web:player", args=[bruno.pk])).content.decode()
    assert not negatives(bruno_page)
    assert str(display.points(-5.0)) in strip_tags(bruno_page)
    # A game's page shows what the game did to each rating: a fall is a change, not a
    # rating, and reads in the same whole points.
    game_page = client.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "−10" not in game_page  # Anna's change: both ends at the floor, so 0
    assert f"−{display.change(-3.0, -5.0) * -1}" in game_page


def test_the_profile_shows_the_scale_and_marks_provisional(client, sunk):
    _league, anna, _bruno, _game = sunk
    html = client.get(reverse("web:player", args=[anna.pk])).content.decode()
    assert '<span class="provisional"' in html  # one rated game: provisional
    assert "1500" in strip_tags(html)  # the scale's start, in the explanation
    assert "-100.0" not in html and "−100,0" not in html and "−100.0" not in html


def test_provisional_on_few_games_only(client, sunk):
    """issue 26: Anna has 1 rated game (provisional), Bruno's row says 12 (not)."""
    _league, anna, bruno, _game = sunk
    html = client.get(reverse("web:leaderboard-game", args=["felix"])).content.decode()
    rows = {
        name: row
        for row in re.findall(r"<tr>.*?</tr>", html, flags=re.S)
        for name in (anna.display_name, bruno.display_name)
        if name in row
    }
    assert 'class="provisional"' in rows[anna.display_name]
    assert 'class="provisional"' not in rows[bruno.display_name]
    assert str(display.points(-5.0)) in strip_tags(rows[bruno.display_name])


def test_the_chart_points_are_shown_ratings(client, sunk):
    _league, anna, _bruno, _game = sunk
    html = client.get(reverse("web:player", args=[anna.pk])).content.decode()
    series = re.search(r'id="rating-series"[^>]*>(.*?)</script>', html, flags=re.S).group(1)
    assert f", {display.FLOOR}, " in series


def test_the_admin_lists_show_no_negative_rating(admin_client, sunk):
    for name in ("rating", "ratingchange"):
        response = admin_client.get(reverse(f"admin:games_{name}_changelist"))
        assert response.status_code == 200
        html = response.content.decode()
        # The change column may be negative (a fall); the ratings may not.
        cells = re.findall(
            r'<td class="field-(?:shown_rating|shown_before|shown_after)">(.*?)</td>', html
        )
        assert cells and all(int(c.rstrip("?")) >= display.FLOOR for c in cells), cells
    rating = Rating.objects.filter(player=sunk[1]).first()
    detail = admin_client.get(reverse("admin:games_rating_change", args=[rating.pk]))
    assert "-100" not in detail.content.decode()
