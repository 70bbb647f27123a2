"""Running games to watch: one person and computers at a table, and that person's moves
made through the services (as a tap or a click would), for the watch and replay tests."""

from __future__ import annotations

import random

from games.play import services
from games.play.models import Game, GameStatus
from games.play.table import Table
from tests.factories import PlayerFactory
from tests.web.seed import _on_commit

# Enough computers for each game's usual table.
COMPUTERS = {"felix": 2, "smoking_cat": 3, "bon_appetit": 1, "cats_and_dogs": 2}


def running(slug: str, name: str = "Ann") -> Game:
    """A started game where one person sits with computers (who have played up to that
    person's turn)."""
    person = PlayerFactory(display_name=name)
    with _on_commit():
        game = services.create_lobby(-(4 * 10**9) - Game.objects.count(), slug, person)
        for _ in range(COMPUTERS[slug]):
            services.add_computer(game, "random", by=services.SYSTEM)
        game = services.start(game, by=services.SYSTEM)
    return Game.objects.get(pk=game.pk)


def person_moves(game: Game, n: int, seed: int = 1) -> Game:
    """The person makes ``n`` moves (whatever is legal), while the game runs."""
    rng = random.Random(seed)
    seat = game.seats.get(player__isnull=False)
    for step in range(n):
        game = Game.objects.get(pk=game.pk)
        if game.status != GameStatus.RUNNING:
            break
        legal = Table(game).legal(seat.number)
        if not legal:
            break
        with _on_commit():
            services.submit_move(
                game.pk, seat.player, rng.choice(legal), f"w{seed}-{step}", game.version
            )
    return Game.objects.get(pk=game.pk)
