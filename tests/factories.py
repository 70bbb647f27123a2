"""factory_boy factories for the domain models."""

import factory
from django.utils import timezone

from games.leagues.models import League
from games.play.models import Game, GameStatus, Move, Player, Seat


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    telegram_id = factory.Sequence(lambda n: 100_000 + n)
    display_name = factory.Sequence(lambda n: f"Player {n}")
    username = factory.Sequence(lambda n: f"player{n}")
    reachable = True


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    game_type = "felix"
    chat_id = factory.Sequence(lambda n: -1_000_000 - n)


class RunningGameFactory(GameFactory):
    status = GameStatus.RUNNING
    started_at = factory.LazyFunction(timezone.now)
    seed = 1


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    number = factory.Sequence(lambda n: n)
    player = factory.SubFactory(PlayerFactory)


class MoveFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Move

    game = factory.SubFactory(RunningGameFactory)
    key = factory.Sequence(lambda n: f"k{n}")
    seat = 0
    action = "pass"
