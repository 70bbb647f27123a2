"""Signing up for a tournament, withdrawing, pausing in an arena (issue 26).

Who may sign up is who may sit at the league's tables (``games.play.services``): nobody
banned, and a completion record at the league's minimum; and, since a completion record
stops no newcomer, a player with an identity that costs something, within the limits per
address and per tournament (``entry_guard``, issue 46). Signing up makes the player a
member of the league, as playing one of its games does. Sign-up is open while the
tournament takes sign-ups, and in an arena while it runs too (an arena is joined at any
time); a withdrawal is possible until it ends: a withdrawn player is seated no more, and a
game they are still playing follows the league's rule for leaving
(``play.leave_running``): a computer at the league's level takes their seat, the game
goes on and counts for the others, and they forfeit it (placed last at the table).
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.leagues.models import LeagueMember
from games.play import services as play
from games.play.models import Game, GameStatus, Player
from games.tournaments import entry_guard, errors, live
from games.tournaments.models import Entry, Format, Status, Tournament


def may_sign_up(tournament: Tournament) -> bool:
    if tournament.status == Status.SIGNUP:
        return True
    return tournament.format == Format.ARENA and tournament.status == Status.RUNNING


def may_withdraw(tournament: Tournament) -> bool:
    return tournament.status in (Status.SIGNUP, Status.RUNNING)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)


def _entered(tournament: Tournament, player: Player) -> Entry:
    """The player's entry, not withdrawn; refused with ``NotEntered`` when there is none."""
    entry = Entry.objects.filter(
        tournament=tournament, player=player, withdrawn_at__isnull=True
    ).first()
    if entry is None:
        raise errors.NotEntered()
    return entry


def sign_up(tournament: Tournament, player: Player, *, address: str | None = None) -> Entry:
    """Enter ``player`` (again, after a withdrawal: the entry comes back). ``address``: the
    client network a web sign-up comes from, for its limit (``entry_guard``); none from
    the bot. Every refusal comes before anything is written."""
    play.check_not_banned(player)
    with transaction.atomic():
        tournament = _lock(tournament)
        if not may_sign_up(tournament):
            raise errors.SignUpClosed()
        entry_guard.check_identity(player)
        play.check_completion(tournament.league, player)
        entry = Entry.objects.filter(tournament=tournament, player=player).first()
        if entry is not None and entry.withdrawn_at is None:
            raise errors.AlreadyEntered()
        entry_guard.check_room(tournament)
        with entry_guard.address_slot(address):
            return _enter(tournament, player, entry)


def _enter(tournament: Tournament, player: Player, entry: Entry | None) -> Entry:
    """The entry made (or back), inside ``sign_up``'s transaction."""
    if entry is None:
        entry = Entry.objects.create(tournament=tournament, player=player, seen_at=timezone.now())
    else:
        entry.withdrawn_at = None
        entry.paused = False
        entry.seen_at = timezone.now()
        entry.save(update_fields=["withdrawn_at", "paused", "seen_at"])
    LeagueMember.objects.get_or_create(league=tournament.league, player=player)
    live.touch(tournament.pk)
    return entry


def withdraw(tournament: Tournament, player: Player) -> Entry:
    with transaction.atomic():
        tournament = _lock(tournament)
        if not may_withdraw(tournament):
            raise errors.TournamentOver()
        entry = _entered(tournament, player)
        if tournament.status == Status.SIGNUP:
            # Nothing was played: the entry goes, as if never made.
            entry.delete()
            live.touch(tournament.pk)
            return entry
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        live.touch(tournament.pk)
        leave_running_games(tournament, player)
    return entry


def set_paused(tournament: Tournament, player: Player, paused: bool) -> Entry:
    """An arena's pause button: a paused player is not seated again until they resume."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.format != Format.ARENA or not may_withdraw(tournament):
            raise errors.TournamentOver()
        entry = _entered(tournament, player)
        entry.paused = paused
        entry.save(update_fields=["paused"])
        live.touch(tournament.pk)
    return entry


# A player's sign of being there is written at most this often (a page asks every few
# seconds); the round's start reads it with TOURNAMENT_PRESENT_SECONDS, much longer.
SEEN_EVERY_SECONDS = 30


def seen(tournament_id: int, player_id: int) -> None:
    """The player is there: the tournament's page is open in front of them (issue 45: a
    round gives the seat of a player not seen lately to a computer at once)."""
    if not cache.add(f"tournament:seen:{tournament_id}:{player_id}", 1, SEEN_EVERY_SECONDS):
        return
    Entry.objects.filter(
        tournament_id=tournament_id, player_id=player_id, withdrawn_at__isnull=True
    ).update(seen_at=timezone.now())


def active_players(tournament: Tournament) -> list[int]:
    """The player ids still in, in entry order (the first round's seeding)."""
    return list(
        tournament.entries.filter(withdrawn_at__isnull=True)
        .order_by("created_at", "id")
        .values_list("player_id", flat=True)
    )


def leave_running_games(tournament: Tournament, player: Player) -> None:
    """The withdrawn player's running games of the tournament follow the league's rule for
    leaving (``play.leave_running``)."""
    running = Game.objects.filter(
        tournament_table__round__tournament=tournament,
        status=GameStatus.RUNNING,
        seats__player=player,
    )
    for game in running:
        play.leave_running(game, player)
