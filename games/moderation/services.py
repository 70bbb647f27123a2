"""Moderator actions, as services: each checks the moderator's permission and its input,
does its work through ``games.play.services`` (so games change only the one way they
change),
and writes an audit record (who, what, when, why) in the same transaction.

Permissions (granted per staff account or group in the admin) live on the audit model:
``games.ban_player``, ``games.abort_game``, ``games.replace_seat``, ``games.flag_game``,
and the one each game's moderator move names (``games.capabilities.ModeratorMove``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.capabilities import Refused
from games.moderation.models import ModerationAction, ModerationKind, kind_label
from games.play import errors, processing, services
from games.play.models import (
    OPEN_STATUSES,
    AbortReason,
    Game,
    GameStatus,
    Player,
    Seat,
)
from games.play.table import Table
from games.ratings import service as ratings

log = logging.getLogger(__name__)

PERMISSIONS: dict[str, str] = {
    ModerationKind.BAN: "games.ban_player",
    ModerationKind.UNBAN: "games.ban_player",
    ModerationKind.ABORT: "games.abort_game",
    ModerationKind.SEAT_TO_COMPUTER: "games.replace_seat",
    ModerationKind.FLAG_NOT_RATED: "games.flag_game",
    ModerationKind.UNFLAG_NOT_RATED: "games.flag_game",
    ModerationKind.WARN: "games.handle_cases",
    ModerationKind.RENAME: "games.handle_cases",
    ModerationKind.DISMISS: "games.handle_cases",
}


def permission(kind: str) -> str | None:
    """The permission a kind of action needs: a generic kind's, or the one a game's
    moderator move names; None for a kind nobody declares."""
    if kind in PERMISSIONS:
        return PERMISSIONS[kind]
    move = catalog.moderator_move(kind)
    return f"games.{move.permission}" if move is not None else None


class ModerationError(errors.GameError):
    code = "moderation"


class ReasonRequired(ModerationError):
    code = "reason_required"
    message = _("Give a reason: it is kept in the moderation log.")


class BanEndsInPast(ModerationError):
    code = "ban_in_past"
    message = _("A ban cannot end in the past.")


class NotBanned(ModerationError):
    code = "not_banned"
    message = _("%(player)s is not banned.")


class SeatIsComputer(ModerationError):
    code = "seat_is_computer"
    message = _("A computer already plays seat %(seat)d.")


class AlreadyFlagged(ModerationError):
    code = "already_flagged"
    message = _("Game %(game)d is already flagged as not rated.")


class NotFlagged(ModerationError):
    code = "not_flagged"
    message = _("Game %(game)d is not flagged.")


class NoSuchMove(ModerationError):
    code = "no_such_move"
    message = _("%(game)s has no such moderator move.")


class NotRunning(ModerationError):
    code = "not_running"
    message = _("Game %(game)d is not running.")


def allowed(user, kind: str) -> bool:
    needed = permission(kind)
    return bool(user is not None and user.is_active and needed and user.has_perm(needed))


def _check(user, kind: str, reason: str) -> str:
    if not allowed(user, kind):
        raise PermissionDenied(f"{getattr(user, 'username', user)!s} may not {kind}")
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired()
    return reason


def _record(user, kind: str, reason: str, **fields) -> ModerationAction:
    entry = ModerationAction.objects.create(
        kind=kind, actor=user, actor_name=user.get_username(), reason=reason, **fields
    )
    log.info("moderation: %s by %s (%s)", kind_label(kind), entry.actor_name, reason)
    return entry


# --- Players -------------------------------------------------------------------------------
def ban(player: Player, *, by, reason: str, until: datetime | None = None) -> ModerationAction:
    """Ban a player (until a time, or for good). Their taps are refused from now on
    (``services.check_not_banned``); their seats in running games go to computers and
    they leave the lobbies they sit in."""
    reason = _check(by, ModerationKind.BAN, reason)
    if until is not None and until <= timezone.now():
        raise BanEndsInPast()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        player.is_banned, player.ban_reason, player.banned_until = True, reason, until
        player.save(update_fields=["is_banned", "ban_reason", "banned_until"])
        handed, left = _remove_from_open_games(player)
        return _record(
            by,
            ModerationKind.BAN,
            reason,
            player=player,
            details={
                "until": until.isoformat() if until else None,
                "seats_to_computer": handed,
                "lobbies_left": left,
            },
        )


def _remove_from_open_games(player: Player) -> tuple[list[list[int]], list[int]]:
    handed, left = [], []
    seats = Seat.objects.filter(player=player, game__status__in=OPEN_STATUSES).select_related(
        "game"
    )
    for seat in seats:
        game = seat.game
        try:
            if game.status == GameStatus.LOBBY:
                services.leave(game, player)
                left.append(game.pk)
            elif not seat.replaced_by_computer:
                services.replace_with_computer(game, seat.number, by=services.SYSTEM)
                handed.append([game.pk, seat.number])
        except errors.GameError as exc:  # the game ended meanwhile: nothing to hand over
            log.info("ban of %s: game %s: %s", player.pk, game.pk, exc)
    return handed, left


def unban(player: Player, *, by, reason: str) -> ModerationAction:
    """Lift a ban. Seats already handed to computers stay with them."""
    reason = _check(by, ModerationKind.UNBAN, reason)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not player.is_banned:
            raise NotBanned(player=player.display_name)
        previous: dict[str, Any] = {"reason": player.ban_reason, "until": player.banned_until}
        player.is_banned, player.ban_reason, player.banned_until = False, "", None
        player.save(update_fields=["is_banned", "ban_reason", "banned_until"])
        until = previous["until"]
        return _record(
            by,
            ModerationKind.UNBAN,
            reason,
            player=player,
            details={
                "ban_reason": previous["reason"],
                "ban_until": until.isoformat() if until else None,
            },
        )


# --- Games ---------------------------------------------------------------------------------
def abort(game: Game, *, by, reason: str) -> ModerationAction:
    """Abort an open game with a reason; the bot announces it in the chat."""
    reason = _check(by, ModerationKind.ABORT, reason)
    with transaction.atomic():
        game = services.abort(game, AbortReason.MODERATOR, note=reason, by=services.SYSTEM)
        return _record(by, ModerationKind.ABORT, reason, game=game, details={"status": game.status})


def seat_to_computer(
    game: Game, number: int, *, by, reason: str, strategy: str | None = None
) -> ModerationAction:
    """Hand a player's seat to a computer for the rest of the game."""
    reason = _check(by, ModerationKind.SEAT_TO_COMPUTER, reason)
    with transaction.atomic():
        seat = Seat.objects.select_related("player").filter(game=game, number=number).first()
        if seat is None:
            raise errors.NotSeated()
        if seat.is_computer:
            raise SeatIsComputer(seat=number)
        player = seat.player
        strategy = services.replace_with_computer(
            game, number, strategy, by=services.SYSTEM
        ).strategy
        return _record(
            by,
            ModerationKind.SEAT_TO_COMPUTER,
            reason,
            game=game,
            seat=number,
            player=player,
            details={"strategy": strategy},
        )


