"""Moderation in the Django admin: every action asks for a reason, runs only for staff
with its permission, and leaves an audit record; leagues, seasons and the league word are
edited with clear validation errors; the moderation log is read-only and filterable."""

from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from games.leagues.models import League, Season
from games.moderation.models import ModerationAction
from games.play import services
from games.play.models import Game, Player, Seat
from tests.factories import LeagueFactory, PlayerFactory
from tests.web.seed import _on_commit, finished, letters_of, players, smoking_cat_match

pytestmark = pytest.mark.django_db


def running_felix():
    people = players(2)
    with _on_commit():
        game = services.create_lobby(-77, "felix", people[0])
        services.join(game, people[1])
        services.add_computer(game, by=services.SYSTEM)
        game = services.start(game, by=services.SYSTEM)
    return Game.objects.get(pk=game.pk), people


def act(client, model, action, objects, data=None):
    """Post an admin action: the reason form first, then (with ``data``) its answer."""
    url = reverse(f"admin:games_{model}_changelist")
    post = {"action": action, ACTION_CHECKBOX_NAME: [o.pk for o in objects], "index": 0}
    first = client.post(url, post)
    if data is None:
        return first
    post.pop("index")
    with _on_commit():
        return client.post(url, {**post, "apply": "1", **data})


# Each case: (model, action, a function making its target and a check of its effect).
def _ban():
    p = PlayerFactory()
    return "player", [p], lambda: Player.objects.get(pk=p.pk).is_banned


def _unban():
    p = PlayerFactory(is_banned=True, ban_reason="spam")
    return "player", [p], lambda: not Player.objects.get(pk=p.pk).is_banned


def _abort():
    game, _ = running_felix()
    return "game", [game], lambda: Game.objects.get(pk=game.pk).status == "aborted"


def _flag():
    game = finished("felix", players(3), [1, 2, 3])
    return "game", [game], lambda: Game.objects.get(pk=game.pk).flagged_not_rated


def _unflag():
    game = finished("felix", players(3), [1, 2, 3], flagged_not_rated=True)
    return "game", [game], lambda: not Game.objects.get(pk=game.pk).flagged_not_rated


def _seat():
    game, (anna, _b) = running_felix()
    seat = game.seats.get(player=anna)
    return "seat", [seat], lambda: Seat.objects.get(pk=seat.pk).replaced_by_computer


def _award():
    game = smoking_cat_match(LeagueFactory(), players(4), [0, 0, 0, 0])
    seat = game.seats.get(number=2)
    return "seat", [seat], lambda: letters_of(game)[2] == "G"


def _remove():
    people = players(4)
    game = smoking_cat_match(LeagueFactory(), people, [1, 0, 0, 0])
    seat = game.seats.get(player=people[0])
    return "seat", [seat], lambda: letters_of(game)[seat.number] == ""


CASES = {
    "ban": (_ban, "ban"),
    "unban": (_unban, "unban"),
    "abort": (_abort, "abort"),
    "flag_not_rated": (_flag, "flag_not_rated"),
    "unflag_not_rated": (_unflag, "unflag_not_rated"),
    "seat_to_computer": (_seat, "seat_to_computer"),
    "award_letter": (_award, "award_letter"),
    "remove_letter": (_remove, "remove_letter"),
}


@pytest.mark.parametrize("action", list(CASES))
def test_action_with_permission_asks_a_reason_acts_and_is_logged(client, moderator, action):
    make, kind = CASES[action]
    model, objects, done = make()
    client.force_login(moderator)
    form = client.get(reverse(f"admin:games_{model}_changelist"))
    assert action in [
        value for value, _label in form.context["action_form"].fields["action"].choices
    ]
    page = act(client, model, action, objects)
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert not done()
    # An empty reason is refused with the form again.
    again = act(client, model, action, objects, {"reason": "  "})
    assert again.status_code == 200 and b"errorlist" in again.content
    assert not done() and not ModerationAction.objects.exists()
    response = act(client, model, action, objects, {"reason": "seen on the club night"})
    assert response.status_code == 302
    assert done()
    entry = ModerationAction.objects.get()
    assert (entry.kind, entry.actor, entry.actor_name, entry.reason) == (
        kind,
        moderator,
        "mod",
        "seen on the club night",
    )
    assert entry.created_at <= timezone.now()
    target = objects[0]
    if model == "player":
        assert entry.player_id == target.pk
    elif model == "game":
        assert entry.game_id == target.pk
    else:
        assert (entry.game_id, entry.seat) == (target.game_id, target.number)


@pytest.mark.parametrize("action", list(CASES))
def test_action_without_permission_is_refused(client, viewer, action):
    make, _kind = CASES[action]
    model, objects, done = make()
    client.force_login(viewer)
    page = client.get(reverse(f"admin:games_{model}_changelist"))
    assert page.status_code == 200
    choices = (
        page.context["action_form"].fields["action"].choices
        if page.context.get("action_form")
        else []
    )
    assert action not in [value for value, _label in choices]
    # Posting it anyway changes nothing and logs nothing.
    act(client, model, action, objects, {"reason": "trying"})
    assert not done()
    assert not ModerationAction.objects.exists()


