"""Standings, seasons and Smoking Cat letters on a seeded league, against expectations
worked out by hand (the ratings straight from openskill, not from games.ratings)."""

from datetime import date, timedelta

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from games.leagues.models import Season
from games.ratings import standings
from games.ratings.models import RatedGame
from tests.web.seed import seed_league

pytestmark = pytest.mark.django_db
OS = PlackettLuce()


@pytest.fixture
def s():
    return seed_league()


def expected_ratings():
    """Felix in the league: g1 Anna 1st, Bruno 2nd, Carla 3rd; g2 Bruno beats Anna;
    g3 Bruno and Carla tie for first, Dario 3rd. g4 (flagged), g5 (computers), g6 (a
    game the league does not count), g7 (another league) and g8 (aborted) do not count."""
    r = {n: OS.rating() for n in "ABCD"}
    after = {}
    a, b, c = (t[0] for t in OS.rate([[r["A"]], [r["B"]], [r["C"]]], ranks=[1, 2, 3]))
    r.update(A=a, B=b, C=c)
    after["g1"] = dict(r)
    b, a = (t[0] for t in OS.rate([[r["B"]], [r["A"]]], ranks=[1, 2]))
    r.update(A=a, B=b)
    after["g2"] = dict(r)
    b, c, d = (t[0] for t in OS.rate([[r["B"]], [r["C"]], [r["D"]]], ranks=[1, 1, 3]))
    r.update(B=b, C=c, D=d)
    after["g3"] = dict(r)
    return after


def rows_by_name(rows):
    return {row.name: row for row in rows}


def test_all_time_felix_standings(s):
    rows = standings.table(s.league, "felix")
    exp = expected_ratings()["g3"]
    by = rows_by_name(rows)
    assert set(by) == {"Anna", "Bruno", "Carla", "Dario"}
    # name: (games, wins, average score, last played day)
    hand = {
        "Anna": (2, 1, 35.0, date(2026, 3, 10)),
        "Bruno": (3, 2, (40 + 30 + 40) / 3, date(2026, 4, 5)),
        "Carla": (2, 1, 35.0, date(2026, 4, 5)),
        "Dario": (1, 0, 10.0, date(2026, 4, 5)),
    }
    for name, (games, wins, avg, last) in hand.items():
        row = by[name]
        assert (row.games, row.wins, row.last_played.date()) == (games, wins, last)
        assert row.average_score == pytest.approx(avg)
        assert row.rating == pytest.approx(exp[name[0]].ordinal())
    # Best rating first, ranks 1..n.
    order = sorted(hand, key=lambda n: -exp[n[0]].ordinal())
    assert [row.name for row in rows] == order
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_season_standings_use_the_season_games_and_ratings_that_start_afresh(s):
    exp = expected_ratings()
    spring = rows_by_name(standings.table(s.league, "felix", s.spring))
    assert set(spring) == {"Anna", "Bruno", "Carla"}
    assert (spring["Anna"].games, spring["Anna"].wins, spring["Anna"].average_score) == (2, 1, 35)
    assert (spring["Bruno"].games, spring["Bruno"].wins) == (2, 1)
    assert spring["Bruno"].average_score == pytest.approx(35)
    assert (spring["Carla"].games, spring["Carla"].wins, spring["Carla"].average_score) == (
        1,
        0,
        30,
    )
    # Each season's ratings start afresh: spring began with g1, so its ratings are the
    # ones after g2 for Anna and Bruno and after g1 for Carla.
    assert spring["Anna"].rating == pytest.approx(exp["g2"]["A"].ordinal())
    assert spring["Bruno"].rating == pytest.approx(exp["g2"]["B"].ordinal())
    assert spring["Carla"].rating == pytest.approx(exp["g1"]["C"].ordinal())

    april = rows_by_name(standings.table(s.league, "felix", s.april))
    assert set(april) == {"Bruno", "Carla", "Dario"}
    assert (april["Bruno"].games, april["Bruno"].wins, april["Bruno"].average_score) == (1, 1, 40)
    assert (april["Carla"].games, april["Carla"].wins, april["Carla"].average_score) == (1, 1, 40)
    assert (april["Dario"].games, april["Dario"].wins, april["Dario"].average_score) == (1, 0, 10)
    # April starts everyone afresh (issue 15: the season reset): g3 alone, not the
    # ratings Bruno and Carla brought from spring, which the all-time table keeps.
    b, c, d = (t[0] for t in OS.rate([[OS.rating()] for _ in range(3)], ranks=[1, 1, 3]))
    assert april["Bruno"].rating == pytest.approx(b.ordinal())
    assert april["Carla"].rating == pytest.approx(c.ordinal())
    assert april["Dario"].rating == pytest.approx(d.ordinal())
    assert april["Bruno"].rating != pytest.approx(exp["g3"]["B"].ordinal())


def test_tied_ratings_share_a_place(s):
    # Bruno and Carla tied in g3 from different ratings; in a fresh league two players
    # who only ever tied each other share first place.
    from games.leagues.models import League
    from tests.web.seed import finished

    league = League.objects.create(name="Tie", slug="tie")
    finished("felix", [s.anna, s.bruno, None], [1, 1, 3], league=league)
    rows = standings.table(league, "felix")
    assert [r.rank for r in rows] == [1, 1]


def test_games_the_league_does_not_count_have_no_table(s):
    assert standings.table(s.league, "bon_appetit") == []
    assert [t for t, _name, _rows in standings.tables(s.league)] == [
        "felix",
        "smoking_cat",
        "cats_and_dogs",
    ]
    # ... but they count overall.
    assert RatedGame.objects.get(game=s.g6).rated


def test_unrated_games_are_not_in_the_standings(s):
    for game, reason in ((s.g4, "flagged"), (s.g5, "computers")):
        assert RatedGame.objects.get(game=game).skipped == reason
    assert not RatedGame.objects.filter(game=s.g8).exists()  # aborted: never finished
    anna = rows_by_name(standings.table(s.league, "felix"))["Anna"]
    assert anna.games == 2  # not g4, g5, g7


def test_running_matches_show_each_players_letters(s):
    matches = standings.running_matches(s.league)
    assert [m.game for m in matches] == [s.match]
    match = matches[0]
    assert match.target == "MICIO" and match.heading == "Smoking Cat matches in progress"
    letters = {line.name: line.marks for line in match.seats}
    assert letters == {"Anna": "MI", "Bruno": "", "Carla": "M", "Dario": ""}


def test_pick_season(s):
    seasons, chosen = standings.pick_season(s.league, str(s.spring.pk))
    assert chosen == s.spring and seasons == [s.april, s.spring]
    assert standings.pick_season(s.league, "all")[1] is None
    assert standings.pick_season(s.league, "nonsense")[1] in (None, s.april)
    # Without a choice: the season running today, if any.
    today = timezone.localdate()
    current = Season.objects.create(
        league=s.other, name="Now", starts_on=today - timedelta(days=3), ends_on=today
    )
    assert standings.pick_season(s.other, None)[1] == current
    assert standings.pick_season(s.other, "")[1] == current


def test_recent_games_newest_first_with_results(s):
    lines = standings.recent_games(league=s.league, limit=3)
    assert [line.game for line in lines] == [s.g8, s.g6, s.g5]
    mine = standings.recent_games(player=s.dario)
    assert [line.game for line in mine] == [s.g8, s.g4, s.g3]
    g3 = next(line for line in mine if line.game == s.g3)
    assert [(x.name, x.rank, x.score) for x in g3.seats] == [
        ("Bruno", 1, 40),
        ("Carla", 1, 40),
        ("Dario", 3, 10),
    ]
