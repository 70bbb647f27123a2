"""Issue 16, operations: what the bot and the processor do shows in /metrics (taps and
their latency, Telegram calls and 429s, moves applied and refused, syncs coalesced)."""

import json
import logging
from unittest import mock

import pytest

from bot import callbacks, sync
from server import metrics
from server.logformat import JsonFormatter
from tests.bot.play import felix_table
from tests.metrics_scrape import TOKEN, scrape, value


@pytest.fixture(autouse=True)
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN
    metrics.reset_store()  # the counts of the settings in force (Redis or this process)
    yield
    metrics.reset_store()


@pytest.mark.filterwarnings("ignore:.*retry_after.*")
def test_taps_moves_telegram_calls_and_coalesced_syncs_are_counted(telegram, recorder):
    table, game, (anna, bruno, carla) = felix_table(telegram, recorder)
    before = scrape()
    recorder.fail_next("editMessageText", retry_after=1)
    for user in (anna, bruno, carla):
        table.tap(user, table.private(user), data=table.private(user).buttons[0]["callback_data"])
    (turn,) = table.to_act()
    waiting = next(u for u in (anna, bruno, carla) if table.seat_of(u) != turn)
    game.refresh_from_db()
    telegram.tap(waiting, table.private(waiting), callbacks.move(game.pk, game.version, "pass"))
    with mock.patch.object(sync.sync_game, "apply_async"):
        sync.request_sync(game.pk)  # queued: the next one rides on it
        sync.request_sync(game.pk)
    after = scrape()

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("catclub_moves_applied_total") >= 3
    assert delta("catclub_move_latency_seconds_count") == 3  # the three people's moves
    assert delta("catclub_moves_rejected_total", reason="not_your_turn") == 1
    assert delta("catclub_tap_answer_seconds_count") == 4  # every tap, refused or not
    assert delta("catclub_telegram_calls_total", method="answerCallbackQuery", outcome="ok") == 4
    assert delta("catclub_telegram_calls_total", method="editMessageText", outcome="ok") > 0
    assert (
        delta("catclub_telegram_calls_total", method="editMessageText", outcome="too_many_requests")
        == 1
    )
    assert delta("catclub_syncs_coalesced_total") == 1
    assert value(after, "catclub_up", service="database") == 1


@pytest.mark.filterwarnings("ignore:.*retry_after.*")
def test_log_lines_while_a_tap_is_handled_name_the_update_and_the_game(telegram, recorder):
    """The JSON logs: the 429 the sync meets while the tap's move is processed (all
    in-process here) is logged with the tap's update and the game."""
    table, game, (anna, *_rest) = felix_table(telegram, recorder)
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(JsonFormatter().format(record)))

    handler = Keep(level=logging.INFO)
    logger = logging.getLogger("bot.sender")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)  # whatever an earlier test's worker left the root at
    try:
        recorder.fail_next("editMessageText", retry_after=1)
        table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    (line,) = [x for x in lines if "429" in x["message"]]
    assert line["game_id"] == game.pk
    assert line["update_id"] == telegram.next_update_id() - 1
