"""The Come Cani e Gatti heuristic: legal, sensible on stacked tables, better than random."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from bench.arena import play
from games.computers import RandomStrategy, act
from games.kinds.cats_and_dogs.computers import (
    STRATEGIES,
    game_rollout,
    playout_action,
    playout_card,
    playout_id,
)
from games.kinds.cats_and_dogs.data import ANIMALS
from games.kinds.cats_and_dogs.engine import CARD_NAMES, RULES

R = RULES
HEURISTIC = STRATEGIES["heuristic"]
ID = {a.name: i for i, a in enumerate(ANIMALS)}
LAYOUT = [ID["Max"], ID["Clarence"], ID["Rex"], ID["Luna"]]  # dog, cat, dog, cat
MAX, CLARENCE, REX, LUNA = range(4)
ROOT = Path(__file__).resolve().parents[2]


def game(**options):
    options.setdefault("layout", LAYOUT)
    options.setdefault("first", 0)
    return R.setup(2, 3, options)


def choice(state) -> str:
    seat = R.to_act(state)[0]
    return act(R, state, seat, HEURISTIC, random.Random(0))


def test_heuristic_picks_legal_actions_at_every_table_size():
    for n in range(2, 7):
        for seed in range(8):
            state = R.setup(n, seed)
            rng = random.Random(seed)
            while seats := R.to_act(state):
                legal = R.legal_actions(state, seats[0])
                action = HEURISTIC.choose(R.view(state, seats[0]), legal, rng)
                assert action in legal
                R.apply(state, seats[0], action)


def test_marks_the_animal_whose_food_favours_it():
    state = game(plates=[["b6"], ["b5"], ["f3"], []])  # Max +6, Clarence -5, Rex -3
    assert choice(state) == f"mark:{MAX}"


def test_feeds_fish_to_its_cat_and_bones_to_the_rivals_cat():
    markers = [[], [0], [], [1]]  # seat 0 holds Clarence, seat 1 holds Luna (both cats)
    state = game(markers=markers, food=["f5", "b6", "b1"], hands=[[], []])
    R.apply(state, 0, "mark:1")
    R.apply(state, 0, "draw")
    assert choice(state) == f"feed:{CLARENCE}"
    state = game(markers=markers, food=["b6", "f5", "b1"], hands=[[], []])
    R.apply(state, 0, "mark:1")
    R.apply(state, 0, "draw")
    assert choice(state) == f"feed:{LUNA}"


def test_stops_feeding_its_cat_when_the_unseen_food_is_mostly_bones():
    fish = [["f1", "f2", "f3", "f4", "f5"], [], ["f1", "f2", "f3", "f4", "f6"], []]
    state = game(plates=fish, markers=[[], [0], [], [1]], hands=[[], []])
    R.apply(state, 0, "mark:1")
    R.apply(state, 0, "draw")
    R.apply(state, 0, f"feed:{CLARENCE}")
    assert choice(state) == "stop"
    state = game(plates=fish, markers=[[], [0], [], [1]], hands=[[], []])
    R.apply(state, 0, "mark:1")
    R.apply(state, 0, "draw")
    R.apply(state, 0, f"feed:{LUNA}")  # the rival's cat: more bones are welcome
    assert choice(state) == "more"


def test_cleans_a_bowl_that_hurts_it():
    state = game(
        plates=[[], ["b5", "b6"], [], []], markers=[[], [0], [], []], hands=[["clean"], []]
    )
    R.apply(state, 0, "mark:3")
    assert choice(state) == f"clean:{CLARENCE}"


def test_shoos_a_rival_off_a_good_animal():
    state = game(plates=[["b5", "b6"], [], [], []], markers=[[1], [], [], []], hands=[["shoo"], []])
    R.apply(state, 0, "mark:3")
    assert choice(state) == f"shoo:{MAX}:1"


def test_keeps_its_card_when_it_gains_nothing():
    state = game(plates=[["b1"], [], [], []], markers=[[], [], [], []], hands=[["clean"], []])
    R.apply(state, 0, "mark:3")
    assert choice(state) == "draw"


def test_heuristic_beats_random():
    wins = 0
    games = 150
    for i in range(games):
        players = [RandomStrategy() for _ in range(4)]
        players[i % 4] = HEURISTIC
        wins += play(R, 4, 50_000 + i, players).ranks[i % 4] == 1
    assert wins / games > 0.6  # random wins about a quarter of four-player games


# -- the search player's playouts -------------------------------------------------------


def played(state, seat: int = 0) -> str:
    """The playout policy's move for ``seat`` once its marker is placed."""
    R.apply(state, seat, "mark:3")
    return playout_card(state, seat)


