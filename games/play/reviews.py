"""Post-game reviews (issue 27): made after a finished game by a task on a queue of its own
(``games.tasks.review_game``, ``REVIEWS_QUEUE``), stored (``Review``), shown with the
replay.

The judging is ``games.computers.review`` (pure): each person's decisions, replayed from
the log, searched from that seat's information state as it was. Never while the game
runs: ``make`` refuses a game that is not finished, and the replay page shows a review
only with the hands, once the game is over.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.computers.review import VERSION, Played, review_game, summary
from games.computers.search import SearchStrategy
from games.play.models import Game, GameStatus, MoveSource, Review
from games.play.processing import apply_move
from games.play.replay import applied_moves
from games.play.signals import review_stored

SEARCHING_LEVEL = "hard"


def searcher(game: Game) -> SearchStrategy | None:
    """The game's search player (its hard computer), which the review uses; None for a
    game without one (one where nobody decides anything)."""
    found = game.kind.strategies().get(SEARCHING_LEVEL)
    return found if isinstance(found, SearchStrategy) else None


def wanted(game: Game) -> bool:
    """Whether a game gets a review: finished, with a person at the table, and a searcher."""
    return (
        game.status == GameStatus.FINISHED
        and game.seats.filter(player__isnull=False).exists()
        and searcher(game) is not None
    )


def expected(game: Game) -> bool:
    """Whether a finished game's review is made or on its way (for links to it): the
    reviews are on and ``wanted`` says yes. Reads the seats through ``game.seats.all()``,
    so a caller that prefetched them pays no query."""
    return (
        settings.REVIEWS
        and game.status == GameStatus.FINISHED
        and any(seat.player_id is not None for seat in game.seats.all())
        and searcher(game) is not None
    )


def budget(game: Game, strategy: SearchStrategy, n_players: int) -> dict:
    """The review's budget: counts (deterministic), from the settings."""
    full = strategy.playouts({"n_players": n_players})
    return {
        "scale": settings.REVIEW_SCALE,
        "max_playouts": int(settings.REVIEW_MAX_DECISIONS * full),
    }


def make(game_id: int, *, force: bool = False) -> Review | None:
    """Review a finished game and store it (or return the stored one, unless ``force``
    or it was made by another version of the reviewer or with another budget)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not wanted(game):
        return None
    strategy = searcher(game)
    if strategy is None or game.seed is None:  # ``wanted`` found one; a finished game has a seed
        return None
    n = game.seats.count()
    spend = budget(game, strategy, n)
    stored = Review.objects.filter(game=game).first()
    if stored and not force and stored.version == VERSION and stored.budget == spend:
        return stored
    moves = applied_moves(game)
    played = [Played(m.seat, m.action, m.source == MoveSource.HUMAN) for m in moves]
    rules = game.kind.rules
    started = time.process_time()
    verdicts = review_game(
        rules,
        strategy,
        n,
        game.seed,
        game.options,
        played,
        scale=spend["scale"],
        max_playouts=spend["max_playouts"],
        apply=lambda state, i: apply_move(game.kind, state, moves[i]),
    )
    seconds = round(time.process_time() - started, 2)
    data = [v.to_json() for v in verdicts]
    review, _ = Review.objects.update_or_create(
        game=game,
        defaults={
            "version": VERSION,
            "budget": spend,
            "verdicts": data,
            "summary": summary(data, n),
            "seconds": seconds,
        },
    )
    # The game's change token moves with its ``updated_at``: a page following the game
    # hears of the review as of any change, and shows it then.
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now())
    transaction.on_commit(lambda: review_stored.send(sender=Game, game_id=game.pk))
    return review


def stored(game: Game) -> Review | None:
    """A finished game's stored review (None: not made, or not yet). A caller that read
    the game with ``select_related("review")`` pays no query."""
    if game.status != GameStatus.FINISHED:
        return None
    try:
        return game.review
    except Review.DoesNotExist:
        return None
