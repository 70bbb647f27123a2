"""The Come Cani e Gatti heuristic: legal, sensible on stacked tables, better than random."""

from __future__ import annotations

import random

from bench.arena import play
from games.computers import RandomStrategy, act
from games.computers.cats_and_dogs import STRATEGIES, playout_action, playout_card
from games.engines.cats_and_dogs import CARD_NAMES, RULES
from games.engines.cats_and_dogs_data import ANIMALS

R = RULES
HEURISTIC = STRATEGIES["heuristic"]
ID = {a.name: i for i, a in enumerate(ANIMALS)}
LAYOUT = [ID["Max"], ID["Clarence"], ID["Rex"], ID["Luna"]]  # dog, cat, dog, cat
MAX, CLARENCE, REX, LUNA = range(4)


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
