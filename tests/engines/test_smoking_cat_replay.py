"""S6: move logs recorded when a pass was one action (``pass:a,b,c``) still replay.

The fixture holds complete matches (seed, options, every (seat, action)) recorded with the
engine as it was before passing became one card per action; replaying them must give the
same outcome and the same final state.
"""

import json
from pathlib import Path

import pytest

from games.kinds.smoking_cat.engine import RULES

FIXTURE_PATH = Path(__file__).parent / "fixtures" / "smoking_cat_old_passes.json"
FIXTURE = json.loads(FIXTURE_PATH.read_text())


@pytest.mark.parametrize("game", FIXTURE["games"], ids=lambda g: f"seed{g['seed']}")
def test_S6_old_three_card_pass_logs_replay_to_the_same_outcome(game):
    state = RULES.setup(4, game["seed"], game["options"])
    for seat, action in game["actions"]:
        RULES.apply(state, seat, action)
    assert RULES.outcome(state).places() == game["outcome"]
    assert RULES.to_act(state) == []
