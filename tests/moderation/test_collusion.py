"""Issue 48: collusion signals. The statistic (pure) stays quiet over honest results and
finds a planted pair; the periodic job opens a case for it, with the figure and the games,
and acts on nobody."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from bench.collusion import _thrown
from games.moderation import collusion
from games.moderation.collusion_job import collusion_scan
from games.moderation.models import Case
from games.play.models import Player
from tests.web.seed import finished, players


def honest(n_games: int, pool: int, rng: random.Random, start: int = 0) -> list[collusion.Game]:
    games = []
    for i in range(n_games):
        n = rng.randint(3, 5)
        people = rng.sample(range(pool), n)
        ranks = list(range(1, n + 1))
        rng.shuffle(ranks)
        places = dict(zip(people, collusion.placements(ranks), strict=True))
        games.append(collusion.Game(start + i, places))
    return games


def planted(n_games: int, pool: int, rng: random.Random, start: int) -> list[collusion.Game]:
    games = []
    for i in range(n_games):
        n = rng.randint(3, 5)
        people = [0, 1, *rng.sample(range(2, pool), n - 2)]
        rng.shuffle(people)
        ranks = list(range(1, n + 1))
        rng.shuffle(ranks)
        ranks = _thrown(ranks, people.index(0), people.index(1))
        places = dict(zip(people, collusion.placements(ranks), strict=True))
        games.append(collusion.Game(start + i, places))
    return games


def test_issue_48_the_statistic_stays_quiet_over_honest_results():
    alarms = 0
    for seed in range(20):
        found, tested = collusion.signals(honest(1000, 24, random.Random(seed)))
        assert tested > 0
        alarms += bool(found)
    # Bonferroni bounds a run's false alarm chance by alpha (1%); 20 runs: allow one.
    assert alarms <= 1


def test_issue_48_the_statistic_finds_a_planted_pair():
    rng = random.Random(7)
    games = honest(1000, 24, rng) + planted(60, 24, rng, start=1000)
    found, _tested = collusion.signals(games)
    assert [(s.beneficiary, s.partner) for s in found] == [(0, 1)]
    signal = found[0]
    assert signal.together >= 60 and signal.p < signal.threshold
    assert set(range(1000, 1060)) <= set(signal.games)
    assert "z=" in signal.figure()


def test_issue_48_thrown_places_put_the_partner_last_and_the_beneficiary_up():
    assert _thrown([1, 2, 3, 4], beneficiary=2, partner=0) == [4, 2, 1, 3]
    assert _thrown([2, 1, 3], beneficiary=1, partner=2) == [2, 1, 3]


@pytest.mark.django_db
def test_issue_48_the_collusion_job_flags_a_planted_pair():
    rng = random.Random(3)
    pool = players(10)
    cheat, partner = pool[0], pool[1]
    at = timezone.now() - timedelta(days=20)
    for i in range(160):
        if i % 4 == 0:  # a quarter of the games: the partner throws them to the cheat
            others = rng.sample(pool[2:], 2)
            seats = [cheat, partner, *others]
            rng.shuffle(seats)
            ranks = _thrown(rng.sample(range(1, 5), 4), seats.index(cheat), seats.index(partner))
        else:
            seats = rng.sample(pool, 4)
            ranks = rng.sample(range(1, 5), 4)
        finished("felix", seats, ranks, at=at + timedelta(minutes=30 * i))
    assert collusion_scan() >= 1
    case = Case.objects.get(kind="collusion", player=cheat)
    assert case.details["partner"] == partner.pk
    # The planted games, and the honest ones they happened to share.
    assert case.details["together"] >= 40
    assert len(case.details["games"]) == min(case.details["together"], 50)
    assert "p=" in case.details["figure"]
    # Nobody was acted on; a second run opens no second case.
    assert not Player.objects.filter(is_banned=True).exists()
    collusion_scan()
    assert Case.objects.filter(kind="collusion", player=cheat).count() == 1
