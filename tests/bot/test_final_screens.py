"""Issue 23 (B14, S16, C19): the bot's final screen shows the places the engine decided,
ties shared, read from the final view, not worked out again by the renderer."""

import random

import pytest

from bot.render.common import MEDALS, Ctx
from games import catalog


def finished(slug: str, seed: int):
    kind = catalog.get(slug)
    rules = kind.rules
    n = min(max(kind.table_players, rules.min_players), rules.max_players)
    rng = random.Random(seed)
    state = rules.setup(n, seed)
    while acting := rules.to_act(state):
        seat = rng.choice(acting)
        legal = rules.legal_actions(state, seat)
        if "throw" in legal and len(legal) > 1 and rng.random() < 0.9:
            legal.remove("throw")
        rules.apply(state, seat, rng.choice(legal))
    return rules, state, n


@pytest.mark.parametrize("slug", catalog.slugs())
def test_the_final_screen_ranks_the_seats_as_the_engine_did(slug):
    telegram = catalog.get(slug).renderer(catalog.TELEGRAM)
    for seed in range(5):
        rules, state, n = finished(slug, seed)
        ranks = rules.outcome(state)["ranks"]
        view = rules.view(state, None)
        assert view["ranks"] == ranks
        names = [f"Seat{i}" for i in range(n)]
        text, rows = telegram.table(view, Ctx(1, 1, slug, names))
        assert rows == []
        for seat, rank in enumerate(ranks):
            place = MEDALS.get(rank, f"{rank}.")
            assert f"{place} Seat{seat} —" in text, (seed, ranks, text)
