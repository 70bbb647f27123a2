"""Adding a game is one new module plus one catalog entry: a game that exists only in the
tests (``fake_game``) shows up in /new, the lobby, the table, the rules page and the admin
once it is registered, with no other file touched."""

import pytest
from django.urls import reverse

from games import catalog
from games.play.models import GameStatus
from tests.bot.play import Table

CAT_NAP = catalog.GameKind(
    slug="cat_nap",
    name="Cat Nap",
    short_name="Nap",
    emoji="💤",
    engine="tests.bot.fake_game",
    computers="tests.bot.fake_game",
    renderers={catalog.TELEGRAM: "tests.bot.fake_game"},
    aliases=("nap",),
    turn_seconds=20,
    summary=("Nap or purr; the sleepiest cat wins.",),
    interpretations=(("N1", "Purring is allowed at any time."),),
    private_hands=False,
)


@pytest.fixture
def cat_nap():
    catalog.register(CAT_NAP)
    yield CAT_NAP
    catalog.unregister(CAT_NAP.slug)


def test_the_fifth_game_is_offered_by_new_and_played_through_the_bot(cat_nap, telegram, recorder):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    anna.say(group, "/new")
    picker = recorder.last(group["id"])
    assert "n:cat_nap" in [b["callback_data"] for b in picker.buttons]
    assert any(b["text"] == "💤 Cat Nap" for b in picker.buttons)

    table = Table(telegram, recorder, group, [anna, bruno])
    game = table.open_lobby("nap", anna, [bruno])  # by its alias
    assert game.game_type == "cat_nap" and game.turn_seconds == 20
    assert any("💤 <b>Cat Nap</b>" in m.html for m in recorder.screen(group["id"]))  # lobby
    while table.game().status == GameStatus.RUNNING:
        (seat,) = table.to_act()
        user = anna if table.seat_of(anna) == seat else bruno
        shown = recorder.with_button(group["id"], f"g{game.pk}:")
        table.tap(user, shown, label="💤 Nap")
    game = table.game()
    assert game.status == GameStatus.FINISHED
    assert game.outcome.scores == (3, 3)
    assert "🏁 <b>Cat Nap</b>" in recorder.last(group["id"]).html


def test_the_fifth_game_has_its_rules_and_admin_pages(cat_nap, admin_client, client):
    assert 'id="cat_nap"' in client.get(reverse("web:rules")).content.decode()
    page = client.get(reverse("web:rules-game", args=["cat_nap"])).content.decode()
    assert 'id="N1"' in page and "Purring is allowed at any time." in page
    changelist = admin_client.get(reverse("admin:games_game_changelist"))
    assert "Cat Nap" in changelist.content.decode()  # the game filter offers it
