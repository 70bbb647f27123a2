from .games import Game, GameStatus, GameType, Move, MoveSource, MoveStatus, Seat
from .leagues import League, LeagueChat, LeagueMember, Season
from .moderation import ModerationAction, ModerationKind
from .players import Language, Player
from .ratings import RatedGame, Rating, RatingChange

__all__ = [
    "Game",
    "GameStatus",
    "GameType",
    "Language",
    "League",
    "LeagueChat",
    "LeagueMember",
    "ModerationAction",
    "ModerationKind",
    "Move",
    "MoveSource",
    "MoveStatus",
    "Player",
    "RatedGame",
    "Rating",
    "RatingChange",
    "Season",
    "Seat",
]
