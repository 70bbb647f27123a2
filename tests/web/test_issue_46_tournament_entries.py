"""Issue 46, item 5 (finding 5: five cookie-less clients each joined a lobby by its link and
signed up for a tournament, 12 entries in 1.7 s). A tournament entry needs an identity that
costs something (Telegram, or a finished game with other people), and sign-ups are limited
per address and per tournament; a refusal says why and changes nothing."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from games.leagues.models import LeagueMember
from games.play import services
from games.play.models import GameStatus, Player
from games.tournaments import entries, entry_guard, errors
from games.tournaments.models import Entry, Tournament
from tests.factories import GameFactory, PlayerFactory, SeatFactory
from tests.tourneys import tournament
from web.actors import SESSION_AUTH_DATE, SESSION_KEY

pytestmark = pytest.mark.django_db

FLOOD_ADDRESS = "203.0.113.7"


def guest(name: str = "Guest") -> Player:
    """A browser guest as a cookie-less client joining a lobby by its link becomes one."""
    with translation.override("en"):
        return services.browser_player(name, "en", None)


def client_of(player: Player, address: str = "198.51.100.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    session = client.session
    session[SESSION_KEY] = player.pk
    if player.in_telegram:  # a fresh Telegram sign-in (the bot's link, the Login Widget)
        session[SESSION_AUTH_DATE] = int(time.time())
    session.save()
    return client


def finished_game(*people: Player, computers: int = 0) -> None:
    now = timezone.now()
    game = GameFactory(status=GameStatus.FINISHED, started_at=now, finished_at=now, chat_id=None)
    for number, person in enumerate(people):
        SeatFactory(game=game, number=number, player=person)
    for number in range(len(people), len(people) + computers):
        SeatFactory(game=game, number=number, player=None, strategy="random")


def join(client: Client, t: Tournament):
    return client.post(
        reverse("web:tournament-entry", args=[t.pk]), {"action": "join"}, HTTP_ACCEPT="text/html"
    )


def state(t: Tournament) -> tuple:
    """What a sign-up would change: the entries, the league's members, the page's version."""
    t.refresh_from_db()
    return (
        list(Entry.objects.filter(tournament=t).values_list("player_id", "withdrawn_at")),
        LeagueMember.objects.filter(league=t.league).count(),
        t.version,
    )


def test_issue_46_a_fresh_cookieless_guest_cannot_enter_and_is_told_how_to():
    t, _ = tournament(starts_at=timezone.now() + timedelta(hours=1))
    visitor = guest()
    client = client_of(visitor)
    page = client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    assert "sign in with Telegram, or first finish a game with other people" in page
    assert 'name="action" value="join"' not in page  # no button that would be refused
    before = state(t)
    refused = join(client, t)
    assert refused.status_code == 409
    assert "sign in with Telegram" in refused.content.decode()
    assert state(t) == before and not Entry.objects.filter(player=visitor).exists()
    # Nor through the service (the bot's way in), whatever the league's completion rate.
    with pytest.raises(errors.EntryNeedsIdentity):
        entries.sign_up(t, visitor)
    # A game finished against computers only, or left to a computer, is no such identity.
    finished_game(visitor, computers=2)
    with pytest.raises(errors.EntryNeedsIdentity):
        entries.sign_up(t, visitor)
    assert state(t) == before


def test_issue_46_a_telegram_linked_player_can_enter():
    t, _ = tournament(starts_at=timezone.now() + timedelta(hours=1))
    anna = PlayerFactory()  # a Telegram account behind her
    assert join(client_of(anna), t).status_code == 302
    assert Entry.objects.filter(tournament=t, player=anna, withdrawn_at__isnull=True).exists()


def test_issue_46_a_guest_with_a_finished_game_with_people_can_enter():
    t, _ = tournament(starts_at=timezone.now() + timedelta(hours=1))
    visitor = guest()
    finished_game(visitor, guest("Other"), computers=1)
    client = client_of(visitor)
    page = client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    assert 'name="action" value="join"' in page
    assert join(client, t).status_code == 302
    assert Entry.objects.filter(tournament=t, player=visitor).exists()


def test_issue_46_the_per_address_limit_stops_a_flood_of_guests_from_one_address(settings):
    limit = settings.TOURNAMENT_SIGNUPS_PER_HOUR_PER_ADDRESS
    assert 0 < limit < 12
    t, _ = tournament(starts_at=timezone.now() + timedelta(hours=1))
    # Twelve guests, each with the identity a script would have to pay for.
    flood = [guest(f"Guest {i}") for i in range(12)]
    for a, b in zip(flood[::2], flood[1::2], strict=True):
        finished_game(a, b)
    answers = [join(client_of(g, FLOOD_ADDRESS), t) for g in flood]
    assert [a.status_code for a in answers].count(302) == limit
    assert Entry.objects.filter(tournament=t).count() == limit
    refused = [a for a in answers if a.status_code != 302]
    assert {a.status_code for a in refused} == {429}
    assert "Too many tournament sign-ups from your connection" in refused[0].content.decode()
    # Another address is not held back by this one, nor is the bot (no address).
    late = guest("Late")
    finished_game(late, flood[0])
    assert join(client_of(late, "198.51.100.99"), t).status_code == 302
    entries.sign_up(t, PlayerFactory())
    print(
        f"issue46 flood: 12 guests from one address -> {limit} entries, "
        f"{len(refused)} refused (429)"
    )


def test_issue_46_a_refused_sign_up_does_not_use_the_address_allowance(settings):
    settings.TOURNAMENT_SIGNUPS_PER_HOUR_PER_ADDRESS = 2
    t, _ = tournament(starts_at=timezone.now() + timedelta(hours=1))
    cache.delete(entry_guard._address_key(FLOOD_ADDRESS))
    visitor = guest()
    for _ in range(5):  # refused for its identity: the address keeps its sign-ups
        assert join(client_of(visitor, FLOOD_ADDRESS), t).status_code == 409
    people = [guest(f"P{i}") for i in range(2)]
    finished_game(*people)
    for person in people:
        assert join(client_of(person, FLOOD_ADDRESS), t).status_code == 302


@override_settings(TOURNAMENT_MAX_ENTRIES=3)
def test_issue_46_the_per_tournament_limit():
    t, people = tournament(3, starts_at=timezone.now() + timedelta(hours=1))
    before = state(t)
    with translation.override("it"), pytest.raises(errors.TournamentFull) as full:
        entries.sign_up(t, PlayerFactory())
    assert full.value.code == "tournament_full"
    assert state(t) == before
    refused = join(client_of(PlayerFactory()), t)
    assert refused.status_code == 409 and "This tournament is full." in refused.content.decode()
    assert state(t) == before
    # A withdrawal leaves room for one more.
    entries.withdraw(t, people[0])
    entries.sign_up(t, PlayerFactory())
    assert Entry.objects.filter(tournament=t, withdrawn_at__isnull=True).count() == 3


def test_issue_46_every_refusal_is_translated():
    for language, words in {
        "it": ("accedi con Telegram", "dalla tua connessione", "al completo"),
        "pt": ("inicia sessão com o Telegram", "a partir da tua ligação", "está cheio"),
    }.items():
        with translation.override(language):
            messages = [
                str(errors.EntryNeedsIdentity()),
                str(errors.TooManySignUps()),
                str(errors.TournamentFull()),
            ]
        if messages[0].startswith("To enter"):
            pytest.skip("the catalogs are not compiled here (the lead compiles them)")
        for message, word in zip(messages, words, strict=True):
            assert word in message
