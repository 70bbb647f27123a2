"""``manage.py demo``: a demo league with a season of games, played through the real
services, so that a fresh install has standings, profiles, replays and a game to watch.

Demo players are browser players (no Telegram account) whose moves are chosen by the
everyday computer strategy from their own seat's view and submitted like anyone's. With
``--live`` the command then keeps one game going at a person's pace, to watch live.
"""

from __future__ import annotations

import random
import time
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from games import catalog
from games.leagues.models import DEMO_DESCRIPTION, League, LeagueMember, Season, year_name
from games.play import services
from games.play.models import Game, GameStatus, Player
from games.play.table import Table
from server import background

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia"]
DEMO_SLUG = "demo"


class Command(BaseCommand):
    help = "Fill a demo league with a season of games played by demo players."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=24, help="finished games to play")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--live", action="store_true", help="then keep a game going, a move every few s"
        )
        parser.add_argument("--pace", type=float, default=2.0, help="seconds per live move")

    def handle(self, games, seed, live, pace, **options):
        rng = random.Random(seed)
        league, players = demo_league()
        finished = Game.objects.filter(league=league, status=GameStatus.FINISHED).count()
        # Each move is processed before the next is chosen from the table it left.
        todo = max(0, games - finished)
        if todo:
            self.stdout.write(f"Demo: playing {todo} games in the demo league…")
        with background.synchronous():
            for n in range(1, todo + 1):
                play_to_the_end(new_game(league, players, rng), rng)
                self.stdout.write(f"Demo: {n} of {todo} games played (and reviewed).")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo league '{league.name}': "
                f"{Game.objects.filter(league=league, status=GameStatus.FINISHED).count()}"
                " finished games."
            )
        )
        if live:
            keep_one_game_going(league, players, rng, pace)


def demo_league() -> tuple[League, list[Player]]:
    with transaction.atomic():
        league, _created = League.objects.get_or_create(
            slug=DEMO_SLUG,
            defaults={
                "name": "Demo league",
                "description": DEMO_DESCRIPTION,
                "word": "GATTO",
            },
        )
        today = timezone.localdate()
        Season.objects.get_or_create(
            league=league,
            name=year_name(today.year),
            defaults={"starts_on": today - timedelta(days=30)},
        )
        players = []
        for name in NAMES:
            player = Player.objects.filter(telegram_id=None, display_name=name).first()
            players.append(player or Player.objects.create(display_name=name))
        LeagueMember.objects.bulk_create(
            [LeagueMember(league=league, player=p) for p in players], ignore_conflicts=True
        )
    return league, players


def new_game(league: League, players: list[Player], rng: random.Random) -> Game:
    kind = rng.choice(catalog.all_games())
    n = rng.randint(kind.min_players, min(kind.max_players, 4))
    seated = rng.sample(players, n)
    game = services.create_lobby(None, kind.slug, seated[0], league=league)
    for player in seated[1:]:
        services.join(game, player, invite=game.invite)
    return services.start(game, by=seated[0])


def play_one_move(game: Game, rng: random.Random) -> bool:
    """The demo player whose turn it is moves (as a person would, from their own view).
    Returns False once the game is over."""
    game.refresh_from_db()
    if game.status != GameStatus.RUNNING:
        return False
    table = Table(game)
    seats = {s.number: s for s in game.seats.select_related("player")}
    for number in table.to_act():
        seat = seats[number]
        if seat.is_computer:
            continue
        strategy = game.kind.strategy(game.kind.default_strategy)
        action = strategy.choose(table.view(number), table.legal(number), rng)
        key = f"demo:{game.version}:{number}"
        services.submit_move(game.pk, seat.player, action, key, game.version)
        return True
    return True  # computers are on it; the processor plays them


def play_to_the_end(game: Game, rng: random.Random, limit: int = 20_000) -> Game:
    for _step in range(limit):
        if not play_one_move(game, rng):
            break
    return game


def keep_one_game_going(league: League, players: list[Player], rng: random.Random, pace: float):
    game = Game.objects.filter(league=league, status=GameStatus.RUNNING).first()
    while True:
        if game is None or not play_one_move(game, rng):
            game = new_game(league, players, rng)
        time.sleep(pace)
