"""Issue 27: the games as OpenSpiel games (``games.openspiel``).

OpenSpiel's own consistency checks at every table size; information-state strings that
hold nothing the seat's view hides; and games played through pyspiel ending exactly as the
engine ends them when it is given the same deal and the same actions.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import games.openspiel  # noqa: E402  (registers the games)
from games.engines import utilities  # noqa: E402
from games.openspiel.deals import DEALS  # noqa: E402

SIZES = [
    (slug, n)
    for slug, deal in DEALS.items()
    for n in range(deal.rules.min_players, deal.rules.max_players + 1)
]


def load(slug: str, n: int):
    return pyspiel.load_game(games.openspiel.short_name(slug), {"players": n})


def sample(state, rng: random.Random) -> int:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    return rng.choices(outcomes, probs)[0]


def random_game(game, rng: random.Random):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("slug", "n"), SIZES)
def test_issue_27_openspiel_random_sim_test_passes(slug, n):
    """Issue 27: OpenSpiel's random simulation checks (legal actions, chance outcomes that
    sum to one, clones, strings for every seat, returns, serialization) pass for each
    game at each table size."""
    game = load(slug, n)
    assert game.num_players() == n
    assert game.get_type().short_name == f"catclub_{slug}"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_issue_27_default_table_and_action_space():
    """Issue 27: without ``players`` a game is the usual table of four, and the action
    space is the engine's own integer space."""
    for slug, deal in DEALS.items():
        game = pyspiel.load_game(f"catclub_{slug}")
        assert game.num_players() == 4
        assert game.num_distinct_actions() == deal.n_actions
    with pytest.raises(Exception):  # noqa: B017, PT011 (pyspiel raises its own error type)
        pyspiel.load_game("catclub_smoking_cat", {"players": 3})


@pytest.mark.parametrize(("slug", "n"), SIZES)
def test_issue_27_pyspiel_play_matches_the_engine(slug, n):
    """Issue 27: random legal actions played through pyspiel and through the engine
    directly (on the deal the chance nodes drew) give the same final result."""
    deal = DEALS[slug]
    rules = deal.rules
    game = load(slug, n)
    for seed in range(3):
        state = random_game(game, random.Random(seed))
        engine = rules.setup(n, 12345, deal.options(n, state.deals))
        for step in state.full_history():
            player, action = step.player, step.action
            if player < 0:
                continue  # a chance outcome: already in the options
            assert rules.to_act(engine)[0] == player
            rules.apply(engine, player, deal.action_str(action))
        outcome = rules.outcome(engine)
        assert outcome is not None
        assert outcome == rules.outcome(state.engine)
        assert state.returns() == [2 * u - 1 for u in utilities(list(outcome.ranks))]


# --- information states: only what the view shows -------------------------------------


def hand_positions(slug: str, n: int, drawn: list[int]) -> dict[int, list[int]]:
    """Where each seat's private cards sit among a deal's chance outcomes."""
    if slug == "felix":  # the card each seat's set lost unseen
        return {s: [s] for s in range(n)}
    if slug == "smoking_cat":  # card i of the deck goes to seat dealer + 1 + i
        dealer = drawn[0]
        return {s: [1 + i for i in range(32) if (dealer + 1 + i) % 4 == s] for s in range(n)}
    if slug == "cats_and_dogs":  # three action cards per seat after layout and food
        start = 2 * n + 54
        return {s: list(range(start + 3 * s, start + 3 * s + 3)) for s in range(n)}
    # Bon Appétit: nobody sees any pile's order; "private" here is seat 1's and 2's piles.
    first = drawn[0]
    return {s: [1 + i for i in range(len(drawn) - 2) if (i + first) % n == s] for s in range(n)}


def dealt(game, drawn: list[int]):
    state = game.new_initial_state()
    for outcome in drawn:
        assert outcome in dict(state.chance_outcomes())
        state.apply_action(outcome)
    assert not state.is_chance_node()
    return state


def swapped(slug: str, drawn: list[int], n: int, a: int, b: int, rng) -> list[int] | None:
    """The same deal with one private card of seat ``a`` and one of seat ``b`` exchanged
    (Felix: seat ``a``'s removed card changed), or None if no such change exists."""
    other = list(drawn)
    pos = hand_positions(slug, n, drawn)
    if slug == "felix":
        other[a] = next(k for k in range(10) if k != drawn[a] and k != drawn[b])
        return other
    pairs = [(i, j) for i in pos[a] for j in pos[b] if drawn[i] != drawn[j]]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    other[i], other[j] = other[j], other[i]
    return other


def first_deal(game, rng: random.Random) -> list[int]:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    return list(state.deals[0])


