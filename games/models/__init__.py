from .games import Game, GameStatus, GameType, Move, MoveSource, MoveStatus, Seat
from .leagues import League
from .players import Language, Player

__all__ = [
    "Game",
    "GameStatus",
    "GameType",
    "Language",
    "League",
    "Move",
    "MoveSource",
    "MoveStatus",
    "Player",
    "Seat",
]
