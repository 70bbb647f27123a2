"""Felix at the web table: a seat's page draws its own view and nothing more (F17: face-down
cards of the row stay face down for everyone but their owner), and in the browser a new
user plays a whole game against two computers by clicking only."""

import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.kinds.felix import web as web_felix
from games.play.models import Game, GameStatus
from games.play.table import Table
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import play_by_clicking, start_from_home
from web.tables import event_text

LABEL = re.compile(r'<svg[^>]*\baria-label="([^"]*)"')
BACK = "Face-down card"


def drawn_cards(html: str) -> Counter:
    """Every card the HTML draws, by its label (a face-down card is ``BACK``)."""
    return Counter(LABEL.findall(html))


def expected_cards(view: dict) -> Counter:
    """What a seat's page may draw, all from its own view: the sack and mouse cards, the
    row (its own face-down card shown to itself only), its hand (on the board or as the
    cards to place), its score pile and the card left out of its set."""
    seat = view["seat"]
    codes = ["sack", *(f"mouse:{number}" for number, _on in view["mouse_cards"])]
    backs = 0
    for code, owner in zip(view["row"], view["row_seats"], strict=True):
        if code is not None:
            codes.append(code)
        elif owner == seat:
            codes.append(view["my_card"])
        else:
            backs += 1
    if view["phase"] == "place":
        for other, placed in enumerate(view["placed"]):
            if placed and other == seat:
                codes.append(view["my_card"])
            elif placed:
                backs += 1
    codes += view["hand"] + view["score_pile"] + [view["missing"]]
    expected = Counter(web_felix.card_label(code) for code in codes)
    if backs:
        expected[BACK] = backs
    return expected


def hidden_from(game: Game, seat: int) -> list[str]:
    """The other seats' face-down cards, as their owners' own views know them."""
    table = Table(game)
    mine = table.view(seat)
    hidden = []
    for other in range(mine["n_players"]):
        if other == seat:
            continue
        theirs = table.view(other)
        face_down = theirs["phase"] == "place" and theirs["placed"][other]
        if theirs["phase"] == "auction":
            position = theirs["row_seats"].index(other)
            face_down = theirs["row"][position] is None
        if face_down:
            hidden.append(theirs["my_card"])
    return hidden


def assert_draws_only_its_view(html: str, game: Game, seat: int) -> None:
    view = Table(game).view(seat)
    drawn = drawn_cards(html)
    assert drawn == expected_cards(view)
    # The hand is there, card by card.
    for code, n in Counter(view["hand"]).items():
        assert drawn[web_felix.card_label(code)] >= n
    # Another seat's face-down card shows only as a back: its label appears no more often
    # than this seat's own view accounts for.
    for code in hidden_from(game, seat):
        label = web_felix.card_label(code)
        assert drawn[label] == expected_cards(view)[label]
    assert "None" not in html


@pytest.mark.django_db
def test_a_seat_sees_its_hand_and_never_another_seats_face_down_card(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("web:play-create"), {"game": "felix", "name": "Ann", "computers": "2"}
        )
    game = Game.objects.get()
    assert response.url == reverse("web:table", args=[game.pk])
    seat = game.seats.get(player__isnull=False).number
    # Placing: the computers have placed face down, Ann chooses from her hand.
    page = client.get(response.url).content.decode()
    view = Table(game).view(seat)
    assert view["phase"] == "place" and len(hidden_from(game, seat)) == 2
    assert_draws_only_its_view(page, game, seat)
    for code in view["hand"]:
        assert f'data-action="place:{code}"' in page
    # The auction: one card up, the others down, Ann's own down card shown to her only.
    card = view["hand"][0]
    with django_capture_on_commit_callbacks(execute=True):
        moved = client.post(
            reverse("web:table-move", args=[game.pk]),
            {"action": f"place:{card}", "version": game.version},
        )
    assert moved.json() == {"ok": True, "message": ""}
    game.refresh_from_db()
    view = Table(game).view(seat)
    # Usually some cards are still down; if the others all passed at once, all are up (F23).
    assert view["phase"] == "auction"
    down = zip(view["row"], view["row_seats"], strict=True)
    assert len(hidden_from(game, seat)) == sum(c is None and o != seat for c, o in down)
    for url in (response.url, reverse("web:table-state", args=[game.pk]) + "?wait=0"):
        got = client.get(url)
        html = got.json()["html"] if "state" in url else got.content.decode()
        assert_draws_only_its_view(html, game, seat)
        assert "Round <b>1/9</b>" in html


