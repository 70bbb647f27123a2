"""A tournament's game ended: its tournament takes a step in a worker. Connected by
``games.tournaments.apps``."""

from games.play.tasks import schedule
from games.tournaments.models import RoundTable
from games.tournaments.tasks import advance


def on_game_ended(sender, game_id: int, **kwargs) -> None:
    tournament_id = (
        RoundTable.objects.filter(game_id=game_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        schedule(advance, tournament_id)
