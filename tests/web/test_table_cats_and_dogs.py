"""Come Cani e Gatti at the web table.

In the browser: from the home page, a new user plays a whole game against a computer by
clicking only, and reaches the final screen; the table fits a phone and reads on a desktop.
Without a browser: each seat's page shows that seat's own action cards and never another
seat's (C7), and an action's steps read as words with the cards drawn.
"""

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.kinds.cats_and_dogs import web
from games.kinds.cats_and_dogs.engine import RULES
from games.play.models import Game, GameStatus, Player
from games.play.table import Table
from tests.web.browser import fits_the_phone, shot
from tests.web.tables import start_from_home
from web.tables import choice_tree, event_text, table_context

HANDS = [["bowl", "shoo", "wander"], ["clean", "helping", "swap"]]  # disjoint on purpose
LAYOUT = [15, 0, 12, 3]  # Clarence (cat, 3 squares), Rex, Luna, Lassie


def click_to_the_end(page, max_clicks: int, seed: int = 7) -> int:
    """Click one of the offered choices at a time, each step of an action and then Confirm,
    until the final screen. (``tests.web.tables.play_by_clicking`` waits for the first
    option in the page, which for an action with steps is one in a hidden step.)"""
    rng = random.Random(seed)
    offered = ".choices .opt:visible:not([disabled])"
    for clicks in range(max_clicks):
        page.wait_for_selector(f".final, {offered}")
        if page.locator(".final").count():
            return clicks
        options = page.locator(offered)
        if n := options.count():
            options.nth(rng.randrange(n)).click()
        confirm = page.locator(".choices .confirm .do:visible:not([disabled])")
        if confirm.count():
            confirm.click()
    raise AssertionError(f"no final screen after {max_clicks} clicks")


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


def test_an_actions_steps_read_as_words_with_the_cards(db):
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
    # Ann marks first: "Place a marker" → "on: Clarence" with Clarence's card.
    t = table_context(game, ann_player)
    (mark,) = t.choices
    assert mark.label == "Place a marker"
    assert [(c.label, c.card) for c in mark.children][:2] == [
        ("on: Clarence", "animal:15"),
        ("on: Luna", "animal:12"),  # Rex's one square is taken
    ]
    # Then Pass the bowl reads "from: Rex" → "food: bone 4" → "to: Luna".
    state = RULES.load(game.state)
    RULES.apply(state, ann, "mark:0")
    game.state = RULES.dump(state)
    game.save()
    view = Table(game).view(ann)
    names = ["Ann", "Bob"] if ann == 0 else ["Bob", "Ann"]
    assert view["phase"] == "play"
    tree = choice_tree(web, Table(game).legal(ann), view, names)
    labels = {c.path: (c.label, c.card) for c in tree}
    assert labels["draw"] == ("Draw food", None)
    assert labels["bowl"] == ("Pass the bowl", "bowl")
    bowl = next(c for c in tree if c.path == "bowl")
    rex = next(c for c in bowl.children if c.path == "bowl:1")
    assert (rex.label, rex.card) == ("from: Rex", "animal:0")
    (bone,) = rex.children
    assert (bone.label, bone.card) == ("food: bone 4", "b4")
    luna = next(c for c in bone.children if c.path == "bowl:1:b4:2")
    assert (luna.label, luna.card, luna.action) == ("to: Luna", "animal:12", "bowl:1:b4:2")
    shoo = next(c for c in tree if c.path == "shoo")
    whose = shoo.children[0].children[0]
    assert whose.label == f"marker of: {names[int(whose.path.rsplit(':', 1)[1])]}"


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
    # Her first turn starts with a marker: the step offers the animals as cards.
    page.click(".choices .opt[data-path=mark]")
    page.wait_for_selector(".choices .step:visible .opt.withcard")
    assert fits_the_phone(page)
    shot(page, "table-cats_and_dogs-step-phone")
    page.click(".choices .undo")
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
    click_to_the_end(page, max_clicks=2000)
    game = Game.objects.get()
    assert game.status == GameStatus.FINISHED
    assert page.locator(".final .ranking li").count() == 2
    assert fits_the_phone(page)
    shot(page, "table-cats_and_dogs-final-phone")
    assert not page.problems, page.problems
