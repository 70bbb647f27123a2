"""Helpers for the tournament tests (issue 26): a league's tournament with entrants, and a
round's games played to their end by random legal moves through ``submit_move``."""

from __future__ import annotations

import random
from datetime import timedelta

from django.test import TestCase
from django.utils import timezone

from games.play import services, tasks
from games.play.models import Game, GameStatus, Player, Seat
from games.play.table import Table
from games.tournaments import entries
from games.tournaments.models import Format, Tournament
from tests.factories import GameFactory, LeagueFactory, PlayerFactory, SeatFactory


def tournament(n_players=0, *, league=None, **fields) -> tuple[Tournament, list]:
    fields.setdefault("name", "Spring open")
    fields.setdefault("game_type", "felix")
    fields.setdefault("format", Format.SWISS)
    fields.setdefault("round_count", 2)
    fields.setdefault("table_size", 4)
    fields.setdefault("starts_at", timezone.now() - timedelta(minutes=1))
    t = Tournament.objects.create(league=league or LeagueFactory(), **fields)
    people = [PlayerFactory() for _ in range(n_players)]
    for player in people:
        entries.sign_up(t, player)
    return t, people


def finished_with_people(player: Player, *others: Player, computers: int = 0) -> Game:
    """A game ``player`` finished at a table with ``others`` (a new Telegram player when
    none is given) and ``computers``: what lets a browser guest enter a tournament (issue
    46)."""
    now = timezone.now()
    game = GameFactory(status=GameStatus.FINISHED, started_at=now, finished_at=now, chat_id=None)
    people = [player, *(others or [PlayerFactory()])]
    for number, person in enumerate(people):
        SeatFactory(game=game, number=number, player=person)
    for number in range(len(people), len(people) + computers):
        SeatFactory(game=game, number=number, player=None, strategy="random")
    return game


def after_commit(fn, *args, **kwargs):
    """Run ``fn`` and the work it queues after commit (tasks run eagerly in tests)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return fn(*args, **kwargs)


def play_out(game_id: int, rng: random.Random, limit: int = 3000) -> Game:
    """Play a game to its end with random legal moves of its players."""
    for step in range(limit):
        game = Game.objects.get(pk=game_id)
        if game.status != GameStatus.RUNNING:
            return game
        table = Table(game)
        # A seat a computer took over is the processor's to play, not its old player's.
        people = set(
            Seat.objects.filter(
                game=game, replaced_by_computer=False, player__isnull=False
            ).values_list("number", flat=True)
        )
        acting = [s for s in table.to_act() if s in people and table.legal(s)]
        if not acting:
            after_commit(tasks.enqueue, game_id)  # a computer's or the table's turn
            continue
        number = acting[0]
        seat = Seat.objects.select_related("player").get(game=game, number=number)
        action = rng.choice(table.legal(number))
        after_commit(
            services.submit_move,
            game_id,
            seat.player,
            action,
            key=f"t{game_id}-{step}",
            seen_version=game.version,
        )
    raise AssertionError(f"game {game_id} did not end in {limit} moves")