def test_playout_cards_are_always_legal_C14():
    """C14: a card in a playout is played only on a legal target (every card type comes
    up over these games), and every game ends (I4)."""
    seen = set()
    for n in range(2, 7):
        for seed in range(12):
            state = R.setup(n, seed)
            rng = random.Random(seed)
            while seats := R.to_act(state):
                seat = seats[0]
                action = playout_action(R, state, seat, rng)
                if state.phase == "play":
                    assert action in R.legal_actions(state, seat)
                    seen.add(action.split(":")[0])
                R.apply(state, seat, action)
    assert seen == {"draw", *CARD_NAMES}


def test_playout_cleans_a_bowl_that_hurts_it_C20h():
    state = game(
        plates=[[], ["b5", "b6"], [], []], markers=[[], [0], [], []], hands=[["clean"], []]
    )
    assert played(state) == f"clean:{CLARENCE}"


def test_playout_shoos_a_rival_off_a_good_animal_C20a():
    state = game(plates=[["b5", "b6"], [], [], []], markers=[[1], [], [], []], hands=[["shoo"], []])
    assert played(state) == f"shoo:{MAX}:1"


def test_playout_trades_a_bad_bite_for_a_good_one_C20f():
    """Our Clarence (a cat) holds a bone and Max (a dog nobody holds) a fish: swapping
    the two cards turns Clarence's -6 into +6."""
    plates = [["f6"], ["b6"], [], []]
    state = game(plates=plates, markers=[[], [0], [], [1]], hands=[["trade"], []])
    assert played(state) == f"trade:{MAX}:f6:{CLARENCE}:b6"


def test_playout_keeps_a_card_that_gains_less_than_a_feeding_and_the_margin():
    state = game(plates=[[], ["b2"], [], []], markers=[[], [0], [], []], hands=[["clean"], []])
    assert played(state) == "draw"


def test_playout_spends_a_card_freely_when_the_food_runs_out_C16():
    """The same small gain is worth the card when the last food card is in the pile:
    C16, the game then ends and a kept card is wasted."""
    state = game(
        plates=[[], ["b2"], [], []],
        markers=[[], [0], [], []],
        hands=[["clean"], []],
        food=["f1"],
    )
    assert played(state) == f"clean:{CLARENCE}"


# -- the search's fast path: integer actions, no events -------------------------------


def test_playouts_on_the_fast_path_end_as_on_the_string_path():
    """Issue 27: the search plays its playouts with integer actions and ``apply_id``;
    the same seed leaves the same final state as the same playout through ``apply`` with
    the action strings (and every state between is the same too)."""
    for n in range(2, 7):
        for seed in range(10):
            slow, fast = R.setup(n, seed), R.setup(n, seed)
            slow_rng, fast_rng = random.Random(seed), random.Random(seed)
            while seats := R.to_act(slow):
                assert R.to_act(fast) == seats
                seat = seats[0]
                action = playout_id(R, fast, seat, fast_rng)
                assert R.legal_ids(fast, seat) == [
                    R.action_id(a) for a in R.legal_actions(slow, seat)
                ]
                R.apply(slow, seat, playout_action(R, slow, seat, slow_rng))
                R.apply_id(fast, seat, action)
                assert R.dump(fast) == R.dump(slow)
            assert R.to_act(fast) == [] and R.outcome(fast) == R.outcome(slow)
            state = R.setup(n, seed)
            assert game_rollout(R, state, 0, random.Random(seed)) == R.utilities(slow)[0]
            assert R.dump(state) == R.dump(slow)


def test_playouts_build_no_events_nor_action_strings(monkeypatch):
    """The playout path never reaches the code that builds events or names actions."""
    import games.kinds.cats_and_dogs.engine as engine

    def refuse(*args, **kwargs):
        raise AssertionError("a playout built an event or an action string")

    monkeypatch.setattr(engine, "event", refuse)
    monkeypatch.setattr(engine, "ACTIONS", None)  # legal_actions and action_str need it
    for n in (2, 4, 6):
        state = R.setup(n, n)
        game_rollout(R, state, 0, random.Random(n))
        assert R.to_act(state) == []


def test_playouts_do_not_depend_on_the_process_hash_seed():
    """The search's choice depends only on its seed (search.py), in any process: a
    playout's result must not follow the iteration order of a set of strings, which
    changes with PYTHONHASHSEED."""
    script = (
        "import json, random\n"
        "from games.kinds.cats_and_dogs.engine import RULES as R\n"
        "from games.kinds.cats_and_dogs.computers import game_rollout\n"
        "out = []\n"
        "for n in (2, 4, 6):\n"
        "    for seed in range(8):\n"
        "        state = R.setup(n, seed)\n"
        "        game_rollout(R, state, 0, random.Random(seed))\n"
        "        out.append(R.dump(state))\n"
        "print(json.dumps(out))\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        for hash_seed in (1, 2, 3)
    ]
    assert runs[0] == runs[1] == runs[2]
