"""The game processor: order, rejections, computers, timers, the sweep, replays."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import catalog
from games.kinds.smoking_cat.capabilities import AWARD_LETTER, REMOVE_LETTER
from games.play import processing, services, tasks
from games.play.models import (
    AbortReason,
    Game,
    GameStatus,
    Move,
    MoveSource,
    Seat,
)
from games.play.replay import matches_stored_state
from games.play.signals import game_ended, game_updated
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db


def state_of(game):
    game.refresh_from_db()
    rules = catalog.get(game.game_type).rules
    return rules, rules.load(game.state)


def seat_of(game, player):
    return game.seats.get(player=player).number


def started(lobby, run_on_commit, game_type, humans, computers):
    game, players = lobby(game_type, humans=humans, computers=computers)
    run_on_commit(services.start, game, players[0])
    game.refresh_from_db()
    return game, players


def record(game, seat, action, key):
    """A pending move recorded directly, as a concurrent submitter would leave it."""
    return Move.objects.create(game=game, seat=seat, action=action, key=key)


def test_pending_moves_apply_in_order_and_illegal_ones_are_rejected(lobby, run_on_commit):
    game, (_anna, _bob) = started(lobby, run_on_commit, "bon_appetit", 2, 0)
    rules, state = state_of(game)
    first = rules.to_act(state)[0]
    other = 1 - first
    a = record(game, first, "flip", "a")
    b = record(game, first, "flip", "b")  # the same seat again: only legal if a chase
    c = record(game, other, "nonsense", "c")
    outcome = processing.process(game.pk)
    a.refresh_from_db(), b.refresh_from_db(), c.refresh_from_db()
    assert a.status == "applied" and a.seq == 1
    assert c.status == "rejected" and c.reason
    expected = rules.clone(state)
    rules.apply(expected, first, "flip")
    b_legal = first in rules.to_act(expected)
    assert (b.status == "applied") == b_legal
    assert outcome.version == game.moves.filter(status="applied").count()
    assert matches_stored_state(Game.objects.get(pk=game.pk))


def test_versions_strictly_increase_and_replay_matches(lobby, run_on_commit):
    game, (anna,) = started(lobby, run_on_commit, "cats_and_dogs", 1, 2)
    me = seat_of(game, anna)
    for i in range(200):
        rules, state = state_of(game)
        if rules.outcome(state):
            break
        action = rules.legal_actions(state, me)[0]
        run_on_commit(services.submit_move, game.pk, anna, action, f"k{i}", game.version)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    seqs = list(game.moves.filter(status="applied").order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    assert matches_stored_state(game)
    assert game.result["ranks"]


def test_signals_fire_after_commit(lobby, run_on_commit):
    seen = []

    def on_update(sender, game_id, version, events, **kw):
        seen.append(("updated", game_id, version, len(events)))

    def on_end(sender, game_id, status, **kw):
        seen.append((status, game_id))

    game_updated.connect(on_update)
    game_ended.connect(on_end)
    try:
        game, _ = started(lobby, run_on_commit, "bon_appetit", 1, 2)
        seat = game.seats.get(player__isnull=False)
        run_on_commit(services.replace_with_computer, game, seat.number, by=services.SYSTEM)
    finally:
        game_updated.disconnect(on_update)
        game_ended.disconnect(on_end)
    assert ("finished", game.pk) in seen
    assert any(s[0] == "updated" and s[2] and s[3] for s in seen)


def overdue(game):
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def test_overdue_deadline_plays_for_the_waiting_human(lobby, run_on_commit):
    game, (anna,) = started(lobby, run_on_commit, "felix", 1, 2)
    version = game.version
    overdue(game)
    outcome = processing.process(game.pk, timeout_version=version)
    assert outcome.applied >= 1
    timed_out = Move.objects.get(game=game, source=MoveSource.TIMEOUT)
    assert timed_out.seat == seat_of(game, anna)
    seat = game.seats.get(player=anna)
    assert seat.timeouts == 1 and not seat.replaced_by_computer


def test_stale_and_duplicate_timers_change_nothing(lobby, run_on_commit):
    game, (_anna,) = started(lobby, run_on_commit, "felix", 1, 2)
    version = game.version
    # Not yet due: nothing happens.
    assert processing.process(game.pk, timeout_version=version).applied == 0
    # A timer from an older version fires late: nothing happens.
    overdue(game)
    assert processing.process(game.pk, timeout_version=version - 1).applied == 0
    # The right timer acts once; the same timer delivered again does nothing.
    assert processing.process(game.pk, timeout_version=version).applied >= 1
    game.refresh_from_db()
    assert processing.process(game.pk, timeout_version=version).applied == 0
    assert Move.objects.filter(game=game, source=MoveSource.TIMEOUT).count() == 1


def test_repeated_timeouts_hand_a_league_seat_to_a_computer(lobby, run_on_commit, settings):
    settings.TIMEOUTS_BEFORE_COMPUTER = 2
    league = LeagueFactory(computer_level="normal")
    game, (anna,) = started_in(lobby, run_on_commit, "smoking_cat", league)
    for _ in range(2):
        game.refresh_from_db()
        overdue(game)
        tasks.process_game(game.pk, game.version)
    seat = Seat.objects.get(game=game, player=anna)
    assert seat.replaced_by_computer and seat.strategy == "heuristic"
    game.refresh_from_db()
    # With only computers left, a league's match plays to its end (its results count).
    assert game.status == GameStatus.FINISHED
    assert matches_stored_state(game)


def started_in(lobby, run_on_commit, game_type, league):
    game, players = lobby(game_type, humans=1, computers=3, league=league)
    run_on_commit(services.start, game, players[0])
    game.refresh_from_db()
    return game, players


def test_a_casual_table_whose_only_person_times_out_twice_is_cancelled(
    lobby, run_on_commit, settings
):
    """Issue 25: not played to its end by computers (minutes of work for nobody)."""
    settings.TIMEOUTS_BEFORE_COMPUTER = 2
    ended = []

    def on_end(sender, game_id, status, **kw):
        ended.append(status)

    game, (anna,) = started_in(lobby, run_on_commit, "smoking_cat", None)
    game_ended.connect(on_end)
    try:
        for _ in range(2):
            game.refresh_from_db()
            overdue(game)
            run_on_commit(tasks.process_game, game.pk, game.version)
    finally:
        game_ended.disconnect(on_end)
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED
    assert game.abort_reason == AbortReason.ABANDONED
    assert ended == [GameStatus.ABORTED]
    seat = Seat.objects.get(game=game, player=anna)
    assert seat.timeouts == 1 and not seat.replaced_by_computer
    # Only the first timeout was played for her: the rest was not played at all.
    assert Move.objects.filter(game=game, source=MoveSource.TIMEOUT).count() == 1


def test_a_casual_table_with_another_person_hands_the_seat_over(lobby, run_on_commit, settings):
    settings.TIMEOUTS_BEFORE_COMPUTER = 1
    game, (anna, bruno) = started(lobby, run_on_commit, "felix", 2, 1)
    rules, state = state_of(game)
    mine = seat_of(game, anna)
    action = rules.legal_actions(state, mine)[0]
    run_on_commit(services.submit_move, game.pk, anna, action, "in-time", game.version)
    game.refresh_from_db()
    overdue(game)
    tasks.process_game(game.pk, game.version)
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    assert Seat.objects.get(game=game, player=bruno).replaced_by_computer
    assert not Seat.objects.get(game=game, player=anna).replaced_by_computer


def test_a_move_in_time_resets_the_timeouts(lobby, run_on_commit):
    game, (anna,) = started(lobby, run_on_commit, "felix", 1, 2)
    overdue(game)
    processing.process(game.pk, timeout_version=game.version)
    rules, state = state_of(game)
    me = seat_of(game, anna)
    if me in rules.to_act(state):
        run_on_commit(services.submit_move, game.pk, anna, rules.legal_actions(state, me)[0], "x")
        assert Seat.objects.get(game=game, player=anna).timeouts == 0


def test_sweep_requeues_old_pending_moves_and_acts_on_deadlines(lobby, run_on_commit):
    game, (anna,) = started(lobby, run_on_commit, "felix", 1, 2)
    rules, state = state_of(game)
    me = seat_of(game, anna)
    move = record(game, me, rules.legal_actions(state, me)[0], "lost-task")
    Move.objects.filter(pk=move.pk).update(created_at=timezone.now() - timedelta(minutes=1))
    result = tasks.sweep()
    assert result["pending"] == 1
    move.refresh_from_db()
    assert move.status == "applied"
    game.refresh_from_db()
    overdue(game)
    assert tasks.sweep()["overdue"] == 1
    assert Move.objects.filter(game=game, source=MoveSource.TIMEOUT).exists()


def test_sweep_processes_a_started_game_whose_first_processing_was_lost(lobby):
    """The broker lost the task queued at the start (Redis restarted): the sweep queues it,
    so the computers act and the first deadline is set (found by ``bench soak``)."""
    game, (anna,) = lobby("smoking_cat", humans=1, computers=3)
    services.start(game, anna)  # its on-commit enqueue never runs here: lost
    game.refresh_from_db()
    assert game.deadline is None and not Move.objects.filter(game=game).exists()
    assert tasks.sweep()["unprocessed"] == 0  # a fresh start may still be on its way
    Game.objects.filter(pk=game.pk).update(started_at=timezone.now() - timedelta(minutes=1))
    assert tasks.sweep()["unprocessed"] == 1
    game.refresh_from_db()
    assert game.deadline is not None
    assert Move.objects.filter(game=game, source=MoveSource.COMPUTER).exists()
    assert tasks.sweep()["unprocessed"] == 0


def test_sweep_expires_old_lobbies(lobby, settings):
    game, _ = lobby("felix", humans=1)
    fresh, _ = lobby("felix", humans=1, chat_id=-200)
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - settings.LOBBY_TTL * 2)
    assert tasks.sweep()["expired"] == 1
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED
    assert Game.objects.get(pk=fresh.pk).status == GameStatus.LOBBY


def test_moves_for_a_finished_game_are_rejected(lobby, run_on_commit):
    game, (_anna,) = started(lobby, run_on_commit, "felix", 1, 2)
    move = record(game, 0, "pass", "late")
    Game.objects.filter(pk=game.pk).update(status=GameStatus.ABORTED)
    processing.process(game.pk)
    move.refresh_from_db()
    assert move.status == "rejected" and move.reason


def test_S17_moderator_letter_is_a_logged_move_that_replays(lobby, run_on_commit):
    """S17: an administrator awards and removes letters; the log still replays exactly."""
    game, (anna,) = started(lobby, run_on_commit, "smoking_cat", 1, 3)
    me = seat_of(game, anna)
    run_on_commit(services.moderator_move, game, me, AWARD_LETTER.value, "renege at the club night")
    rules, state = state_of(game)
    assert rules.view(state, None)["letters"][me] == "G"
    run_on_commit(services.moderator_move, game, me, REMOVE_LETTER.value, "appeal upheld")
    rules, state = state_of(game)
    assert rules.view(state, None)["letters"][me] == ""
    notes = list(game.moves.filter(source="moderator").values_list("note", flat=True))
    assert notes == ["renege at the club night", "appeal upheld"]
    assert matches_stored_state(Game.objects.get(pk=game.pk))


def test_replay_game_command(lobby, run_on_commit, capsys):
    game, _ = started(lobby, run_on_commit, "bon_appetit", 1, 1)
    seat = game.seats.get(player__isnull=False)
    run_on_commit(services.replace_with_computer, game, seat.number, by=services.SYSTEM)
    call_command("replay_game", game.pk)
    assert "state matches" in capsys.readouterr().out
    Game.objects.filter(pk=game.pk).update(state={"tampered": True})
    with pytest.raises(Exception, match="differ"):
        call_command("replay_game", game.pk)


def test_a_second_tap_on_the_same_table_is_out_of_date(lobby, run_on_commit):
    """One decision per seat per table version, even when the action is still legal."""
    game, _players = started(lobby, run_on_commit, "bon_appetit", 2, 0)
    rules, state = state_of(game)
    first = rules.to_act(state)[0]
    seen = game.version
    one = Move.objects.create(game=game, seat=first, action="flip", key="t1", seen_version=seen)
    two = Move.objects.create(game=game, seat=first, action="flip", key="t2", seen_version=seen)
    processing.process(game.pk)
    one.refresh_from_db(), two.refresh_from_db()
    assert one.status == "applied"
    assert two.status == "rejected" and two.reason == "This button is out of date."
    # The same rule holds across processing runs, from the database.
    three = Move.objects.create(game=game, seat=first, action="flip", key="t3", seen_version=seen)
    processing.process(game.pk)
    three.refresh_from_db()
    assert three.status == "rejected"


def test_the_first_deadline_is_announced(lobby, run_on_commit):
    seen = []

    def on_update(sender, game_id, version, events, **kw):
        seen.append(version)

    game_updated.connect(on_update)
    try:
        game, _ = started(lobby, run_on_commit, "felix", 2, 1)
    finally:
        game_updated.disconnect(on_update)
    # The start's processing set the deadline; the front-end heard of it.
    assert game.deadline is not None and game.version in seen


def test_a_searching_computer_is_handed_its_seats_observation_history(
    lobby, run_on_commit, monkeypatch
):
    """Issue 14: a strategy that needs history gets the events its seat saw, in order,
    and never an event meant for another seat."""
    seen = []

    class Recording:
        needs_history = True

        def choose(self, view, legal, rng, history=()):
            seen.append((view["seat"], list(history)))
            return legal[0]

    monkeypatch.setattr(catalog.GameKind, "strategy", lambda kind, name: Recording())
    started(lobby, run_on_commit, "smoking_cat", 1, 3)
    assert seen
    for seat, history in seen:
        assert all(ev["to"] is None or seat in ev["to"] for ev in history)
    later = [h for _s, h in seen[4:]]
    assert any(later), "the history grows as the game goes on"


def test_a_game_gone_after_a_searching_decision_returns_what_the_call_did(monkeypatch):
    """The row is deleted while a computer searches outside the lock: the next step finds
    no game, and the call reports the step it made instead of failing."""
    steps = iter([processing.StepReport(7, version=3, applied=1, search_at=3), None])
    monkeypatch.setattr(processing, "_locked_step", lambda *args: next(steps))
    monkeypatch.setattr(processing, "decide", lambda *args: {})
    report = processing.process(7)
    assert report is not None
    assert (report.game_id, report.version, report.applied) == (7, 3, 1)
