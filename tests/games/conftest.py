import pytest

from games.play import services
from tests.factories import PlayerFactory


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """Run a block and then its after-commit callbacks (queued tasks run in-process)."""

    class Runner:
        def __call__(self, fn, *args, **kwargs):
            with django_capture_on_commit_callbacks(execute=True):
                return fn(*args, **kwargs)

    return Runner()


@pytest.fixture
def lobby(db):
    """A factory of lobbies: ``lobby("felix", humans=2, computers=1)``."""

    def make(game_type, humans=1, computers=0, chat_id=-100, **kwargs):
        players = [PlayerFactory() for _ in range(humans)]
        game = services.create_lobby(chat_id, game_type, players[0], **kwargs)
        for player in players[1:]:
            services.join(game, player)
        for _ in range(computers):
            services.add_computer(game, by=services.SYSTEM)
        return game, players

    return make
