"""A web move's key is the client's, scoped to its player: a stranger who sends the same
key moves under a key of their own, and nobody's move is lost or refused for it."""

from django.test import Client
from django.urls import reverse

from games import catalog
from games.play import services
from games.play.models import Move
from web.actors import SESSION_KEY


def seated_client(player) -> Client:
    client = Client()
    session = client.session
    session[SESSION_KEY] = player.pk
    session.save()
    return client


def test_two_players_sending_the_same_key_both_move(db, django_capture_on_commit_callbacks):
    anna, bob = services.browser_player("Anna", "en"), services.browser_player("Bob", "en")
    game = services.create_lobby(None, "felix", anna)
    services.join(game, bob, game.invite)
    services.add_computer(game, by=anna)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(game, anna)
    game.refresh_from_db()
    rules = catalog.get("felix").rules
    state = rules.load(game.state)
    for player in (anna, bob):  # placement is simultaneous: both may move now
        number = game.seats.get(player=player).number
        response = seated_client(player).post(
            reverse("web:table-move", args=[game.pk]),
            {
                "action": rules.legal_actions(state, number)[0],
                "key": "same",
                "version": game.version,
            },
        )
        assert response.json() == {"ok": True, "message": ""}
    moves = Move.objects.filter(game=game, key__endswith=":same")
    assert sorted(moves.values_list("seat", flat=True)) == sorted(
        game.seats.filter(player__isnull=False).values_list("number", flat=True)
    )
