"""A chat whose Telegram messages cannot be delivered (Telegram answers slowly, then with
429 Too Many Requests) must not hold up the games of other chats: their moves are applied
as quickly as ever. Proven against real PostgreSQL, Redis and Celery worker processes
started as production starts them (one per queue the settings route tasks to), with a
fake Bot API over HTTP that the workers' bot talks to."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import pytest

from bench.soak_services import queues
from games import catalog
from games.computers import act
from games.play import services
from games.play.models import Game, Move, MoveStatus
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


class FakeBotApi(ThreadingHTTPServer):
    """The Bot API: answers at once, except for ``stormy`` chats."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.calls: list[int] = []  # the chat of every call, in order
        self.stormy: set[int] = set()
        self.next_id = 100

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/bot"

    def calls_to(self, chat_id: int) -> int:
        with self.lock:
            return self.calls.count(chat_id)


class Handler(BaseHTTPRequestHandler):
    server: FakeBotApi

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        if self.headers.get("Content-Type", "").startswith("application/json"):
            params = json.loads(body or "{}")
        else:
            params = {k: v[0] for k, v in parse_qs(body).items()}
        method = self.path.rpartition("/")[2]
        chat_id = int(params.get("chat_id") or 0)
        with self.server.lock:
            self.server.calls.append(chat_id)
            stormy = chat_id in self.server.stormy
            self.server.next_id += 1
            message_id = self.server.next_id
        if stormy:
            time.sleep(SLOW_SECONDS)
            return self.reply(
                429,
                {
                    "ok": False,
                    "error_code": 429,
                    "description": f"Too Many Requests: retry after {RETRY_AFTER}",
                    "parameters": {"retry_after": RETRY_AFTER},
                },
            )
        result: object = True
        if method in ("sendMessage", "editMessageText"):
            chat = {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"}
            result = {"message_id": message_id, "date": int(time.time()), "chat": chat}
        self.reply(200, {"ok": True, "result": result})

    def reply(self, status: int, payload: dict):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def bot_api():
    server = FakeBotApi()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


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


def started_game(chat_id: int, game_type: str = "felix", humans: int = 3):
    players = [PlayerFactory() for _ in range(humans)]
    game = services.create_lobby(chat_id, game_type, players[0])
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
    calm, calm_players = started_game(calm_chat)
    wait_until(lambda: bot_api.calls_to(calm_chat), timeout=30, what="the calm chat's table")
    play_one_round(calm.pk, calm_players, rng, 0)  # warm: the workers are up and serving

    bot_api.stormy.add(stormy_chat)
    stormy, stormy_players = started_game(stormy_chat)
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
