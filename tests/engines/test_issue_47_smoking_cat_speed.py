"""Issue 47, item 5: the Smoking Cat engine made faster plays the same matches.

The digests were taken with the engine as it was before the speed work: every seat asked,
its legal actions (strings and ids, in order), every event, the dumped state after each
action, views from every seat and the outcome, over matches from fixed seeds. A change of
speed that changed any of them would change stored games and replays.
"""

import hashlib
import json
import random

import pytest

from games.engines.base import rng_for
from games.kinds.smoking_cat import engine as sc
from games.kinds.smoking_cat.engine import RULES

# trace_digest(RULES, range(40), ids=...) before the speed work.
DIGEST_EVENTS = "d3f2844005775999d40a772be3a6895a547312e337d51c94007ae720a1df4e2a"
DIGEST_IDS = "f4dc33cf8cbdb6d7380b07df6522ab8b74bac9d07846c3c7eb67ddc48834ae56"


def trace_digest(rules, seeds, ids):
    """A digest of random matches: every seat asked, its legal actions (strings and ids),
    the events, the dumped state after each action, some views, and the outcome."""
    digest = hashlib.sha256()
    for seed in seeds:
        rng = random.Random(seed)
        state = rules.setup(4, seed, {"word": "CAT"} if seed % 3 == 0 else None)
        while acting := rules.to_act(state):
            seat = rng.choice(acting)
            legal = rules.legal_actions(state, seat)
            if ids:
                legal_ids = rules.legal_ids(state, seat)
                digest.update(repr((acting, seat, legal, legal_ids)).encode())
                rules.apply_id(state, seat, rng.choice(legal_ids))
                if rng.random() < 0.1:
                    state = rules.clone(state)
            else:
                events = rules.apply(state, seat, rng.choice(legal))
                digest.update(repr((acting, seat, legal, events)).encode())
            digest.update(json.dumps(rules.dump(state), sort_keys=True).encode())
            if rng.random() < 0.2:
                view = rules.view(state, rng.choice([None, 0, 1, 2, 3]))
                digest.update(json.dumps(view, sort_keys=True).encode())
        digest.update(repr(rules.outcome(state).places()).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("ids", "expected"), [(False, DIGEST_EVENTS), (True, DIGEST_IDS)])
def test_issue_47_the_faster_engine_plays_the_recorded_matches(ids, expected):
    assert trace_digest(RULES, range(40), ids) == expected


def test_issue_47_the_first_dealer_is_drawn_as_rng_for_draws_it():
    """S4: the dealer drawn without random.Random's Python layers is rng_for's."""
    for seed in [*range(300), 2**31 - 1, 2**40 + 7, -5]:
        assert sc.dealer_draw(seed) == rng_for(seed, "dealer").randrange(sc.N_SEATS)


def test_issue_47_deposit_picks_the_pattern_s_cards_of_the_mask():
    rng = random.Random(47)
    for _ in range(3000):
        mask = rng.getrandbits(32)
        cards = [c for c in range(32) if mask >> c & 1]
        pattern = rng.getrandbits(len(cards)) if cards else 0
        expected = sum(1 << c for n, c in enumerate(cards) if pattern >> n & 1)
        assert sc.deposit(mask, pattern) == expected


def test_issue_47_no_options_set_up_as_empty_options_do():
    for seed in range(20):
        plain = RULES.dump(RULES.setup(4, seed))
        assert RULES.dump(RULES.setup(4, seed, {})) == plain
        assert plain["word"] == sc.DEFAULT_WORD and plain["decks"] == []
