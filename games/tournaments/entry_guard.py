"""Who may enter a tournament at all, and how many entries an address or a tournament
takes (issue 46, finding 5: five cookie-less clients each joined a lobby by its link and
signed up, 12 entries in 1.7 s; a league's minimum completion rate stops no newcomer, who
has no record to fall short of).

- **An identity that costs something**: a player signed in through Telegram (the bot, its
  sign-in link, the Mini App or the Login Widget: a Telegram account stands behind them),
  or one who has finished a game with other people at the table (a whole game played,
  minutes of play, where a guest costs one page load). A fresh browser guest has neither
  and is told how to get one.
- **Per address**: at most ``TOURNAMENT_SIGNUPS_PER_HOUR_PER_ADDRESS`` sign-ups an hour
  from one client network (the web passes ``web.clients.client_network``), across
  tournaments. Even players who qualify can be made by a script in numbers; a person signs
  up to a few tournaments an hour, and a family or a club evening behind one router fits
  within the default. The bot's sign-ups have no address: each is a Telegram account.
- **Per tournament**: at most ``TOURNAMENT_MAX_ENTRIES`` players in it (a withdrawn one
  leaves room). Past the address limit, many addresses could still fill a tournament: the
  cap bounds what its rounds must pair and seat; the default is twice the largest field
  the bench times (Swiss, 128 players).

Every refusal is a ``GameError`` (a translated message, a stable code) raised before
anything is written; an address's count moves only for a sign-up that is made.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef

from games.play.models import GameStatus, Player, Seat
from games.tournaments import errors
from games.tournaments.models import Tournament

HOUR = 3600


def played_with_people(player: Player) -> bool:
    """Whether ``player`` played a game to its end (their seat not handed to a computer, no
    forfeit) with someone else at the table."""
    other_person = Seat.objects.filter(game=OuterRef("game"), player__isnull=False).exclude(
        player=player
    )
    return (
        Seat.objects.filter(
            player=player,
            game__status=GameStatus.FINISHED,
            replaced_by_computer=False,
            forfeited=False,
        )
        .filter(Exists(other_person))
        .exists()
    )


def check_identity(player: Player) -> None:
    if player.in_telegram or played_with_people(player):
        return
    raise errors.EntryNeedsIdentity()


def check_room(tournament: Tournament) -> None:
    """Refused when the tournament holds its most players (call under its row lock, so two
    sign-ups cannot both take the last place)."""
    entered = tournament.entries.filter(withdrawn_at__isnull=True).count()
    if entered >= settings.TOURNAMENT_MAX_ENTRIES:
        raise errors.TournamentFull()


def _address_key(address: str) -> str:
    return f"tournament:signups:{address}"


@contextmanager
def address_slot(address: str | None) -> Iterator[None]:
    """One of the address's sign-ups this hour, taken for the block's sign-up and given back
    if the block fails: ``TooManySignUps`` when the address has none left. No address (the
    bot) or a limit of 0: no limit."""
    limit = settings.TOURNAMENT_SIGNUPS_PER_HOUR_PER_ADDRESS
    if not address or limit <= 0:
        yield
        return
    key = _address_key(address)
    # The window starts with the address's first sign-up and lasts an hour (a fixed
    # window: at most twice the limit across its edge, still far from a flood).
    cache.add(key, 0, HOUR)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between the two calls
        cache.set(key, 1, HOUR)
        count = 1
    if count > limit:
        _give_back(key)
        raise errors.TooManySignUps()
    try:
        yield
    except BaseException:
        _give_back(key)
        raise


def _give_back(key: str) -> None:
    with suppress(ValueError):  # the window ended meanwhile: nothing to give back
        cache.decr(key)
