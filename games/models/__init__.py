from .games import Game, GameStatus, GameType, Move, MoveSource, MoveStatus, Seat
from .leagues import League, LeagueChat
from .players import Language, Player

__all__ = [
    "Game",
    "GameStatus",
    "GameType",
    "Language",
    "League",
    "LeagueChat",
    "Move",
    "MoveSource",
    "MoveStatus",
    "Player",
    "Seat",
]
