"""A chat whose Telegram messages cannot be delivered (Telegram answers slowly, then with
429 Too Many Requests) must not hold up the games of other chats: their moves are applied
as quickly as ever. Proven against real PostgreSQL, Redis and Celery worker processes
started as production starts them (one per queue the settings route tasks to), with the
tests' Bot API over HTTP (``tests.bot.telegram_http``) that the workers' bot talks to."""

from __future__ import annotations

import contextlib
import random
import time

import pytest

from bench.harness.services import queues
from games import catalog
from games.computers import act
from games.play import services
from games.play.models import Game, Move, MoveStatus
from tests.bot.telegram_http import BotApiServer, too_many_requests
from tests.factories import PlayerFactory
from tests.waiting import wait_until
from tests.workers import WorkerProcess

pytestmark = [pytest.mark.services]

TOKEN = "123456:STORM-TOKEN"
# Telegram's answer to every call for the stormy chat: late, and a 429 asking to wait.
SLOW_SECONDS = 1.0
RETRY_AFTER = 10
# A move of a calm chat is applied within this, storm or not (usually in tens of ms; the
# margin is for a loaded machine, and stays well under what the storm holds a worker).
BOUND_SECONDS = 4.0


class StormyBotApi(BotApiServer):
    """The tests' Bot API: answers at once, except for ``stormy`` chats."""

    def __init__(self):
        super().__init__(TOKEN)
        self.stormy: set[int] = set()

    def call(self, method: str, params: dict, context) -> tuple[int, dict]:
        if int(params.get("chat_id") or 0) in self.stormy:
            time.sleep(SLOW_SECONDS)
            return self.record(method, params, context, too_many_requests(RETRY_AFTER))
        return super().call(method, params, context)

    def calls_to(self, chat_id: int) -> int:
        return sum(1 for c in self.calls() if int(c.params.get("chat_id") or 0) == chat_id)


@pytest.fixture
def bot_api():
    server = StormyBotApi().start()
    yield server
    server.stop()


@pytest.fixture
def workers(postgres, redis_url, transactional_db, tmp_path, settings, bot_api):
    from config.celery import app

    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_API_URL = bot_api.url
    app.conf.task_always_eager = False
    started = []
    try:
        for queue in queues():  # production runs workers on each of them
            worker = WorkerProcess(
                log_dir=tmp_path,
                queues=[queue],
                TELEGRAM_BOT_TOKEN=TOKEN,
                TELEGRAM_API_URL=bot_api.url,
                TELEGRAM_BOT_USERNAME="catclub_storm_bot",
            )
            started.append(worker.start())
        yield started
    finally:
        bot_api.stormy.clear()
        for worker in started:
            worker.stop()
        app.conf.task_always_eager = True


def started_game(bot_api: StormyBotApi, chat_id: int, humans: int = 3):
    players = [PlayerFactory() for _ in range(humans)]
    bot_api.recorder.started.update(p.telegram_id for p in players)
    game = services.create_lobby(chat_id, "felix", players[0])
    for player in players[1:]:
        services.join(game, player)
    services.start(game, players[0])
    return game, {s.number: s.player for s in game.seats.select_related("player")}


def submit_round(game_id: int, players: dict, rng: random.Random, label: str) -> list[int]:
    """Submit the move of every seat to act; returns the moves' ids."""
    game = Game.objects.get(pk=game_id)
    rules = catalog.get(game.game_type).rules
    state = rules.load(game.state)
    strategy = catalog.get(game.game_type).strategy("heuristic")
    return [
        services.submit_move(
            game_id,
            players[seat],
            act(rules, state, seat, strategy, rng),
            f"{label}-{game.version}-{seat}",
            game.version,
        ).pk
        for seat in rules.to_act(state)
    ]


def play_one_round(game_id: int, players: dict, rng: random.Random, round_no: int) -> float:
    """Submit the move of every seat to act; return how long until they were applied."""
    started = time.monotonic()
    moves = submit_round(game_id, players, rng, f"calm{round_no}")

    def applied() -> bool:
        return not Move.objects.filter(pk__in=moves, status=MoveStatus.PENDING).exists()

    with contextlib.suppress(AssertionError):  # not applied in time: the figure tells
        wait_until(applied, timeout=3 * BOUND_SECONDS, interval=0.02)
    return time.monotonic() - started


def test_a_sync_storm_in_one_chat_does_not_delay_moves_in_another(workers, bot_api):
    rng = random.Random(7)
    calm_chat, stormy_chat = -random.randrange(10**9), -random.randrange(10**9) - 10**9
    calm, calm_players = started_game(bot_api, calm_chat)
    wait_until(lambda: bot_api.calls_to(calm_chat), timeout=30, what="the calm chat's table")
    play_one_round(calm.pk, calm_players, rng, 0)  # warm: the workers are up and serving

    bot_api.stormy.add(stormy_chat)
    stormy, stormy_players = started_game(bot_api, stormy_chat)
    wait_until(lambda: bot_api.calls_to(stormy_chat), timeout=30, what="the storm under way")
    # The stormy chat keeps changing too: each change asks for another sync.
    submit_round(stormy.pk, stormy_players, rng, "storm")

    latencies = [play_one_round(calm.pk, calm_players, rng, n) for n in range(1, 5)]

    assert bot_api.calls_to(stormy_chat) >= 1, "the stormy chat's syncs were attempted"
    assert max(latencies) <= BOUND_SECONDS, (
        f"the calm chat's moves waited {[round(s, 2) for s in latencies]} s while another"
        f" chat's syncs waited for Telegram (workers on {queues()}; with syncs and"
        " moves on one queue, a sync sleeping out a 429 holds the worker its moves need)"
    )
