"""The services: lobbies, starting, submitting moves, moderation. Bad input changes nothing."""

import pytest
from django.utils import timezone

from games import catalog
from games.play import errors, services
from games.play.models import AbortReason, Game, GameStatus, Move, Player, Seat
from tests.factories import LeagueFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_player_from_telegram_creates_then_updates():
    p = services.player_from_telegram(42, "Anna", "anna", "pt-br")
    assert (p.display_name, p.language) == ("Anna", "pt")
    again = services.player_from_telegram(42, "Anna B", "annab", "it")
    assert again.pk == p.pk and again.display_name == "Anna B"
    # The language a player chose is kept; Telegram's tag only sets the first default.
    assert Player.objects.get(pk=p.pk).language == "pt"


def test_lobby_create_join_leave_and_computers(lobby):
    game, (anna, bob) = lobby("felix", humans=2)
    assert [s.player for s in game.seats.order_by("number")] == [anna, bob]
    with pytest.raises(errors.AlreadySeated):
        services.join(game, bob)
    services.leave(game, bob)
    with pytest.raises(errors.NotSeated):
        services.leave(game, bob)
    seat = services.add_computer(game, by=services.SYSTEM)
    assert seat.is_computer and seat.strategy == "heuristic"
    assert game.seats.count() == 2


def test_one_open_game_per_chat(lobby):
    game, (anna,) = lobby("felix", chat_id=-7)
    with pytest.raises(errors.ChatBusy):
        services.create_lobby(-7, "smoking_cat", PlayerFactory())
    assert Game.objects.filter(chat_id=-7).count() == 1
    services.abort(game, by=services.SYSTEM)
    services.create_lobby(-7, "smoking_cat", anna)


def test_unknown_game_type_is_refused(db):
    with pytest.raises(errors.UnknownGameType):
        services.create_lobby(-1, "poker", PlayerFactory())
    assert not Game.objects.exists()


def test_table_full(lobby):
    game, _ = lobby("felix", humans=1, computers=4)
    with pytest.raises(errors.TableFull):
        services.join(game, PlayerFactory())
    with pytest.raises(errors.TableFull):
        services.add_computer(game, by=services.SYSTEM)
    assert game.seats.count() == 5


def test_banned_player_cannot_create_join_or_move(lobby, run_on_commit):
    banned = PlayerFactory(is_banned=True)
    with pytest.raises(errors.Banned):
        services.create_lobby(-3, "felix", banned)
    game, _ = lobby("felix", humans=1, computers=2)
    with pytest.raises(errors.Banned):
        services.join(game, banned)
    # A ban with an end date in the past has expired.
    banned.banned_until = timezone.now() - timezone.timedelta(days=1)
    banned.save()
    services.join(game, banned)


def test_start_needs_enough_players_and_the_creator(lobby):
    game, (anna, bob) = lobby("felix", humans=2)
    with pytest.raises(errors.NotEnoughPlayers) as exc:
        services.start(game, anna)
    assert "3 to 5" in str(exc.value)
    services.add_computer(game, by=services.SYSTEM)
    with pytest.raises(errors.NotAllowed):
        services.start(game, bob)
    assert Game.objects.get(pk=game.pk).status == GameStatus.LOBBY
    services.start(game, bob, is_chat_admin=True)
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING


def test_start_waits_for_unreachable_players(lobby):
    game, (anna, bob) = lobby("felix", humans=2, computers=1)
    Player.objects.filter(pk=bob.pk).update(reachable=False)
    with pytest.raises(errors.PlayersUnreachable) as exc:
        services.start(game, anna)
    assert bob.display_name in str(exc.value)
    # The creator replaces the unreachable player with a computer.
    bob_seat = game.seats.get(player=bob)
    services.replace_with_computer(game, bob_seat.number, by=anna)
    services.start(game, anna)
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING


def test_start_shuffles_seats_deals_and_computers_act(lobby, run_on_commit):
    game, (anna,) = lobby("felix", humans=1, computers=3)
    run_on_commit(services.start, game, anna)
    game.refresh_from_db()
    assert game.seed is not None and game.started_at is not None
    assert sorted(game.seats.values_list("number", flat=True)) == [0, 1, 2, 3]
    # Felix placement is simultaneous: the three computers placed at once; Anna is awaited.
    rules = catalog.get("felix").rules
    state = rules.load(game.state)
    anna_seat = game.seats.get(player=anna).number
    assert rules.to_act(state) == [anna_seat]
    assert game.version == 3
    assert game.deadline is not None and game.deadline > timezone.now()


