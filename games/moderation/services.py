"""Moderator actions, as services: each checks the moderator's permission and its input,
does its work through ``games.play.services`` (so games change only the one way they
change),
and writes an audit record (who, what, when, why) in the same transaction.

Permissions (granted per staff account or group in the admin) live on the audit model:
``games.ban_player``, ``games.abort_game``, ``games.replace_seat``, ``games.flag_game``,
``games.adjust_letters``.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.moderation.models import ModerationAction, ModerationKind
from games.play import errors, processing, services
from games.play.models import (
    OPEN_STATUSES,
    AbortReason,
    Game,
    GameStatus,
    ModeratorMove,
    Player,
    Seat,
)
from games.play.table import Table
from games.ratings import service as ratings

log = logging.getLogger(__name__)

PERMISSIONS = {
    ModerationKind.BAN: "games.ban_player",
    ModerationKind.UNBAN: "games.ban_player",
    ModerationKind.ABORT: "games.abort_game",
    ModerationKind.SEAT_TO_COMPUTER: "games.replace_seat",
    ModerationKind.FLAG_NOT_RATED: "games.flag_game",
    ModerationKind.UNFLAG_NOT_RATED: "games.flag_game",
    ModerationKind.AWARD_LETTER: "games.adjust_letters",
    ModerationKind.REMOVE_LETTER: "games.adjust_letters",
}


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


class NotAMatch(ModerationError):
    code = "not_a_match"
    message = _("Letters exist only in running Smoking Cat matches.")


class NoLetter(ModerationError):
    code = "no_letter"
    message = _("Seat %(seat)d has no letter to remove.")


def allowed(user, kind: str) -> bool:
    return bool(user is not None and user.is_active and user.has_perm(PERMISSIONS[kind]))


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
    log.info("moderation: %s by %s (%s)", kind, entry.actor_name, reason)
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
        previous = {"reason": player.ban_reason, "until": player.banned_until}
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


# --- Smoking Cat letters (S17) -----------------------------------------------------------
def award_letter(game: Game, number: int, *, by, reason: str) -> ModerationAction:
    return _adjust_letter(game, number, ModeratorMove.AWARD_LETTER, by=by, reason=reason)


def remove_letter(game: Game, number: int, *, by, reason: str) -> ModerationAction:
    return _adjust_letter(game, number, ModeratorMove.REMOVE_LETTER, by=by, reason=reason)


def _adjust_letter(
    game: Game, number: int, move: ModeratorMove, *, by, reason: str
) -> ModerationAction:
    """S17: record a moderator's letter move; the game processor applies it (a completed
    word ends the match as usual) and the bot announces it from the move's events."""
    award = move == ModeratorMove.AWARD_LETTER
    kind = ModerationKind.AWARD_LETTER if award else ModerationKind.REMOVE_LETTER
    reason = _check(by, kind, reason)
    with transaction.atomic():
        # Moves still pending (an earlier award whose task is queued) are applied first,
        # so the letter named here is the one this move will really give or take.
        processing.process(game.pk)
        game = Game.objects.select_for_update().get(pk=game.pk)
        table = Table(game)
        if not table.takes_letters or game.status != GameStatus.RUNNING:
            raise NotAMatch()
        seat = Seat.objects.select_related("player").filter(game=game, number=number).first()
        if seat is None:
            raise errors.NotSeated()
        view = table.view(None)
        word, before = view["word"], view["letters"][number]
        if not award and not before:
            raise NoLetter(seat=number)
        letter = word[len(before)] if award else before[-1]
        recorded = services.moderator_move(game, number, move, reason)
        return _record(
            by,
            kind,
            reason,
            game=game,
            seat=number,
            player=seat.player,
            details={"letter": letter, "letters_before": before, "word": word, "move": recorded.pk},
        )
