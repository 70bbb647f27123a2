"""The rating people see (issue 26): openskill's ordinal on a 1500-centred, Elo-like
scale, whole numbers, never below the floor, provisional on few games."""

from hypothesis import given
from hypothesis import strategies as st

from games.ratings import display
from games.ratings.maths import Skill, update

ordinals = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
sigmas = st.floats(min_value=0.01, max_value=50, allow_nan=False)


def test_a_newcomer_shows_the_centre_and_is_provisional():
    fresh = Skill()
    shown = display.shown(fresh.mu, fresh.sigma, 0)
    assert shown == display.Shown(1500, provisional=True)
    assert str(shown) == "1500?"


def test_two_losses_no_longer_read_negative():
    """issue 26: "Rating −5.9, best −3.3" after two losses becomes a number below 1500."""
    me, other = Skill(), Skill()
    for _ in range(2):
        me, other = update([me, other], [2, 1])
    assert me.ordinal < 0
    shown = display.shown(me.mu, me.sigma, 2)
    assert 1000 < shown.value < 1500 and shown.provisional


def test_the_default_spread_is_an_elo_class():
    """sigma0 (25/3) maps to 200 points, the width of an Elo class."""
    assert display.points(Skill().sigma) - display.points(0) == 200


@given(ordinals)
def test_never_below_the_floor_and_always_whole(ordinal):
    value = display.points(ordinal)
    assert isinstance(value, int) and value >= display.FLOOR


@given(ordinals, ordinals)
def test_the_mapping_is_monotonic(a, b):
    low, high = sorted((a, b))
    assert display.points(low) <= display.points(high)


@given(st.floats(min_value=-1e5, max_value=1e5, allow_nan=False), sigmas, sigmas)
def test_more_uncertainty_never_shows_higher(mu, s1, s2):
    low, high = sorted((s1, s2))
    assert display.shown(mu, high, 50).value <= display.shown(mu, low, 50).value


@given(st.integers(min_value=0, max_value=10_000))
def test_provisional_below_the_threshold_only(games):
    shown = display.shown_ordinal(3.0, games)
    assert shown.provisional == (games < display.PROVISIONAL_GAMES)
    assert str(shown).endswith("?") == shown.provisional


def test_a_change_is_in_shown_points():
    assert display.change(0, 1) == round(display.POINTS_PER_UNIT)
    assert display.change(-1000, -900) == 0  # both at the floor
