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


# --- the fused random playout (RULES.playout) ------------------------------------------------


def started_match(seed, steps=None):
    """A match from ``seed`` moved on by random actions: mid-pass, mid-trick, later deals,
    some on a three-letter word, some with stacked decks still to deal."""
    rng = random.Random(seed)
    options = {"word": "CAT"} if seed % 3 == 0 else {}
    if seed % 5 == 0:
        deck = list(sc.CODES)
        options["decks"] = [rng.sample(deck, len(deck)) for _ in range(2)]
    state = RULES.setup(4, seed, options)
    for _ in range(rng.randrange(60) if steps is None else steps):
        acting = RULES.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        RULES.apply_id(state, seat, rng.choice(RULES.legal_ids(state, seat)))
    return state


def generic_playout(state, rng, monkeypatch):
    """The generic loop (to_act, legal_ids, apply_id) making the fused playout's draws:
    ``seq[int(rng.random() * len(seq))]``, no draw for the seat when one acts, and each
    new deal ``rng.randrange(N_DEALS)`` in place of the match's seeded one."""
    monkeypatch.setattr(sc, "deal_draw", lambda seed, deal: rng.randrange(sc.N_DEALS))
    count = 0
    while acting := RULES.to_act(state):
        seat = acting[0] if len(acting) == 1 else acting[int(rng.random() * len(acting))]
        ids = RULES.legal_ids(state, seat)
        RULES.apply_id(state, seat, ids[int(rng.random() * len(ids))])
        count += 1
    monkeypatch.undo()
    return count


def test_issue_47_the_fused_playout_plays_the_generic_loop_s_game(monkeypatch):
    """Fed the same draws, the fused playout takes the same seats and actions as the
    generic loop, action for action: the same count and the same final state (hands,
    tricks, points, letters, dealer and the last deal's summary)."""
    for seed in range(200):
        state = started_match(seed)
        fused, generic = RULES.clone(state), RULES.clone(state)
        assert RULES.playout(fused, random.Random(seed)) == generic_playout(
            generic, random.Random(seed), monkeypatch
        )
        assert RULES.dump(fused) == RULES.dump(generic)
        assert RULES.outcome(fused) == RULES.outcome(generic)


def test_issue_47_a_finished_match_plays_no_action():
    state = started_match(1, steps=10_000)
    assert RULES.to_act(state) == []
    before = RULES.dump(state)
    assert RULES.playout(state, random.Random(1)) == 0
    assert RULES.dump(state) == before


def test_issue_47_the_fused_playout_never_deals_from_the_match_seed(monkeypatch):
    """Future deals in a playout are imagined: two states that differ only in their seed
    play out the same from the same rng, and the seeded deal is never drawn."""

    def seeded_deal(seed, deal):
        raise AssertionError("a playout dealt from the match seed")

    for seed in range(1, 60, 2):  # no stacked decks: every later deal is a drawn one
        state = started_match(seed, steps=20)
        monkeypatch.setattr(sc, "deal_draw", seeded_deal)
        other = RULES.clone(state)
        other.seed = state.seed + 12345
        assert RULES.playout(state, random.Random(seed)) == RULES.playout(
            other, random.Random(seed)
        )
        monkeypatch.undo()
        assert state.deal > 1  # every word needs several deals: later deals were drawn
        mine, theirs = RULES.dump(state), RULES.dump(other)
        assert mine.pop("seed") != theirs.pop("seed")
        assert mine == theirs


def test_issue_47_the_real_game_still_deals_from_its_seed():
    """Outside playouts nothing changed: apply_id's next deal is the seeded one."""
    rng = random.Random(3)
    state = RULES.setup(4, 99)
    while state.deal == 1:
        seat = rng.choice(RULES.to_act(state))
        RULES.apply_id(state, seat, rng.choice(RULES.legal_ids(state, seat)))
    first = (state.dealer + 1) & 3
    dealt = sc.random_deal(rng_for(99, "deal", 2))
    assert state.hands == dealt[4 - first :] + dealt[: 4 - first]


def test_issue_47_fused_and_generic_playouts_agree_in_distribution():
    """From fresh matches, the fused playout (draws by ``random()``, deals from its rng)
    and the generic loop (``rng.choice``, seeded deals) give the same game in law: the
    mean actions, deals and seat 0's utility agree within sampling error."""
    n = 1500
    fused, generic = [], []
    rng = random.Random(47)
    for _ in range(n):
        state = RULES.setup(4, rng.randrange(2**31))
        fused.append((RULES.playout(state, rng), state.deal, RULES.utilities(state)[0]))
    for _ in range(n):
        state = RULES.setup(4, rng.randrange(2**31))
        count = 0
        while acting := RULES.to_act(state):
            seat = rng.choice(acting)
            RULES.apply_id(state, seat, rng.choice(RULES.legal_ids(state, seat)))
            count += 1
        generic.append((count, state.deal, RULES.utilities(state)[0]))
    for k in range(3):
        a = [row[k] for row in fused]
        b = [row[k] for row in generic]
        mean_a, mean_b = sum(a) / n, sum(b) / n
        var = sum((x - mean_a) ** 2 for x in a) / n + sum((x - mean_b) ** 2 for x in b) / n
        assert abs(mean_a - mean_b) < 4.5 * (var / n) ** 0.5, (k, mean_a, mean_b)


def test_issue_47_the_random_rollout_uses_the_fused_playout_and_stays_deterministic():
    from games.computers.search import SearchStrategy, random_rollout
    from games.engines.base import observations

    assert RULES.fused_playout
    state = RULES.setup(4, 5)
    rollout_state = RULES.clone(state)
    fused_state = RULES.clone(state)
    value = random_rollout(RULES, rollout_state, 2, random.Random(8))
    RULES.playout(fused_state, random.Random(8))
    assert value == RULES.utilities(fused_state)[2]
    assert RULES.dump(rollout_state) == RULES.dump(fused_state)

    search = SearchStrategy(RULES, iterations=120, budget=60.0, rollout=random_rollout)
    history = []
    rng = random.Random(11)
    state = RULES.setup(4, 11)
    for _ in range(30):  # into the play of the first deal
        seat = rng.choice(RULES.to_act(state))
        history += RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    seat = RULES.to_act(state)[0]
    view = RULES.view(state, seat)
    seen = observations(history, seat)
    legal = RULES.legal_actions(state, seat)
    picks = {search.choose(view, legal, random.Random(4), seen) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(legal)