@pytest.mark.django_db
def test_a_spectator_sees_no_face_down_card(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("web:play-create"), {"game": "felix", "name": "Ann", "computers": "2"}
        )
    game = Game.objects.get()
    view = Table(game).view(None)
    html = Client().get(response.url).content.decode()
    drawn = drawn_cards(html)
    assert drawn[BACK] == sum(view["placed"])
    assert set(drawn) <= {web_felix.card_label(c) for c in ("sack", "mouse:3", "mouse:6")} | {BACK}


def test_labels_events_and_options_are_words():
    assert web_felix.card_label("15") == "cat 15"
    assert web_felix.card_label("-8") == "bad cat \u22128"
    assert web_felix.card_label("R") == "rabbit"
    assert web_felix.card_label("D") == "big dog"
    assert web_felix.card_label("d") == "small dog"
    assert web_felix.card_label("mouse:4") == "mouse card 4"
    assert web_felix.card_label("sack") == "the sack"
    names = ["Ann", "Bob", "Cy"]
    assert web_felix.option(("place", "11"), {}, names) == ("cat 11", "11")
    assert web_felix.option(("bid", "7"), {}, names) == ("Bid 7", None)
    events = [
        {"type": "pass", "seat": 1, "returned": 2, "took": 3, "mouse_card": 3},
        {"type": "dog_chase", "dog": "D", "cat": "15"},
        {"type": "sack_bought", "seat": 0, "price": 4, "cards": ["11", "R"]},
        {"type": "card_turned", "position": 1, "seat": 2, "card": "-5"},
    ]
    assert [event_text("felix", e, names, {}) for e in events] == [
        "Bob passes and takes 5 mice.",
        "Big dog chases away cat 15.",
        "Ann buys the sack for 4 mice: cat 11, rabbit",
        "A card turns: bad cat \u22125.",
    ]
    with translation.override("it"):  # the bot's sentences, the web's card names
        assert event_text("felix", events[0], names, {}) == "Bob passa e prende 5 topi."
        assert web_felix.card_label("-8") == "gatto cattivo \u22128"
        assert web_felix.option(("bid", "7"), {}, names) == ("Offri 7", None)
    with translation.override("pt"):
        assert event_text("felix", events[1], names, {}) == "Cão grande espanta gato 15."


@pytest.mark.services
@pytest.mark.slow
def test_a_new_user_plays_felix_to_the_end_by_clicking(page, live_server, transactional_db):
    start_from_home(page, live_server.url, "felix", computers=2)
    page.wait_for_selector(".board.felix")
    assert fits_the_phone(page)
    shot(page, "table-felix-phone")
    desktop = page.context.new_page()
    desktop.set_viewport_size({"width": 1280, "height": 800})
    desktop.goto(page.url)
    desktop.wait_for_selector(".board.felix")
    shot(desktop, "table-felix-desktop")
    desktop.close()
    # Place a card (one tap on it in the hand) and reach the auction.
    page.locator('.fx-hand [data-action^="place:"]').first.click()
    page.wait_for_selector('.choices [data-pick="pass"]:visible')
    assert page.locator(".fx-row:not(.placing) .fx-slot").count() == 4  # F30: 3 + virtual
    assert fits_the_phone(page)
    shot(page, "table-felix-auction-phone")
    if page.locator('.choices [data-pick^="bid:"]').count():  # every legal bid, one tap each
        assert fits_the_phone(page)  # in a row that scrolls sideways in its own box
        shot(page, "table-felix-bids-phone")
    play_by_clicking(page, max_clicks=400)
    game = Game.objects.get()
    assert game.status == GameStatus.FINISHED
    assert page.locator(".final .ranking li").count() == 3
    assert fits_the_phone(page)
    shot(page, "table-felix-final-phone")
    assert not page.problems, page.problems
