"""``manage.py replay_game <id>``: replay a game from its moves and compare."""

from django.core.management.base import BaseCommand, CommandError

from games.play.models import Game
from games.play.replay import applied_moves, matches_stored_state


class Command(BaseCommand):
    help = "Replays a game from its applied moves and reports whether it matches the stored state."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="+", type=int)

    def handle(self, game_ids, **options):
        mismatched = []
        for game_id in game_ids:
            game = Game.objects.filter(pk=game_id).first()
            if game is None:
                raise CommandError(f"There is no game {game_id}.")
            if game.seed is None:
                self.stdout.write(f"game {game_id}: never started, nothing to replay")
                continue
            moves = len(applied_moves(game))
            if matches_stored_state(game):
                self.stdout.write(f"game {game_id}: {moves} moves replayed, state matches")
            else:
                mismatched.append(game_id)
                self.stdout.write(f"game {game_id}: {moves} moves replayed, state DIFFERS")
        if mismatched:
            raise CommandError(f"Replays differ from the stored state: {mismatched}")
