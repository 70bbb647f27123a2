"""Nothing hidden leaks to staff either (issue 15): an open game's seed, options, result
and move log (face-down Felix cards, Smoking Cat passes, private events, rejection
reasons) are shown in the admin only with ``games.view_secrets``; seats and the game's
play fields are read-only, so every change goes through the moderation actions."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.moderation.models import ModerationAction
from games.play import services
from games.play.models import Game, GameStatus, Move, Seat
from games.play.table import Table
from tests.factories import LeagueFactory, PlayerFactory
from tests.web.seed import _on_commit, finished, players, smoking_cat_match

pytestmark = pytest.mark.django_db


def running_felix_with_a_placed_card():
    """A running Felix game of two humans and a computer where a human placed a card
    face down (``place:<card>``) and the computer placed its own."""
    people = players(2)
    with _on_commit():
        game = services.create_lobby(-770, "felix", people[0])
        services.join(game, people[1])
        services.add_computer(game, by=services.SYSTEM)
        game = services.start(game, by=services.SYSTEM)
    game = Game.objects.get(pk=game.pk)
    seat = game.seats.get(player=people[0])
    action = next(a for a in Table(game).legal(seat.number) if a.startswith("place:"))
    with _on_commit():
        services.submit_move(game.pk, people[0], action, "tap-1", game.version)
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.RUNNING
    return game, action


def smoking_cat_with_a_pass():
    """A running Smoking Cat match where a seat passed its cards (``pass:<cards>``)."""
    people = players(4)
    game = smoking_cat_match(LeagueFactory(), people, [0, 0, 0, 0])
    seat = next(s for s in game.seats.select_related("player") if Table(game).legal(s.number))
    action = next(a for a in Table(game).legal(seat.number) if a.startswith("pass:"))
    with _on_commit():
        services.submit_move(game.pk, seat.player, action, "tap-pass", game.version)
    return Game.objects.get(pk=game.pk), action


@pytest.fixture
def looker(db, django_user_model):
    """Staff with every view permission of the games app, and nothing else."""
    user = django_user_model.objects.create_user("looker", password="pw", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="games", codename__startswith="view_"
        ).exclude(codename="view_secrets")
    )
    return django_user_model.objects.get(pk=user.pk)


def html(client, url, **params) -> str:
    response = client.get(url, params)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


# --- The game: seed, options, result -------------------------------------------------------
def test_view_only_staff_do_not_see_an_open_games_seed(client, looker, admin_client):
    game, _action = running_felix_with_a_placed_card()
    url = reverse("admin:games_game_change", args=[game.pk])
    client.force_login(looker)
    page = html(client, url)
    assert str(game.seed) not in page
    assert "hidden while the game is open" in page
    # The superuser has the permission and sees it.
    assert str(game.seed) in html(admin_client, url)


def test_a_lobbys_options_are_hidden_too(client, looker):
    anna = PlayerFactory()
    with _on_commit():
        lobby = services.create_lobby(-771, "felix", anna)
    Game.objects.filter(pk=lobby.pk).update(options={"hands": [["secret-hand-x"]]}, seed=987654321)
    client.force_login(looker)
    page = html(client, reverse("admin:games_game_change", args=[lobby.pk]))
    assert "secret-hand-x" not in page and "987654321" not in page


def test_the_seed_is_not_found_by_changelist_lookups(client, looker, admin_client):
    game, _action = running_felix_with_a_placed_card()
    url = reverse("admin:games_game_changelist")
    client.force_login(looker)
    # The legal actions name the cards a waiting seat may play.
    lookups = {"seed": game.seed + 1, "seed__lt": game.seed + 1, "options__has_key": "hands"}
    lookups["legal__icontains"] = "place"
    for lookup, value in lookups.items():
        response = client.get(url, {lookup: str(value)})
        # Refused (400), never a list narrowed by the secret.
        assert response.status_code == 400, lookup
    cl = admin_client.get(url, {"seed": str(game.seed)}).context["cl"]
    assert cl.result_count == 1


def test_a_granted_staff_account_sees_secrets(client, django_user_model, looker):
    game, action = running_felix_with_a_placed_card()
    looker.user_permissions.add(Permission.objects.get(codename="view_secrets"))
    looker = django_user_model.objects.get(pk=looker.pk)
    client.force_login(looker)
    assert str(game.seed) in html(client, reverse("admin:games_game_change", args=[game.pk]))
    moves = html(client, reverse("admin:games_move_changelist"), game__id__exact=game.pk)
    assert action in moves


def test_finished_games_show_everything(client, looker):
    game = finished("felix", players(2), [1, 2])
    Game.objects.filter(pk=game.pk).update(seed=424242424242)
    Move.objects.create(game=game, key="k", seat=0, action="place:7", status="applied", seq=1)
    client.force_login(looker)
    assert "424242424242" in html(client, reverse("admin:games_game_change", args=[game.pk]))
    assert "place:7" in html(client, reverse("admin:games_move_changelist"))
    # Searching by action finds ended games' moves.
    page = client.get(reverse("admin:games_move_changelist"), {"q": "place:7"})
    assert page.context["cl"].result_count == 1


# --- The move log ---------------------------------------------------------------------------
def test_move_log_hides_face_down_cards_of_a_running_game(client, looker, admin_client):
    game, action = running_felix_with_a_placed_card()
    moves = Move.objects.filter(game=game, action__startswith="place:")
    assert moves.count() >= 2  # the human's and the computer's
    client.force_login(looker)
    changelist = reverse("admin:games_move_changelist")
    pages = [html(client, changelist), html(client, changelist, game__id__exact=game.pk)]
    for move in moves:
        pages.append(html(client, reverse("admin:games_move_change", args=[move.pk])))
        pages.append(html(client, reverse("admin:games_move_history", args=[move.pk])))
    for page in pages:
        assert "place:" not in page
        assert "hidden while the game is open" in page or "History" in page
    # The superuser sees the actions.
    assert action in html(admin_client, changelist)


def test_move_events_show_only_public_events_of_an_open_game(client, looker, admin_client):
    game, action = running_felix_with_a_placed_card()
    move = Move.objects.get(game=game, key="tap-1")
    assert any(ev.get("to") for ev in move.events)  # "you_placed", to the seat only
    url = reverse("admin:games_move_change", args=[move.pk])
    client.force_login(looker)
    page = html(client, url)
    assert "you_placed" not in page and action not in page
    assert "placed" in page  # the public event is shown
    assert "you_placed" in html(admin_client, url)


def test_smoking_cat_passes_are_hidden(client, looker, admin_client):
    game, action = smoking_cat_with_a_pass()
    move = Move.objects.get(game=game, key="tap-pass")
    cards = action.split(":", 1)[1]
    client.force_login(looker)
    pages = [
        html(client, reverse("admin:games_move_changelist"), game__id__exact=game.pk),
        html(client, reverse("admin:games_move_change", args=[move.pk])),
    ]
    # A card's code is two letters, which a random token on the page may hold: look for it
    # as the events write it, quoted.
    quoted = [f'"{cards}"', f"&quot;{cards}&quot;", f"&#x27;{cards}&#x27;", f"'{cards}'"]
    for page in pages:
        assert action not in page
        assert not any(q in page for q in quoted)
    assert action in html(admin_client, reverse("admin:games_move_change", args=[move.pk]))


def test_searching_or_filtering_by_action_does_not_reveal_it(client, looker, admin_client):
    _game, action = running_felix_with_a_placed_card()
    url = reverse("admin:games_move_changelist")
    client.force_login(looker)
    # A search by the exact action finds nothing of the open game.
    assert client.get(url, {"q": action}).context["cl"].result_count == 0
    assert client.get(url, {"q": "place:"}).context["cl"].result_count == 0
    # Lookups on the action, the events or the reason are refused.
    for lookup, value in [
        ("action", action),
        ("action__startswith", "place:"),
        ("events__icontains", "you_placed"),
        ("reason__icontains", "mice"),
    ]:
        assert client.get(url, {lookup: value}).status_code == 400, lookup
    # Sorting by the action column is not offered either.
    cl = client.get(url).context["cl"]
    assert "action" not in cl.list_display
    assert admin_client.get(url, {"q": action}).context["cl"].result_count >= 1


def test_rejection_reasons_of_an_open_game_are_hidden(client, looker):
    game, _action = running_felix_with_a_placed_card()
    move = Move.objects.create(
        game=game,
        key="rejected",
        seat=0,
        action="bid:9",
        status="rejected",
        reason="You cannot bid more mice than you have (7).",
    )
    client.force_login(looker)
    page = html(client, reverse("admin:games_move_change", args=[move.pk]))
    assert "more mice than you have" not in page and "bid:9" not in page


# --- Seats and the game's play fields are read-only ------------------------------------------
def seat_post(seat, **overrides):
    data = {
        "game": seat.game_id,
        "number": seat.number,
        "player": seat.player_id or "",
        "strategy": seat.strategy,
        "timeouts": seat.timeouts,
    }
    if seat.replaced_by_computer:
        data["replaced_by_computer"] = "on"
    data.update(overrides)
    return data


@pytest.fixture
def seat_changer(db, django_user_model):
    """Staff with the plain change permission on seats (and views), no moderation."""
    user = django_user_model.objects.create_user("changer", password="pw", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="games",
            codename__in=["view_seat", "change_seat", "add_seat", "delete_seat", "view_game"],
        )
    )
    return django_user_model.objects.get(pk=user.pk)


def test_a_running_seat_cannot_be_given_to_someone_else(client, seat_changer):
    game, _action = running_felix_with_a_placed_card()
    seat = game.seats.filter(player__isnull=False).first()
    owner, stranger = seat.player_id, PlayerFactory()
    url = reverse("admin:games_seat_change", args=[seat.pk])
    client.force_login(seat_changer)
    client.post(url, seat_post(seat, player=stranger.pk))
    seat.refresh_from_db()
    assert seat.player_id == owner
    page = client.get(url)
    assert page.status_code == 200
    assert "player" not in page.context["adminform"].form.fields


def test_a_running_seat_cannot_be_flipped_to_a_computer_by_editing(client, seat_changer):
    game, _action = running_felix_with_a_placed_card()
    seat = game.seats.filter(player__isnull=False).first()
    url = reverse("admin:games_seat_change", args=[seat.pk])
    client.force_login(seat_changer)
    client.post(url, seat_post(seat, replaced_by_computer="on", strategy="random"))
    seat.refresh_from_db()
    assert not seat.replaced_by_computer
    assert not ModerationAction.objects.exists()
    # Nor added or deleted by hand.
    assert client.get(reverse("admin:games_seat_add")).status_code == 403
    client.post(reverse("admin:games_seat_delete", args=[seat.pk]), {"post": "yes"})
    assert Seat.objects.filter(pk=seat.pk).exists()


def test_seat_admin_is_read_only_even_for_superusers(admin_client):
    game, _action = running_felix_with_a_placed_card()
    seat = game.seats.filter(player__isnull=False).first()
    url = reverse("admin:games_seat_change", args=[seat.pk])
    response = admin_client.post(url, seat_post(seat, player=PlayerFactory().pk))
    assert response.status_code == 403
    seat.refresh_from_db()
    assert seat.game_id == game.pk and not seat.replaced_by_computer


def test_an_open_games_play_fields_are_read_only(admin_client):
    game, _action = running_felix_with_a_placed_card()
    other = LeagueFactory()
    url = reverse("admin:games_game_change", args=[game.pk])
    form = admin_client.get(url).context["adminform"].form
    assert not set(form.fields) & {"seed", "options", "league", "turn_seconds", "status"}
    seats = list(game.seats.order_by("number"))
    data = {
        "league": other.pk,
        "turn_seconds": "5",
        "seed": "1",
        "seats-TOTAL_FORMS": str(len(seats)),
        "seats-INITIAL_FORMS": str(len(seats)),
    }
    for i, seat in enumerate(seats):
        data.update({f"seats-{i}-id": seat.pk, f"seats-{i}-game": game.pk})
    admin_client.post(url, data)
    after = Game.objects.get(pk=game.pk)
    assert (after.league_id, after.turn_seconds, after.seed) == (
        game.league_id,
        game.turn_seconds,
        game.seed,
    )
    # An open game is not deleted by hand either (the abort action ends it).
    delete = reverse("admin:games_game_delete", args=[game.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
