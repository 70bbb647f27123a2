"""The games in the admin: none is added by hand (games start from the bot and the site),
none is edited (finished ones are records; open ones change through the moderation
actions), a result reads as a table, and the actions whose reason the game's public page
shows say so."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from games.play.models import Game
from tests.factories import LeagueFactory
from tests.web.seed import finished, players

pytestmark = pytest.mark.django_db


def test_no_game_is_added_by_hand(admin_client):
    """Issue 17: "Add game" was offered and its Save failed (a game needs its chat)."""
    changelist = admin_client.get(reverse("admin:games_game_changelist"))
    assert changelist.status_code == 200
    assert reverse("admin:games_game_add") not in changelist.content.decode()
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    assert admin_client.post(reverse("admin:games_game_add"), {}).status_code == 403
    assert not Game.objects.exists()


def test_a_finished_game_is_read_only(admin_client):
    """Issue 17: a finished game's league and turn time were still editable."""
    old, new = LeagueFactory(), LeagueFactory()
    game = finished("felix", players(2), [1, 2], league=old, turn_seconds=60)
    url = reverse("admin:games_game_change", args=[game.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="league"' not in page and 'name="turn_seconds"' not in page
    assert 'name="_save"' not in page
    response = admin_client.post(url, {"league": new.pk, "turn_seconds": 5})
    assert response.status_code == 403
    game.refresh_from_db()
    assert (game.league, game.turn_seconds) == (old, 60)


def test_the_result_reads_as_a_table(admin_client):
    """Players best first with place and score; Smoking Cat's score is letters (S16)."""
    anna, bruno, carla, dario = players(4)
    game = finished("smoking_cat", [anna, bruno, carla, dario], [3, 1, 2, 4], [4, 0, 2, 5])
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert '"ranks"' not in page  # no raw JSON
    assert "Letters (fewer is better)" in page
    table = page[page.index('class="result-table"') :]
    table = table[: table.index("</table>")]
    order = [table.index(p.display_name) for p in (bruno, carla, anna, dario)]
    assert order == sorted(order)
    assert "<td>1</td><td>2</td><td>" + bruno.display_name in table
    felix = finished("felix", [anna, None], [1, 2], [30, 12])
    page = admin_client.get(reverse("admin:games_game_change", args=[felix.pk])).content.decode()
    assert "<th>Score</th>" in page and "Letters" not in page and "Computer 2" in page


@pytest.mark.parametrize("action", ["abort", "flag_not_rated"])
def test_actions_whose_reason_is_public_say_so(admin_client, action):
    """Issue 17: the abort form said its reason stayed in the moderation log, but the
    game's public page shows it (and a flag's reason too)."""
    game = finished("felix", players(2), [1, 2])
    changelist = admin_client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "(the reason is shown publicly)" in changelist
    form = admin_client.post(
        reverse("admin:games_game_changelist"),
        {"action": action, ACTION_CHECKBOX_NAME: [game.pk], "index": 0},
    ).content.decode()
    assert "Shown to everyone on the game&#x27;s public page" in form
    assert "Kept in the moderation log." not in form
