"""Every way a game ends goes through here (as lichess's Finisher): a result from the
engine, or an abort with a typed reason. The game's row must be locked by the caller; what
the ending tells the rest of the system (the front-ends, the ratings) is sent after commit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.play import errors
from games.play.models import AbortReason, Game, GameStatus, MoveStatus
from games.play.result import Result
from games.play.signals import game_ended, game_updated


def finish(game: Game, result: Result, now=None) -> list[str]:
    """The engine says the game is over: store the result. Returns the fields changed."""
    game.status = GameStatus.FINISHED
    game.result = result.to_json()
    game.finished_at = now or timezone.now()
    game.deadline = None
    _announce_end(game)
    return ["status", "result", "finished_at", "deadline"]


def abort(game: Game, reason: AbortReason, note: str = "") -> None:
    """End an open game without a result; its pending moves are refused."""
    now = timezone.now()
    game.status = GameStatus.ABORTED
    game.abort_reason = AbortReason(reason)
    game.abort_note = note
    game.deadline = None
    game.finished_at = now
    game.started_at = game.started_at or now
    game.save(
        update_fields=[
            "status",
            "abort_reason",
            "abort_note",
            "deadline",
            "finished_at",
            "started_at",
        ]
    )
    game.moves.filter(status=MoveStatus.PENDING).update(
        status=MoveStatus.REJECTED, reason=str(errors.GameOver.message), processed_at=now
    )
    notify(game)
    _announce_end(game)


def notify(game: Game) -> None:
    """Tell the front-ends, after commit, that a game's lobby, seats or status changed."""
    game_id, chat_id = game.pk, game.chat_id
    transaction.on_commit(
        lambda: game_updated.send(
            sender=Game, game_id=game_id, chat_id=chat_id, version=None, events=[]
        )
    )


def _announce_end(game: Game) -> None:
    game_id, status = game.pk, game.status
    transaction.on_commit(lambda: game_ended.send(sender=Game, game_id=game_id, status=status))


def expire_lobbies() -> int:
    """Abort lobbies left open longer than ``LOBBY_TTL``. Returns how many."""
    cutoff = timezone.now() - settings.LOBBY_TTL
    expired = 0
    for game_id in Game.objects.filter(status=GameStatus.LOBBY, created_at__lt=cutoff).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.status == GameStatus.LOBBY:
                abort(game, AbortReason.EXPIRED)
                expired += 1
    return expired
