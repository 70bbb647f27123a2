"""Issue 23: why a game ended is a typed ``Termination`` in a typed ``Result``, which the
front-ends read; rows and events stored before it parse into it at the boundary.

The endings, by the rule clauses they implement: B13 (the last token, no card to turn
up) and F25, C16, S14-S16 end normally; B13a ends a table whose position repeats, and
the flip bound of B13a's interpretation ends it at the move limit; S12's throw-down that
gives the last letter concedes the match; S17's last letter from a moderator ends it by
the moderator's move (the engines' tests check each: ``tests/engines``)."""

import pytest
from django.utils import timezone

from games import catalog
from games.kinds.bon_appetit import narration as told
from games.kinds.bon_appetit.engine import CARD_NAMES, RULES
from games.play.models import Game, GameStatus
from games.play.result import Result, Termination

pytestmark = pytest.mark.django_db


def looping_table():
    """B13a: a table without a cat in any chase, which cycles until a position repeats."""
    piles = [[CARD_NAMES[c] for c in pile] for pile in ("CC1C", "1")]
    state = RULES.setup(2, 1, {"piles": piles, "center": "cheese", "first": 0})
    events = []
    while RULES.to_act(state):
        events += RULES.apply(state, RULES.to_act(state)[0], "flip")
    return state, events


def test_B13a_a_repeated_position_is_the_results_and_the_end_events_termination():
    state, events = looping_table()
    result = RULES.outcome(state)
    assert result.termination == Termination.REPEATED_POSITION
    end = events[-1]
    assert end["type"] == "game_end" and end["termination"] == "repeat"
    assert Result.from_json(result.to_json()) == result
    # The narration reads the termination, not the game's own reason.
    assert told.narrate({**end, "reason": "whatever"}) == told.ended_in_a_loop()
    assert told.narrate({**end, "termination": "normal", "reason": "tokens"}) is None


def test_old_end_events_said_why_in_their_reason():
    """Events stored before they carried a termination: B13a's said "repeat" or
    "flip_limit" in ``reason``, which the values keep; B13's own words are normal."""
    old = {"type": "game_end", "to": None, "seat": 0}
    assert Termination.of_event({**old, "reason": "repeat"}) == Termination.REPEATED_POSITION
    assert Termination.of_event({**old, "reason": "flip_limit"}) == Termination.MOVE_LIMIT
    assert Termination.of_event({**old, "reason": "tokens"}) == Termination.NORMAL
    assert Termination.of_event(old) == Termination.NORMAL
    assert told.narrate({**old, "reason": "flip_limit"}) == told.ended_in_a_loop()


def test_old_results_without_a_termination_read_it_from_the_games_state():
    """A finished game stored before results named their termination: ``Game.outcome``
    asks the engine, which reads its own dump (B13a's "end"); other games are normal."""
    state, _events = looping_table()
    places = RULES.outcome(state).places()  # what an old row stored
    game = Game.objects.create(
        game_type="bon_appetit",
        chat_id=-1,
        status=GameStatus.FINISHED,
        seed=1,
        started_at=timezone.now(),
        finished_at=timezone.now(),
        state=RULES.dump(state),
        result=places,
    )
    game = Game.objects.get(pk=game.pk)
    assert "termination" not in game.result
    assert game.outcome.termination == Termination.REPEATED_POSITION
    assert game.outcome.places() == places
    # Read with the state deferred, it stays one query: the stored words only.
    deferred = Game.objects.defer("state").get(pk=game.pk)
    assert deferred.outcome.termination == Termination.NORMAL
    felix = Game.objects.create(
        game_type="felix",
        chat_id=-2,
        status=GameStatus.FINISHED,
        started_at=timezone.now(),
        finished_at=timezone.now(),
        seed=1,
        result={"ranks": [1, 2, 3]},
    )
    assert felix.outcome.termination == Termination.NORMAL
    assert catalog.get("felix").rules.stored_termination({}) == Termination.NORMAL


def test_a_result_stored_now_names_its_termination():
    result = Result.of([1, 2], [2, 1], Termination.MOVE_LIMIT, tokens=[0, 1])
    stored = result.to_json()
    assert stored == {
        "scores": [1, 2],
        "ranks": [2, 1],
        "tokens": [0, 1],
        "termination": "flip_limit",
    }
    assert Result.from_json(stored) == result
    assert Result.from_json({**stored, "termination": "no such word"}).termination == (
        Termination.NORMAL
    )
