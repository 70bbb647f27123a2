"""The ratings listen to the play layer: a game that ended is decided (rated or not) in a
worker. Connected by ``games.apps``."""

from games.play.tasks import schedule
from games.ratings.tasks import rate_game


def on_game_ended(sender, game_id: int, **kwargs) -> None:
    schedule(rate_game, game_id)