def test_league_word_and_turn_time_apply_at_start(lobby):
    league = LeagueFactory(word="MICIO", turn_seconds=33)
    game, (anna,) = lobby("smoking_cat", humans=1, computers=3, league=league)
    services.start(game, anna)
    game.refresh_from_db()
    assert game.options["word"] == "MICIO"
    assert game.turn_seconds == 33


def human_turn(game, player):
    game.refresh_from_db()
    rules = catalog.get(game.game_type).rules
    state = rules.load(game.state)
    seat = game.seats.get(player=player).number
    return rules, state, seat


def test_submit_move_is_applied_and_duplicates_change_nothing(lobby, run_on_commit):
    game, (anna,) = lobby("felix", humans=1, computers=3)
    run_on_commit(services.start, game, anna)
    rules, state, seat = human_turn(game, anna)
    action = rules.legal_actions(state, seat)[0]
    move = run_on_commit(services.submit_move, game.pk, anna, action, "update-1", game.version)
    again = run_on_commit(services.submit_move, game.pk, anna, action, "update-1", game.version)
    assert again.pk == move.pk
    move.refresh_from_db()
    assert move.status == "applied" and move.seq == 4
    assert Move.objects.filter(game=game, key="update-1").count() == 1


def test_out_of_turn_stale_and_unknown_moves_are_refused(lobby, run_on_commit):
    game, (anna, _bob) = lobby("smoking_cat", humans=2, computers=2)
    run_on_commit(services.start, game, anna)
    _rules, _state, _seat = human_turn(game, anna)
    before = Move.objects.count()
    with pytest.raises(errors.UnknownAction):
        services.submit_move(game.pk, anna, "play:ZZ", "u1", game.version)
    with pytest.raises(errors.StaleButton):
        services.submit_move(game.pk, anna, "play:ZZ", "u2", game.version - 1)
    stranger = PlayerFactory()
    with pytest.raises(errors.NotSeated):
        services.submit_move(game.pk, stranger, "throw", "u3")
    with pytest.raises(errors.GameGone):
        services.submit_move(999_999, anna, "throw", "u4")
    assert Move.objects.count() == before


def test_not_your_turn(lobby, run_on_commit):
    game, (anna, bob) = lobby("bon_appetit", humans=2)
    run_on_commit(services.start, game, anna)
    rules, state, _ = human_turn(game, anna)
    waiting = next(
        p for p in (anna, bob) if game.seats.get(player=p).number not in rules.to_act(state)
    )
    with pytest.raises(errors.NotYourTurn):
        services.submit_move(game.pk, waiting, "flip", "u1", game.version)


def test_moves_in_lobby_or_after_the_end_are_refused(lobby):
    game, (anna,) = lobby("felix", humans=1, computers=2)
    with pytest.raises(errors.GameNotRunning):
        services.submit_move(game.pk, anna, "pass", "u1")
    services.abort(game, AbortReason.MODERATOR, "moderation", by=services.SYSTEM)
    with pytest.raises(errors.GameOver):
        services.submit_move(game.pk, anna, "pass", "u2")
    game = Game.objects.get(pk=game.pk)
    assert (game.abort_reason, game.abort_note) == (AbortReason.MODERATOR, "moderation")


def test_abort_rejects_pending_moves(lobby, run_on_commit):
    game, (anna,) = lobby("felix", humans=1, computers=3)
    run_on_commit(services.start, game, anna)
    rules, state, seat = human_turn(game, anna)
    move = services.submit_move(game.pk, anna, rules.legal_actions(state, seat)[0], "k")
    services.abort(game, AbortReason.MODERATOR, "cheating", by=services.SYSTEM)
    move.refresh_from_db()
    assert move.status == "rejected"
    with pytest.raises(errors.GameOver):
        services.abort(game, AbortReason.MODERATOR, "again", by=services.SYSTEM)


def test_replace_with_computer_mid_game_plays_on(lobby, run_on_commit):
    game, (anna,) = lobby("felix", humans=1, computers=3)
    run_on_commit(services.start, game, anna)
    seat = game.seats.get(player=anna)
    run_on_commit(services.replace_with_computer, game, seat.number, by=services.SYSTEM)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    seat.refresh_from_db()
    assert seat.replaced_by_computer and seat.player == anna
    with pytest.raises(errors.GameOver):
        services.submit_move(game.pk, anna, "pass", "late")


