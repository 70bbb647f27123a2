"""Issue 23 (B14, S16, C19): the bot's final screen shows the places the engine decided,
ties shared, read from the final view, not worked out again by the renderer."""

import pytest

from bot.render.common import MEDALS, Ctx
from games import catalog
from tests.engines.test_search_api import random_game


def finished(slug: str, seed: int):
    kind = catalog.get(slug)
    rules = kind.rules
    n = min(max(kind.table_players, rules.min_players), rules.max_players)
    state, _events = random_game(rules, n, seed, steps=100_000)  # to its end
    assert rules.outcome(state) is not None
    return rules, state, n


@pytest.mark.parametrize("slug", catalog.slugs())
def test_the_final_screen_ranks_the_seats_as_the_engine_did(slug):
    telegram = catalog.get(slug).renderer(catalog.TELEGRAM)
    for seed in range(5):
        rules, state, n = finished(slug, seed)
        ranks = list(rules.outcome(state).ranks)
        view = rules.view(state, None)
        assert view["ranks"] == ranks
        names = [f"Seat{i}" for i in range(n)]
        text, rows = telegram.table(view, Ctx(1, 1, slug, names))
        assert rows == []
        for seat, rank in enumerate(ranks):
            place = MEDALS.get(rank, f"{rank}.")
            assert f"{place} Seat{seat} —" in text, (seed, ranks, text)
