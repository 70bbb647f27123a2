"""Who acts on a game (issue 25): every lobby action names its actor, and "nobody" (a
request that identified no player) is refused, never read as the system; only code acts as
the system (``services.SYSTEM``). A chat's lobby takes Telegram players only, a browser
table only those who bring its invite token. A refusal changes nothing."""

import pytest

from games.play import errors, services
from games.play.models import AbortReason, Game, GameStatus, Player, Seat
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def snapshot(game: Game):
    game = Game.objects.get(pk=game.pk)
    seats = list(Seat.objects.filter(game=game).values_list("number", "player_id", "strategy"))
    return game.status, game.abort_reason, sorted(seats), Player.objects.count()


def lobby_actions(game: Game, computer: int, person: int):
    """Each lobby action of the services, as done by ``by``."""
    return {
        "start": lambda by: services.start(game, by),
        "abort": lambda by: services.abort(game, by=by),
        "add_computer": lambda by: services.add_computer(game, by=by),
        "set_computer_level": lambda by: services.set_computer_level(game, computer, "hard", by),
        "remove_seat": lambda by: services.remove_seat(game, computer, by),
        "replace_with_computer": lambda by: services.replace_with_computer(game, person, by=by),
    }


ACTIONS = list(lobby_actions(None, 0, 0))


@pytest.fixture(params=["chat", "browser"])
def table(request, lobby):
    """A lobby ready to start (a person who cannot be reached, a computer): in a Telegram
    group or in the browser."""
    if request.param == "chat":
        game, (anna, bob) = lobby("felix", humans=2, computers=1)
    else:
        anna, bob = Player.objects.create(display_name="Ann"), PlayerFactory()
        game = services.create_lobby(None, "felix", anna)
        services.join(game, bob, game.invite)
        services.add_computer(game, by=anna)
    Player.objects.filter(pk=bob.pk).update(reachable=False)
    seats = {s.player_id: s.number for s in game.seats.all()}
    return game, anna, seats[None], seats[bob.pk]


@pytest.mark.parametrize("action", ACTIONS)
def test_nobody_is_refused_every_lobby_action(table, action):
    game, _anna, computer, person = table
    before = snapshot(game)
    with pytest.raises(errors.NotAllowed):
        lobby_actions(game, computer, person)[action](None)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", ACTIONS)
def test_a_stranger_is_refused_every_lobby_action(table, action):
    game, _anna, computer, person = table
    stranger = PlayerFactory()
    before = snapshot(game)
    with pytest.raises(errors.NotAllowed):
        lobby_actions(game, computer, person)[action](stranger)
    assert snapshot(game) == before


@pytest.mark.parametrize("who", ["creator", "system"])
@pytest.mark.parametrize("action", ACTIONS)
def test_the_creator_and_the_system_may(table, action, who):
    game, anna, computer, person = table
    if action == "start":  # the person who cannot be reached hands over first
        services.replace_with_computer(game, person, by=services.SYSTEM)
    before = snapshot(game)
    lobby_actions(game, computer, person)[action](anna if who == "creator" else services.SYSTEM)
    assert snapshot(game) != before


def test_a_chat_administrator_manages_a_chats_lobby_not_a_browser_table(lobby):
    chat, _ = lobby("felix", humans=1, computers=2)
    services.start(chat, PlayerFactory(), is_chat_admin=True)
    assert Game.objects.get(pk=chat.pk).status == GameStatus.RUNNING
    browser = services.create_lobby(None, "felix", Player.objects.create(display_name="Ann"))
    with pytest.raises(errors.NotAllowed):
        services.add_computer(browser, by=PlayerFactory(), is_chat_admin=True)
    assert browser.seats.count() == 1


def test_a_moderator_aborts_through_the_system_without_a_forfeit(lobby):
    game, (anna,) = lobby("felix", humans=1, computers=2)
    services.start(game, anna)
    services.abort(game, AbortReason.MODERATOR, "wrong table", by=services.SYSTEM)
    game.refresh_from_db()
    assert (game.status, game.abort_reason) == (GameStatus.ABORTED, AbortReason.MODERATOR)
    assert not game.seats.filter(forfeited=True).exists()


# -- joining ---------------------------------------------------------------------------
def test_a_browser_player_cannot_join_a_chats_lobby(lobby):
    game, _ = lobby("felix", humans=1)
    visitor = Player.objects.create(display_name="Visitor")
    before = snapshot(game)
    with pytest.raises(errors.TelegramLobby) as refused:
        services.join(game, visitor)
    assert "Telegram group" in str(refused.value)
    assert snapshot(game) == before
    services.join(game, PlayerFactory())  # a Telegram player may
    assert game.seats.count() == 2


def test_a_browser_table_has_an_unguessable_invite_and_a_chats_lobby_none(lobby):
    chat, _ = lobby("felix")
    assert chat.invite == ""
    tables = [
        services.create_lobby(None, "felix", Player.objects.create(display_name="Ann"))
        for _ in range(3)
    ]
    invites = {Game.objects.get(pk=t.pk).invite for t in tables}
    assert len(invites) == 3 and all(len(i) >= 22 for i in invites)


@pytest.mark.parametrize(
    "invite",
    [None, "", "wrong", "é" * 22, "x" * 10_000],
    ids=["none", "empty", "wrong", "non-ascii", "long"],
)
def test_a_browser_table_takes_only_who_brings_its_invite(db, invite):
    anna = Player.objects.create(display_name="Ann")
    game = services.create_lobby(None, "felix", anna)
    bea = Player.objects.create(display_name="Bea")
    before = snapshot(game)
    with pytest.raises(errors.InviteRequired):
        services.join(game, bea, invite)
    with pytest.raises(errors.InviteRequired):
        services.join(game, bea, game.invite[:-1])  # one character short
    assert snapshot(game) == before
    services.join(game, bea, game.invite)
    assert game.seats.filter(player=bea).exists()
