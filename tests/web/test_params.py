"""Request parameters are read strictly (web/params.py): a malformed one is a 400 with
a message naming it, never a 500, and never a long poll longer than TABLE_WAIT_SECONDS."""

from __future__ import annotations

import contextlib
import signal
import time

import pytest
from django.test import Client
from django.urls import reverse

from games import catalog
from games.play.models import Game, GameStatus, Move, Seat
from tests.web.test_play import init_data, new_table

pytestmark = pytest.mark.django_db(transaction=True)  # moves are processed after commit

WAIT = 0.5
# What Python's parsers accept but no page sends: NaN, infinities, negatives, exponents,
# digits that are not ASCII (superscript two, Arabic-Indic five), a number too long for
# int() (Python's digit limit), and words.
BAD_NUMBERS = ["nan", "inf", "-inf", "-1", "1e309", "1e3", "abc", "²", "٥", "1" * 5000, "0x10"]


@pytest.fixture(autouse=True)
def short_polls(settings):
    settings.TABLE_WAIT_SECONDS = WAIT
    settings.TELEGRAM_BOT_TOKEN = "123456:TEST-TOKEN"
    settings.MINIAPP_MAX_AGE = 3600


@contextlib.contextmanager
def at_most(seconds: float):
    """Fails the test when the block takes longer than ``seconds`` (a long poll that never
    ends would otherwise hang the run)."""

    def expired(_signum, _frame):
        raise TimeoutError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def server_errors_answered() -> Client:
    """A client that gets a 500 as a response instead of the view's exception."""
    return Client(raise_request_exception=False)


def refused_400(response, name: str) -> None:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert f"“{name}”" in response.json()["message"]


# -- the long poll ---------------------------------------------------------------------------
@pytest.mark.parametrize("wait", ["nan", "inf", "-1", "1e309", "abc", "NaN", "1e-3", "5"])
def test_a_malformed_or_too_long_wait_is_refused_at_once(client, wait):
    game = new_table(client, "felix", computers=1, friends=True)
    token = client.get(reverse("web:table-state", args=[game.pk]) + "?wait=0").json()["token"]
    url = reverse("web:table-state", args=[game.pk])
    started = time.monotonic()
    with at_most(4 * WAIT):
        response = client.get(url, {"token": token, "wait": wait})
    assert time.monotonic() - started < WAIT
    refused_400(response, "wait")


@pytest.mark.parametrize("wait", [None, "0", "0.2", str(WAIT)])
def test_a_poll_waits_what_it_asks_and_never_more_than_the_maximum(client, wait):
    game = new_table(client, "felix", computers=1, friends=True)
    url = reverse("web:table-state", args=[game.pk])
    token = client.get(url, {"wait": "0"}).json()["token"]
    query = {"token": token} if wait is None else {"token": token, "wait": wait}
    started = time.monotonic()
    with at_most(4 * WAIT):
        response = client.get(url, query)
    elapsed = time.monotonic() - started
    assert response.status_code == 200 and response.json()["token"] == token
    asked = WAIT if wait is None else float(wait)
    assert asked <= elapsed < asked + WAIT


def test_an_overlong_token_is_refused(client):
    game = new_table(client, "felix", computers=1, friends=True)
    response = client.get(reverse("web:table-state", args=[game.pk]), {"token": "x" * 101})
    refused_400(response, "token")


# -- moves, new tables, computers -----------------------------------------------------------
@pytest.mark.parametrize("version", ["²", "-1", "1" * 5000, "1.0", "nan"])
def test_a_move_with_a_malformed_version_is_refused_and_not_recorded(client, version):
    game = new_table(client, "felix", computers=2)
    moves = Move.objects.filter(game=game).count()
    response = client.post(
        reverse("web:table-move", args=[game.pk]),
        {"action": "anything", "version": version, "key": "k1"},
    )
    refused_400(response, "version")
    assert Move.objects.filter(game=game).count() == moves


@pytest.mark.parametrize(
    ("name", "value"), [("key", "k" * 41), ("key", "a\0b"), ("action", "x" * 501)]
)
def test_a_move_with_an_overlong_or_nul_key_or_action_is_refused(client, name, value):
    game = new_table(client, "felix", computers=2)
    moves = Move.objects.filter(game=game).count()
    data = {"action": "anything", "version": "1", "key": "k1", name: value}
    refused_400(client.post(reverse("web:table-move", args=[game.pk]), data), name)
    assert Move.objects.filter(game=game).count() == moves


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("computers", "²"),
        ("computers", "x"),
        ("computers", "9"),
        ("level", "genius"),
        ("game", "chess"),
    ],
)
def test_a_new_table_with_a_malformed_choice_is_refused_on_the_form(client, field, value):
    data = {"game": "felix", "name": "Ann", "computers": "2", "level": ["normal", "easy"]}
    data[field] = value
    response = client.post(reverse("web:play-create"), data, HTTP_ACCEPT="text/html")
    assert response.status_code == 400
    page = response.content.decode()
    assert f"“{field}”" in page and 'name="computers"' in page  # the form, with the reason
    assert not Game.objects.exists()


