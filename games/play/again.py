""" "Play again" at the end of a table (issue 45): the same game at the same seats, its
people and its computers at their levels, in a new table.

The first person to ask opens it; alone with computers, it starts at once. With other
people it waits in the lobby for them: each of them who asks is seated at that same new
table (found under the old one in the ``shared`` cache), and its creator starts it.
"""

from __future__ import annotations

from django.core.cache import caches
from django.db import transaction

from games.play import errors, services
from games.play.models import Game, GameStatus, Player

# A new table is found by the old one's people for as long as a lobby waits for them.
FOUND_SECONDS = 3600
ENDED = (GameStatus.FINISHED, GameStatus.ABORTED)


def _key(game_id: int) -> str:
    return f"again:{game_id}"


def offered(game: Game) -> bool:
    """Whether the table's end offers it: a table in the browser (a chat's game is played
    again in the chat) that has ended."""
    return game.chat_id is None and game.status in ENDED


def play_again(game: Game, by: Player) -> Game:
    """The new table of ``game`` for ``by``, who sat at it: opened (and started, when
    ``by`` is its only person), or joined when another of its people opened it."""
    if not offered(game):
        raise errors.GameError()
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    if not any(s.player_id == by.pk for s in seats):
        raise errors.GameError()
    with transaction.atomic():
        # Two people asking at once: the second waits here and finds the first's table.
        Game.objects.select_for_update().filter(pk=game.pk).first()
        found_id = caches["shared"].get(_key(game.pk))
        found = Game.objects.filter(pk=found_id, status=GameStatus.LOBBY).first()
        if found is not None:
            if not found.seats.filter(player=by).exists():
                services.join(found, by, invite=found.invite)
            return found
        new = services.create_lobby(
            None,
            game.game_type,
            by,
            league=game.league,
            options=game.options,
            turn_seconds=game.turn_seconds,
            auto_play=game.auto_play,
        )
        for seat in seats:
            if seat.player_id is None:
                services.add_computer(new, seat.strategy, by=by)
        if sum(1 for s in seats if s.player_id is not None) == 1:
            return services.start(new, by=by)
        caches["shared"].set(_key(game.pk), new.pk, FOUND_SECONDS)
    return new