def test_ban_with_an_end_date(client, moderator):
    anna = PlayerFactory()
    client.force_login(moderator)
    until = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    act(client, "player", "ban", [anna], {"reason": "spam", "until": until})
    anna.refresh_from_db()
    assert anna.is_banned and anna.banned_until is not None
    assert ModerationAction.objects.get().details["until"]
    past = (timezone.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    bob = PlayerFactory()
    page = act(client, "player", "ban", [bob], {"reason": "spam", "until": past})
    assert "cannot end in the past" in page.content.decode()
    assert not Player.objects.get(pk=bob.pk).is_banned


def test_service_errors_are_shown_not_raised(client, moderator):
    game = finished("felix", players(3), [1, 2, 3])  # finished: cannot be aborted
    client.force_login(moderator)
    response = act(client, "game", "abort", [game], {"reason": "late"})
    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("The game is over." in m for m in messages)
    assert not ModerationAction.objects.exists()


def test_ban_fields_are_read_only_in_the_player_form(client, moderator, admin_client):
    anna = PlayerFactory()
    url = reverse("admin:games_player_change", args=[anna.pk])
    form = admin_client.get(url).context["adminform"].form
    assert "is_banned" not in form.fields and "ban_reason" not in form.fields


# --- The moderation log --------------------------------------------------------------------
def test_moderation_log_is_read_only_and_filterable(client, moderator, admin_client):
    anna, bob = PlayerFactory(), PlayerFactory()
    client.force_login(moderator)
    act(client, "player", "ban", [anna], {"reason": "spam"})
    act(client, "player", "unban", [anna], {"reason": "appeal"})
    act(client, "player", "ban", [bob], {"reason": "cheating"})
    url = reverse("admin:games_moderationaction_changelist")
    page = admin_client.get(url)
    assert page.status_code == 200 and page.context["cl"].result_count == 3
    assert admin_client.get(url, {"kind__exact": "ban"}).context["cl"].result_count == 2
    assert admin_client.get(url, {"q": "appeal"}).context["cl"].result_count == 1
    assert admin_client.get(url, {"actor__id__exact": moderator.pk}).context["cl"].result_count == 3
    entry = ModerationAction.objects.first()
    change = reverse("admin:games_moderationaction_change", args=[entry.pk])
    response = admin_client.post(change, {"reason": "rewritten"})
    assert response.status_code == 403
    entry.refresh_from_db()
    assert entry.reason != "rewritten"
    assert admin_client.get(reverse("admin:games_moderationaction_add")).status_code == 403
    delete = reverse("admin:games_moderationaction_delete", args=[entry.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403


# --- Leagues, seasons, chats, members and the league word --------------------------------
def league_form(**overrides):
    data = {
        "name": "Gatti di Roma",
        "slug": "roma",
        "description": "",
        "is_active": "on",
        "game_types": ["felix", "smoking_cat"],
        "word": "micio",
        "computer_level": "normal",
        "turn_seconds": "",
    }
    for prefix in ("seasons", "chats", "members"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    data.update(overrides)
    return data


def test_league_is_edited_in_the_admin_with_seasons_chats_and_members(admin_client):
    anna = PlayerFactory()
    data = league_form(
        **{
            "seasons-TOTAL_FORMS": "1",
            "seasons-0-name": "Spring",
            "seasons-0-starts_on": "2026-03-01",
            "seasons-0-ends_on": "2026-05-31",
            "chats-TOTAL_FORMS": "1",
            "chats-0-chat_id": "-100123",
            "chats-0-title": "Club night",
            "members-TOTAL_FORMS": "1",
            "members-0-player": str(anna.pk),
            "members-0-joined_at_0": "2026-03-01",
            "members-0-joined_at_1": "10:00:00",
        }
    )
    response = admin_client.post(reverse("admin:games_league_add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    league = League.objects.get(slug="roma")
    assert league.word == "MICIO"
    assert league.game_types == ["felix", "smoking_cat"]
    assert list(league.seasons.values_list("name", flat=True)) == ["Spring"]
    assert list(league.chats.values_list("chat_id", flat=True)) == [-100123]
    assert list(league.members.values_list("player", flat=True)) == [anna.pk]
    from games.leagues.services import league_for_chat

    assert league_for_chat(-100123) == league


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("ab", "“ab” has 2 characters; the league word needs 3 to 12."),
        ("abcdefghijklmn", "has 14 characters; the league word needs 3 to 12."),
        ("gat7o", "characters that are not alphabetic: &#x27;7&#x27;"),
        ("gat to", "characters that are not alphabetic: &#x27; &#x27;"),
    ],
)
def test_league_word_typos_are_explained(admin_client, word, message):
    response = admin_client.post(reverse("admin:games_league_add"), league_form(word=word))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not League.objects.exists()


def test_league_needs_a_game(admin_client):
    response = admin_client.post(reverse("admin:games_league_add"), league_form(game_types=[]))
    assert response.status_code == 200 and not League.objects.exists()


def test_overlapping_or_backwards_seasons_are_refused(admin_client):
    league = LeagueFactory()
    Season.objects.create(
        league=league, name="Spring", starts_on="2026-03-01", ends_on="2026-05-31"
    )
    url = reverse("admin:games_season_add")
    base = {"league": league.pk, "name": "Late spring", "starts_on": "2026-05-01"}
    overlap = admin_client.post(url, {**base, "ends_on": "2026-06-30"})
    assert "This season overlaps Spring." in overlap.content.decode()
    backwards = admin_client.post(url, {**base, "starts_on": "2026-07-01", "ends_on": "2026-06-01"})
    assert "cannot end before it starts" in backwards.content.decode()
    assert (
        admin_client.post(url, {**base, "starts_on": "2026-06-01", "ends_on": ""}).status_code
        == 302
    )
    assert league.seasons.count() == 2
