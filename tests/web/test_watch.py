"""Watching a running game (issue 17): its page is the live table as a spectator sees it,
with the replay so far, which follows the game by asking for the steps it lacks. Nothing a
seat keeps secret reaches that page or its JSON."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import art, catalog
from games.play import services
from games.play.models import Game
from games.play.replay import applied_moves, views
from games.play.table import Table, seen_by
from tests.web.seed import _on_commit
from tests.web.watching import person_moves, running

pytestmark = pytest.mark.django_db(transaction=True)  # moves are processed after commit

CODE = re.compile(r'data-code="([^"]+)"')
SCRIPT = r'<script id="{}" type="application/json">(.*?)</script>'


def embedded(html: str, name: str):
    return json.loads(re.search(SCRIPT.format(name), html, re.S).group(1))


def strings(value) -> set[str]:
    """Every string a view or an event holds, flattened."""
    if isinstance(value, dict):
        return set().union(set(), *(strings(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(strings(v) for v in value))
    return {value} if isinstance(value, str) else set()


def secrets(game: Game) -> set[str]:
    """The cards some seat holds now that no spectator has ever been shown."""
    seen: set[str] = set()
    for move, public, _private in views(game, applied_moves(game)):
        seen |= strings(public) | strings(seen_by(move.events if move else [], None))
    table = Table(game)
    held = set().union(*(strings(table.view(n)) for n in range(game.seats.count())))
    return (held - seen) & set(art.codes(game.game_type))


def test_a_running_games_page_is_the_live_table_and_the_replay_so_far(client):
    game = person_moves(running("felix"), 2)
    html = client.get(reverse("web:game", args=[game.pk])).content.decode()
    # The live table, followed by the web table's long polling, as a spectator sees it.
    assert f'data-state="{reverse("web:table-state", args=[game.pk])}"' in html
    assert 'class="tablebox"' in html and "web/table.js" in html
    assert 'class="choices"' not in html  # a spectator has nothing to choose
    # The replay so far opens where the game is now and follows it.
    meta = embedded(html, "replay-meta")
    assert meta["live"] is True
    assert 'data-follow="' in html and "Replay so far" in html
    data = embedded(html, "replay-data")
    assert len(data["steps"]) == game.version + 1


def test_the_replay_asks_only_for_the_steps_it_lacks(client):
    game = running("smoking_cat")
    url = reverse("web:game", args=[game.pk])
    before = len(embedded(client.get(url).content.decode(), "replay-data")["steps"])
    game = person_moves(game, 3)
    follow = client.get(url, {"format": "json", "since": before}).json()
    assert follow["status"] == "running" and follow["from"] == before
    assert len(follow["steps"]) == game.version + 1 - before
    assert all(step["text"] for step in follow["steps"])
    # The art of each card those steps show comes along, named in the page's language.
    for code, svg in follow["cards"].items():
        assert code in json.dumps(follow["steps"]) and "<svg" in svg


@pytest.mark.parametrize("slug", catalog.slugs())
def test_no_card_a_seat_keeps_secret_reaches_a_running_games_page(client, slug):
    """F17, S6, C7: hands, face-down cards and score piles stay out of the live table, the
    replay so far, its card art and the JSON it follows the game with, move after move
    (B15: Bon Appétit keeps nothing secret but the order of its piles, which no view
    holds)."""
    game = running(slug)
    url = reverse("web:game", args=[game.pk])
    checked = set()
    for move in range(3):
        hidden = secrets(game)
        checked |= hidden
        html = client.get(url).content.decode()
        follow = client.get(url, {"format": "json", "since": 0}).json()
        shown = set(CODE.findall(html)) | set(follow["cards"]) | strings(follow["steps"])
        shown |= strings(embedded(html, "replay-data"))
        assert not shown & hidden, f"{slug}: a spectator is shown {shown & hidden}"
        # Nor a seat's own parts of the views, its events or its moves (keys, not values:
        # a Come Cani e Gatti event is of type "action").
        sent = json.dumps(follow) + json.dumps(embedded(html, "replay-data"))
        for key in ('"hand":', '"private":', '"private_events":', '"action":', '"received"'):
            assert key not in sent
        game = person_moves(game, 1, seed=move)
    if catalog.get(slug).private_hands:
        assert checked, "nothing was secret: the check proved nothing"


def test_once_the_game_is_over_the_replay_sends_every_step_with_the_hands(client):
    """A page that followed the game asks for its next steps; the game ended meanwhile,
    so it gets the whole replay from the start, everyone's cards shown."""
    game = person_moves(running("felix"), 1)
    with _on_commit():
        services.abort(game, by=game.seats.get(player__isnull=False).player)
    url = reverse("web:game", args=[game.pk])
    follow = client.get(url, {"format": "json", "since": game.version}).json()
    assert follow["status"] == "aborted" and follow["reveal"] and follow["from"] == 0
    assert len(follow["steps"]) == game.version + 1
    assert all("hand" in seat for seat in follow["steps"][0]["private"])
