"""The tables rendered in a child process on the embedded default (``web.live.renders``,
``RENDER_IN_CHILD_PROCESS``, issue 25): the site's process keeps its interpreter lock for
requests and steps, and the child's render is the one the site would have made, seat by
seat, hidden cards included."""

from __future__ import annotations

import os
import re
import signal

import pytest
from django.http import Http404

from games.play.models import Game
from tests.web.watching import person_moves, running
from web.live import renders

pytestmark = pytest.mark.django_db(transaction=True)  # the child reads committed rows


def frozen(payload: dict) -> dict:
    """The payload with its clocks' seconds masked: the two renders are made apart in
    time, and a second may end between them."""
    html = re.sub(r'data-left="\d+">\d+<', 'data-left="s">s<', payload["html"])
    return {**payload, "html": html}


@pytest.fixture
def child(settings):
    settings.RENDER_IN_CHILD_PROCESS = True
    yield
    renders.child.stop()


def test_the_child_renders_what_the_site_would_for_each_audience(child):
    """F17: the child renders a seat's hand for that seat only, as the site does."""
    game = person_moves(running("felix"), 1)
    person = game.seats.get(player__isnull=False).player
    for player in (None, person):
        for language in ("en", "it"):
            made = renders.payload(game.pk, None, player, language)
            assert frozen(made) == frozen(renders.render(game.pk, player, language)[0])
            assert "data-left=" in made["html"], "a clock was there to mask"
    children = renders.child.pids()
    assert children and os.getpid() not in children, "a process of its own made them"
    public = renders.payload(game.pk, None, None, "en")["html"]
    seat = renders.payload(game.pk, None, person, "en")["html"]
    assert public != seat, "the seat's own view differs from the public's"
    assert 'class="choices"' in seat and 'class="choices"' not in public


def test_the_child_sees_each_change_committed_before_it_was_asked(child):
    game = running("smoking_cat")
    first = renders.payload(game.pk, None, None, "en")
    game = person_moves(game, 1)
    after = renders.payload(game.pk, None, None, "en")
    assert after["version"] == Game.objects.get(pk=game.pk).version > first["version"]
    assert after["token"] != first["token"]


def test_a_child_that_died_costs_no_page_and_is_replaced(child):
    game = running("bon_appetit")
    assert renders.payload(game.pk, None, None, "en")
    (dead,) = renders.child.pids()
    os.kill(dead, signal.SIGKILL)
    renders.forget()

    # The page that asked as it died is served all the same, rendered here ...
    assert renders.payload(game.pk, None, None, "en")["version"] == game.version
    renders.forget()
    # ... and the next render starts another child.
    assert renders.payload(game.pk, None, None, "en")["version"] == game.version
    assert renders.child.pids() and dead not in renders.child.pids()


def test_no_such_game_is_a_404_from_the_child_too(child):
    with pytest.raises(Http404):
        renders.payload(10**9, None, None, "en")


def test_without_the_setting_the_render_is_made_here(settings):
    settings.RENDER_IN_CHILD_PROCESS = False
    game = running("cats_and_dogs")
    assert renders.payload(game.pk, None, None, "en")["version"] == game.version
    assert not renders.child.pids()
