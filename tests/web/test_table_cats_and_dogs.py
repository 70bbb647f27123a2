"""Come Cani e Gatti at the web table.

In the browser: from the home page, a new user plays a whole game against a computer by
tapping the board only, and reaches the final screen; the table fits a phone and reads on a desktop.
Without a browser: each seat's page shows that seat's own action cards and never another
seat's (C7), and an action's steps read as words with the cards drawn.
"""

import pytest
from django.test import Client
from django.urls import reverse

from games.kinds.cats_and_dogs import web
from games.kinds.cats_and_dogs.engine import RULES
from games.play.models import Game, GameStatus, Player
from games.play.table import Table
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import play_by_clicking, start_from_home
from web.tables import event_text, pick_tree, table_context

HANDS = [["bowl", "shoo", "wander"], ["clean", "helping", "swap"]]  # disjoint on purpose
LAYOUT = [15, 0, 12, 3]  # Clarence (cat, 3 squares), Rex, Luna, Lassie


def two_browser_players(hands=HANDS) -> tuple[Game, dict[str, Client]]:
    """Ann opens a table for friends, Bob joins, Ann starts: two browsers, two seats."""
    ann, bob = Client(), Client()
    ann.post(
        reverse("web:play-create"),
        {"game": "cats_and_dogs", "name": "Ann", "computers": "0", "friends": "1"},
    )
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(options={"hands": hands, "layout": LAYOUT})
    bob.post(reverse("web:table-join", args=[game.pk]), {"name": "Bob", "invite": game.invite})
    ann.post(reverse("web:table-start", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    return game, {"Ann": ann, "Bob": bob}


def seat_of(game: Game, name: str) -> int:
    return game.seats.get(player__display_name=name).number


def test_each_seat_sees_its_own_action_cards_and_never_another_seats(db):
    game, clients = two_browser_players()
    table = Table(game)
    for name, client in clients.items():
        mine = set(table.view(seat_of(game, name))["hand"])
        theirs = {
            card
            for seat in range(2)
            if seat != seat_of(game, name)
            for card in table.view(seat)["hand"]
        }
        assert mine and theirs and not mine & theirs  # the engine's views say whose is whose
        page = client.get(reverse("web:table", args=[game.pk])).content.decode()
        polled = client.get(reverse("web:table-state", args=[game.pk]), {"token": "old"})
        for html in (page, polled.json()["html"]):
            assert 'class="cad-hand"' in html
            hand = html.split('class="cad-hand"', 1)[1]
            for card in mine:
                assert web.card_label(card) in hand
                assert web.action_name(card) in hand
            for card in theirs:
                assert web.card_label(card) not in html
                assert web.action_name(card) not in html
    spectator = Client().get(reverse("web:table", args=[game.pk])).content.decode()
    assert 'class="cad-hand"' not in spectator
    for card in {c for hand in HANDS for c in hand}:
        assert web.card_label(card) not in spectator


def test_the_board_draws_the_animals_their_markers_food_and_totals(db):
    game, clients = two_browser_players()
    ann = seat_of(game, "Ann")
    options = {
        "hands": HANDS,
        "layout": LAYOUT,
        "plates": [["f5", "b3"], ["b4"], [], ["b1", "b2", "b3", "b4", "b5"]],
        "markers": [[ann, 1 - ann], [], [], [ann]],
        "first": ann,
    }
    game.state = RULES.dump(RULES.setup(2, 5, options))
    game.save()
    html = clients["Ann"].get(reverse("web:table", args=[game.pk])).content.decode()
    board = html.split('class="board cad', 1)[1].split("</section>", 1)[0]
    assert board.count('class="pet ') == 4
    assert "Clarence (cat, 3 squares)" in board and "Rex (dog, 1 square)" in board
    assert board.count('class="mk m') >= 3  # three markers on the animals
    assert ">+2</span>" in board  # Clarence: fish 5, bone 3
    assert ">+15</span>" in board and "sated" in board  # Lassie ate five bones
    assert "bone 3" in board and "fish 5" in board
    assert "Place one of your markers on an animal." in board


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", ["Piazza uno dei tuoi segnalini su un animale.", "52 carte cibo rimaste"]),
        ("pt", ["Coloca um dos teus marcadores num animal.", "52 cartas de comida restantes"]),
    ],
)
def test_the_table_speaks_the_players_language(db, language, expected):
    game, clients = two_browser_players()
    ann = seat_of(game, "Ann")
    options = {"hands": HANDS, "layout": LAYOUT, "plates": [["f5", "b3"], [], [], []]}
    game.state = RULES.dump(RULES.setup(2, 5, {**options, "first": ann}))
    game.save()
    html = (
        clients["Ann"]
        .get(reverse("web:table", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    for text in expected:
        assert text in html
    for english in ("Place one of your markers", "food cards left", "Action card:", "squares)"):
        assert english not in html


def test_issue_45_an_actions_taps_are_the_board_items_with_words(db):
    """Issue 45: marking is one tap on the animal; an action card is a tap on it, then on
    its targets on the board (a food card on a plate names its animal), Confirm last."""
    game, _clients = two_browser_players()
    ann_player = Player.objects.get(display_name="Ann")
    ann = seat_of(game, "Ann")
    options = {
        "hands": HANDS if ann == 0 else HANDS[::-1],  # Ann holds Pass the bowl and Shoo
        "layout": LAYOUT,
        "plates": [["f5"], ["b4"], [], []],
        "markers": [[ann], [1 - ann], [ann], [1 - ann]],
        "first": ann,
    }
    game.state = RULES.dump(RULES.setup(2, 5, options))
    game.save()
    # Ann marks first: one tap on Clarence sends mark:0 (Rex's one square is taken).
    t = table_context(game, ann_player)
    tree = t.picks["tree"]
    assert tree["animal:0"] == {"a": "mark:0"} and "animal:1" not in tree
    assert t.picks["labels"]["animal:0"] == "Clarence"
    html = clients_page(game, "Ann", _clients)
    assert 'data-pick="animal:0" data-action="mark:0"' in html
    assert 'data-pick="animal:1" disabled' in html
    # Then Pass the bowl: the card, bone 4 on Rex's plate, Luna; Confirm.
    state = RULES.load(game.state)
    RULES.apply(state, ann, "mark:0")
    game.state = RULES.dump(state)
    game.save()
    view = Table(game).view(ann)
    names = ["Ann", "Bob"] if ann == 0 else ["Bob", "Ann"]
    assert view["phase"] == "play"
    picks = pick_tree(web, Table(game).legal(ann), view, names)
    tree, labels = picks["tree"], picks["labels"]
    assert tree["pile"] == {"a": "draw"} and picks["auto"] == ""
    assert labels["hand:bowl"] == "Pass the bowl"
    assert tree["hand:bowl"]["n"]["food:1:b4"]["n"]["animal:2"] == {"a": "bowl:1:b4:2", "c": 1}
    assert labels["food:1:b4"] == "bone 4 (Rex)" and labels["animal:2"] == "Luna"
    # Shoo: the animal, then whose marker (one marker on it: table.js takes it at once).
    whose = tree["hand:shoo"]["n"]["animal:1"]["n"]
    assert list(whose) == [f"seat:{1 - ann}"]
    assert labels[f"seat:{1 - ann}"] == f"marker of: {names[1 - ann]}"


def test_issue_45_a_forced_draw_goes_by_itself_and_more_is_a_tap_on_the_animal(db):
    """C10: with no action card to play, drawing is the only way on (``auto``); C12: more
    food for the animal being fed is a tap on it, or More, with Stop beside it."""
    game, clients = two_browser_players()
    ann = seat_of(game, "Ann")
    state = RULES.setup(2, 5, {"hands": [[], []], "layout": LAYOUT, "first": ann})
    RULES.apply(state, ann, "mark:0")
    assert state.phase == "play"
    view = RULES.view(state, ann)
    picks = pick_tree(web, RULES.legal_actions(state, ann), view, ["Ann", "Bob"])
    assert picks["auto"] == "draw"
    RULES.apply(state, ann, "draw")
    RULES.apply(state, ann, "feed:2")
    view = RULES.view(state, ann)
    picks = pick_tree(web, RULES.legal_actions(state, ann), view, ["Ann", "Bob"])
    more, stop = {"a": "more"}, {"a": "stop"}
    assert picks["tree"] == {"animal:2": more, "more": more, "stop": stop}
    game.state = RULES.dump(state)
    game.save()
    html = clients_page(game, "Ann", clients)
    # Stop and More are the buttons under the board; no strip repeats the animals.
    bar = html.split('class="offers"', 1)[1].split("</div>", 1)[0]
    assert 'data-pick="more"' in bar and 'data-pick="stop"' in bar
    assert 'data-pick="animal' not in bar


def clients_page(game: Game, name: str, clients: dict[str, Client]) -> str:
    return clients[name].get(reverse("web:table", args=[game.pk])).content.decode()


def test_events_are_sentences_with_the_animals_names(db):
    game, _clients = two_browser_players()
    view = Table(game).view(None)
    names = ["Ann", "Bob"]
    clarence = 0
    assert event_text(
        "cats_and_dogs", {"type": "fed", "seat": 1, "animal": clarence, "card": "f5"}, names, view
    ) == ("Bob feeds fish 5 to animal Clarence.")
    text = event_text(
        "cats_and_dogs",
        {"type": "action", "seat": 0, "card": "bowl", "animal": 0, "food": "b3", "dest": 2},
        names,
        view,
    )
    assert text == "Ann plays Pass the bowl. Bone 3 moves from animal Clarence to Luna."
    assert event_text("cats_and_dogs", {"type": "turn", "seat": 0}, names, view) is None


@pytest.mark.services
@pytest.mark.slow
def test_a_new_user_plays_cats_and_dogs_to_the_end_by_clicking(
    page, chromium, live_server, transactional_db
):
    start_from_home(page, live_server.url, "cats_and_dogs", computers=1)
    page.wait_for_selector(".board.cad .pet")
    assert fits_the_phone(page)
    shot(page, "table-cats_and_dogs-phone")
    # Her first turn starts with a marker: the animals on the board are the buttons.
    assert page.locator('.pet-card[data-action^="mark:"]:not([disabled])').count() >= 1
    # The same player on a desktop: a second page on the same table, in the same session.
    desktop = chromium.new_context(
        viewport={"width": 1280, "height": 800}, storage_state=page.context.storage_state()
    )
    try:
        wide = desktop.new_page()
        wide.on("pageerror", lambda exc: page.problems.append(f"desktop page error: {exc}"))
        wide.on(
            "request",
            lambda r: (
                r.url.startswith(live_server.url)
                or r.url.startswith("data:")
                or page.problems.append(f"desktop external request: {r.url}")
            ),
        )
        wide.goto(page.url)
        wide.wait_for_selector(".board.cad .pet")
        assert wide.locator(".cad-hand li .card").count() == 3  # her own action cards
        shot(wide, "table-cats_and_dogs-desktop")
    finally:
        desktop.close()
    play_by_clicking(page, max_clicks=2000)
    game = Game.objects.get()
    assert game.status == GameStatus.FINISHED
    assert page.locator(".final .ranking li").count() == 2
    assert fits_the_phone(page)
    shot(page, "table-cats_and_dogs-final-phone")
    assert not page.problems, page.problems