def flag_not_rated(game: Game, *, by, reason: str) -> ModerationAction:
    """Keep a game out of ratings and standings. A game already rated is taken out of
    its scopes' histories (they are rebuilt without it)."""
    reason = _check(by, ModerationKind.FLAG_NOT_RATED, reason)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.flagged_not_rated:
            raise AlreadyFlagged(game=game.pk)
        game.flagged_not_rated, game.not_rated_reason = True, reason
        game.save(update_fields=["flagged_not_rated", "not_rated_reason", "updated_at"])
        _redecide(game)
        return _record(by, ModerationKind.FLAG_NOT_RATED, reason, game=game)


def unflag_not_rated(game: Game, *, by, reason: str) -> ModerationAction:
    """Undo a flag: the game counts again (if it otherwise qualifies)."""
    reason = _check(by, ModerationKind.UNFLAG_NOT_RATED, reason)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if not game.flagged_not_rated:
            raise NotFlagged(game=game.pk)
        previous = game.not_rated_reason
        game.flagged_not_rated, game.not_rated_reason = False, ""
        game.save(update_fields=["flagged_not_rated", "not_rated_reason", "updated_at"])
        _redecide(game)
        return _record(
            by,
            ModerationKind.UNFLAG_NOT_RATED,
            reason,
            game=game,
            details={"flag_reason": previous},
        )


def _redecide(game: Game) -> None:
    if game.status in (GameStatus.FINISHED, GameStatus.ABORTED):
        ratings.redecide(game)


# --- A game's own moves (its capabilities' ModeratorMove) ----------------------------------
def game_move(game: Game, number: int, value: str, *, by, reason: str) -> ModerationAction:
    """A moderator's move that the game declares (``GameKind.moderator_moves``), on a seat
    of a running game: recorded now, applied by the game processor (which may end the
    game), announced by the bot from the move's events. The log keeps what the move's
    ``audit`` says about it."""
    reason = _check(by, value, reason)
    with transaction.atomic():
        # Moves still pending (an earlier one whose task is queued) are applied first, so
        # the move is audited against the table it will really change.
        processing.process(game.pk)
        game = Game.objects.select_for_update().get(pk=game.pk)
        move = game.kind.moderator_move(value)
        if move is None:
            raise NoSuchMove(game=str(game.kind.name))
        if game.status != GameStatus.RUNNING:
            raise NotRunning(game=game.pk)
        seat = Seat.objects.select_related("player").filter(game=game, number=number).first()
        if seat is None:
            raise errors.NotSeated()
        try:
            details = move.audit(Table(game).view(None), number)
        except Refused as exc:  # the game's own reason why not now
            error = ModerationError(exc.message, **exc.params)
            error.code = exc.code
            raise error from exc
        recorded = services.moderator_move(game, number, value, reason)
        return _record(
            by,
            value,
            reason,
            game=game,
            seat=number,
            player=seat.player,
            details={**details, "move": recorded.pk},
        )