def test_seat_taken_over_by_computer_refuses_the_human(lobby, run_on_commit):
    game, (anna, bob) = lobby("felix", humans=2, computers=1)
    run_on_commit(services.start, game, anna)
    Seat.objects.filter(game=game, player=bob).update(replaced_by_computer=True, strategy="random")
    with pytest.raises(errors.SeatTakenOver):
        services.submit_move(game.pk, bob, "pass", "u1")


def test_errors_are_translated():
    from django.utils import translation

    with translation.override("en"):
        assert str(errors.NotYourTurn()) == "It is not your turn."
    msg = errors.NotEnoughPlayers(min=3, max=5)
    assert "3" in str(msg) and "5" in str(msg)


def test_remove_seat_is_for_the_creator_or_a_chat_admin(lobby):
    game, (anna, bob) = lobby("felix", humans=2, computers=1)
    cpu = game.seats.get(player__isnull=True).number
    with pytest.raises(errors.NotAllowed):
        services.remove_seat(game, cpu, by=bob)
    services.remove_seat(game, cpu, by=bob, is_chat_admin=True)
    with pytest.raises(errors.NotSeated):
        services.remove_seat(game, cpu, by=anna)
    assert game.seats.count() == 2


def test_replacing_a_lobby_player_is_for_the_creator_or_a_chat_admin(lobby):
    game, (anna, bob) = lobby("felix", humans=2)
    bob_seat = game.seats.get(player=bob).number
    with pytest.raises(errors.NotAllowed):
        services.replace_with_computer(game, bob_seat, by=bob)
    seat = services.replace_with_computer(game, bob_seat, by=anna)
    assert seat.player is None and seat.is_computer


def test_language_and_reachability(db):
    player = PlayerFactory(reachable=False, language="en")
    services.set_language(player, "it")
    with pytest.raises(errors.UnknownAction):
        services.set_language(player, "xx")
    assert services.set_reachable(player, True) is True
    assert services.set_reachable(player, True) is False  # no change the second time
    player.refresh_from_db()
    assert (player.language, player.reachable) == ("it", True)


def test_the_creator_removes_only_computers_and_unreachable_players(lobby):
    """Issue 15: a lobby's creator may not throw out a player who can be reached."""
    game, (anna, bruno) = lobby("felix", humans=2, computers=1)
    bruno_seat = game.seats.get(player=bruno).number
    Player.objects.filter(pk=bruno.pk).update(reachable=True)
    with pytest.raises(errors.NotAllowed):
        services.remove_seat(game, bruno_seat, by=anna)
    assert game.seats.filter(player=bruno).exists()
    computer = game.seats.get(player=None).number
    services.remove_seat(game, computer, by=anna)
    Player.objects.filter(pk=bruno.pk).update(reachable=False)
    services.remove_seat(game, bruno_seat, by=anna)
    assert list(game.seats.values_list("player", flat=True)) == [anna.pk]


def test_a_key_is_bound_to_the_seat_that_used_it_first(lobby, run_on_commit):
    """Felix's placement is simultaneous: both people may move. Bob's move under Anna's
    key is refused, not answered as recorded; Anna's redelivery still gets her move."""
    game, (anna, bob) = lobby("felix", humans=2, computers=1)
    run_on_commit(services.start, game, anna)
    game.refresh_from_db()
    rules, state = catalog.get("felix").rules, catalog.get("felix").rules.load(game.state)
    seat = {p: game.seats.get(player=p).number for p in (anna, bob)}
    assert set(seat.values()) <= set(rules.to_act(state))
    first = services.submit_move(
        game.pk, anna, rules.legal_actions(state, seat[anna])[0], "web:k", game.version
    )
    with pytest.raises(errors.KeyTaken):
        services.submit_move(
            game.pk, bob, rules.legal_actions(state, seat[bob])[0], "web:k", game.version
        )
    assert list(Move.objects.filter(game=game, key="web:k").values_list("seat", flat=True)) == [
        seat[anna]
    ]
    again = services.submit_move(game.pk, anna, first.action, "web:k", game.version)
    assert again.pk == first.pk
    # Bob's own key is his, whatever Anna sent.
    services.submit_move(
        game.pk, bob, rules.legal_actions(state, seat[bob])[0], "web:k2", game.version
    )
    assert Move.objects.get(game=game, key="web:k2").seat == seat[bob]
