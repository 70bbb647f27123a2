"""The ``games`` app's models, gathered for Django's app registry and migrations.

Code imports a model from the package it belongs to (``games.play.models``,
``games.leagues.models``…): this module sits above every layer and nothing below the
front-ends imports it.
"""

from games.leagues.models import League, LeagueChat, LeagueMember, Season
from games.moderation.models import Case, ModerationAction, ModerationKind, Report
from games.play.models import (
    AbortReason,
    Game,
    GameStatus,
    Move,
    MoveSource,
    MoveStatus,
    Player,
    Review,
    Seat,
)
from games.ratings.models import RatedGame, Rating, RatingChange

__all__ = [
    "AbortReason",
    "Case",
    "Game",
    "GameStatus",
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
    "Report",
    "Review",
    "Season",
    "Seat",
]