@pytest.mark.parametrize("seat", ["²", "-1", "1" * 5000, "99999"])
def test_a_computer_choice_with_a_malformed_seat_is_refused(client, seat):
    game = new_table(client, "felix", computers=1, friends=True)
    response = client.post(
        reverse("web:table-computer", args=[game.pk]),
        {"seat": seat, "level": "hard"},
        HTTP_ACCEPT="text/html",
    )
    assert response.status_code == 400
    assert "“seat”" in response.content.decode()
    assert list(Seat.objects.filter(game=game, player=None).values_list("strategy", flat=True)) == [
        "heuristic"
    ]


# -- the replay and the lists ----------------------------------------------------------------
@pytest.mark.parametrize("since", ["²", "1" * 5000, "-1", "1e3"])
def test_a_replays_malformed_since_is_a_400_not_a_500(client, since):
    game = new_table(client, "felix", computers=2)
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING
    response = server_errors_answered().get(
        reverse("web:game", args=[game.pk]),
        {"format": "json", "since": since},
        HTTP_ACCEPT="application/json",
    )
    refused_400(response, "since")


def test_a_replays_since_still_gives_the_steps_from_there(client):
    game = new_table(client, "felix", computers=2)
    url = reverse("web:game", args=[game.pk])
    everything = client.get(url, {"format": "json"}).json()
    assert everything["from"] == 0
    response = client.get(url, {"format": "json", "since": "1"}).json()
    assert response["from"] == 1 and response["steps"] == everything["steps"][1:]


@pytest.mark.parametrize("page", ["web:players", "web:games", "web:leaderboard"])
@pytest.mark.parametrize("cursor", ["after", "before"])
@pytest.mark.parametrize("value", ["²", "1" * 5000, "0", "-3"])
def test_a_malformed_cursor_is_a_page_saying_so_not_a_500(page, cursor, value):
    response = server_errors_answered().get(
        reverse(page), {cursor: value}, HTTP_ACCEPT="text/html,application/xhtml+xml"
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert f"“{cursor}”" in text and "<h1>" in text  # a page, not a blank one


@pytest.mark.parametrize(("page", "name"), [("web:players", "q"), ("web:leaderboard", "league")])
def test_a_nul_in_a_search_is_refused(page, name):
    # PostgreSQL cannot compare a string with a NUL in it: the query would fail.
    response = server_errors_answered().get(reverse(page), {name: "a\0"})
    refused_400(response, name)


def test_the_lists_still_page(client):
    assert client.get(reverse("web:players"), {"after": "12"}).status_code == 200
    assert client.get(reverse("web:games"), {"before": "3"}).status_code == 200


# -- the Mini App ----------------------------------------------------------------------------
@pytest.mark.parametrize("start_param", ["²", "1" * 5000, "-1", "abc", "0"])
def test_a_mini_app_start_parameter_that_is_no_table_opens_the_play_page(start_param):
    response = server_errors_answered().post(
        reverse("web:miniapp-signin"), {"init_data": init_data(start_param=start_param)}
    )
    assert response.status_code == 200
    assert response.json() == {"url": reverse("web:play")}


# -- the helper itself -----------------------------------------------------------------------
@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_no_number_python_would_be_lenient_about_passes(raw):
    from web import params

    with pytest.raises(params.BadParameter):
        params.integer(raw, "n", maximum=10**18)
    with pytest.raises(params.BadParameter):
        params.number(raw, "n", maximum=10.0**6, default=0.0)


def test_numbers_in_range_pass_and_absent_ones_take_the_default():
    from web import params

    assert params.integer("042", "n", maximum=100) == 42
    assert params.integer(None, "n", maximum=100, default=7) == 7
    assert params.integer("", "n", maximum=100) is None
    assert params.number("2.5", "n", maximum=3.0, default=1.0) == 2.5
    with pytest.raises(params.BadParameter):
        params.integer("101", "n", maximum=100)
    with pytest.raises(params.BadParameter):
        params.integer("0", "n", minimum=1, maximum=100)


@pytest.mark.parametrize(("field", "value"), [("computers", "x"), ("game", "chess")])
def test_a_refused_new_table_form_comes_back_with_every_game_and_what_was_typed(
    client, field, value
):
    data = {"game": "smoking_cat", "name": "Ann", "computers": "2", "level": ["easy", "hard"]}
    data[field] = value
    response = client.post(reverse("web:play-create"), data, HTTP_ACCEPT="text/html")
    assert response.status_code == 400
    page = response.content.decode()
    for slug in catalog.slugs():
        assert f'name="game" value="{slug}"' in page
    assert 'value="Ann"' in page
    # What was chosen is chosen again, and a choice the form does not offer is its default.
    game = "smoking_cat" if field != "game" else catalog.slugs()[0]
    assert f'name="game" value="{game}" checked' in page
    count = "2" if field != "computers" else "3"
    assert f'<option value="{count}" selected>' in page
    assert page.count('value="hard" selected') == 1
    assert page.count('value="easy" selected') == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/play/{}/", "/play/{}/state/", "/games/{}/", "/players/{}/", "/tournaments/{}/"],
)
@pytest.mark.parametrize("number", ["9" * 19, "9" * 20, "1" + "0" * 400])
def test_an_id_past_any_row_in_a_path_is_no_such_page_not_a_500_issue_25(client, path, number):
    """Twenty digits reached the query through Django's ``int`` and failed there (500)."""
    assert client.get(path.format(number)).status_code == 404