@pytest.mark.parametrize(("slug", "n"), [(s, n) for s, n in SIZES if n in (3, 4)])
def test_issue_27_information_state_hides_the_others_cards(slug, n):
    """Issue 27: deals that differ only in cards seat 0 cannot see give seat 0 the same
    information-state and observation strings, through a whole game of the same moves
    (as long as the other seats have a move legal in both deals); a deal that differs in
    seat 0's own cards gives it a different information state."""
    game = load(slug, n)
    rng = random.Random(27)
    for _ in range(3):
        drawn = first_deal(game, rng)
        hidden = swapped(slug, drawn, n, 1, 2, rng)
        own = swapped(slug, drawn, n, 0, 1, rng)
        if hidden is None or own is None:
            continue
        if slug != "bon_appetit":  # Bon Appétit hides every pile from its owner too
            a, c = dealt(game, drawn), dealt(game, own)
            assert a.information_state_string(0) != c.information_state_string(0)
            assert a.observation_string(0) != c.observation_string(0)
        a, b = dealt(game, drawn), dealt(game, hidden)
        # Bon Appétit's first flip may turn up a swapped card: only the start compares.
        steps = 1 if slug == "bon_appetit" else None
        while not a.is_terminal():
            assert a.information_state_string(0) == b.information_state_string(0)
            assert a.observation_string(0) == b.observation_string(0)
            if steps == 1:
                break
            if a.is_chance_node():  # a new deal: the same cards in both
                assert b.is_chance_node()
                outcome = sample(a, rng)
            else:
                assert a.current_player() == b.current_player()
                common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
                if not common:
                    break  # a seat's cards differ in what it can play now
                outcome = rng.choice(common)
            a.apply_action(outcome)
            b.apply_action(outcome)
            steps = (steps or 0) + 1
        assert steps


# --- OpenSpiel's bots in the arena -------------------------------------------------------


def test_issue_27_arena_runs_openspiel_bots(capsys):
    """Issue 27: the arena's ``openspiel_ismcts`` and ``openspiel_mcts`` kinds (with the
    ``@seconds`` budget) play short games to the end."""
    from bench import arena

    tables = arena.main(
        [
            "--fast",
            "felix",
            "cats_and_dogs",
            "--players",
            "3",
            "--hero",
            "openspiel_ismcts",
            "--vs",
            "openspiel_mcts@0.005",
        ]
    )
    out = capsys.readouterr().out
    assert [t["slug"] for t in tables] == ["felix", "cats_and_dogs"]
    for t in tables:
        assert t["games"] == 2 and t["hero"] == "openspiel_ismcts@0.005"
        assert set(t["times"]) == {"openspiel_ismcts@0.005", "openspiel_mcts@0.005"}
    assert "felix players=3 openspiel_ismcts@0.005 vs openspiel_mcts@0.005 games=2" in out


def test_issue_27_bots_choose_legal_actions_from_the_view_alone():
    """Issue 27: the OpenSpiel bots play a Smoking Cat deal's first decisions from the
    seat's view and history (a resampled state per simulation), legal moves only."""
    from games.openspiel.bots import make

    rules = DEALS["smoking_cat"].rules
    state = rules.setup(4, 3)
    histories: list[list[dict]] = [[] for _ in range(4)]
    rng = random.Random(3)
    bots = [
        make("openspiel_ismcts", "smoking_cat", 0.001),
        make("openspiel_mcts", "smoking_cat", 0.001),
    ]
    for step in range(16):
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        action = bots[step % 2].choose(rules.view(state, seat), legal, rng, histories[seat])
        assert action in legal
        for ev in rules.apply(state, seat, action):
            for s in range(4):
                if ev["to"] is None or s in ev["to"]:
                    histories[s].append(ev)


@pytest.mark.parametrize("slug", ["felix", "smoking_cat", "cats_and_dogs"])
def test_issue_27_resampling_keeps_the_information_state_and_varies_the_rest(slug):
    """Issue 27: ``resample_from_infostate`` (what ISMCTS calls) draws states with the
    seat's own information state, and the others' hidden cards vary between draws."""
    game = load(slug, 4)
    rng = random.Random(5)
    state = game.new_initial_state()
    decisions = 0
    while state.is_chance_node() or decisions < 20:  # some way into the game
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    assert not state.is_terminal() and not state.is_chance_node()
    seat = state.current_player()
    others = set()
    for _ in range(20):
        other = state.resample_from_infostate(seat, rng.random)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.legal_actions() == state.legal_actions()
        others.add(str(other.rules.dump(other.engine)))
    assert len(others) > 1
