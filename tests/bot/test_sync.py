"""Syncing: triggers collapse, unchanged messages are not edited, blocked players."""

import contextlib
import secrets
from unittest import mock

import pytest
from django.utils import timezone

from bot import sender, sync
from bot.models import SeatMessage
from bot.tasks import sync_game
from games.play.models import Player
from games.play.signals import game_updated
from tests.bot.play import felix_table


def test_ten_triggers_queue_one_sync_and_one_edit(telegram, recorder):
    table, game, users = felix_table(telegram, recorder)
    with mock.patch.object(sync_game, "apply_async") as queued:
        for _ in range(10):
            game_updated.send(
                sender=None, game_id=game.pk, chat_id=game.chat_id, version=None, events=[]
            )
        # Three moves while the sync waits in the queue.
        for user in users:
            table.tap(
                user, table.private(user), data=table.private(user).buttons[0]["callback_data"]
            )
    assert queued.call_count == 1
    before = len(recorder.sent(table.chat_id, "editMessageText"))
    sync.sync_game(game.pk)
    assert len(recorder.sent(table.chat_id, "editMessageText")) == before + 1


def test_a_sync_with_nothing_new_sends_nothing(telegram, recorder, monkeypatch):
    _table, game, _users = felix_table(telegram, recorder)
    calls = len(recorder.calls)
    sync.sync_game(game.pk)
    # Time passing alone changes only the countdown: still no edit.
    later = timezone.now() + timezone.timedelta(seconds=30)
    monkeypatch.setattr("bot.screens.timezone.now", lambda: later)
    sync.sync_game(game.pk)
    assert len(recorder.calls) == calls


def test_a_private_message_deleted_by_the_player_is_sent_again(telegram, recorder):
    table, game, (anna, *_) = felix_table(telegram, recorder)
    row = SeatMessage.objects.get(game=game, player__telegram_id=anna.id)
    recorder.messages[(anna.id, row.message_id)].deleted = True
    SeatMessage.objects.filter(pk=row.pk).update(text_hash="")
    sync.sync_game(game.pk)
    assert SeatMessage.objects.get(pk=row.pk).message_id != row.message_id
    assert "Your hand" in table.private(anna).text


def test_a_player_who_blocks_the_bot_is_marked_unreachable_and_the_group_told(telegram, recorder):
    table, _game, (anna, bruno, carla) = felix_table(telegram, recorder)
    recorder.blocked.add(bruno.id)
    table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
    assert not Player.objects.get(telegram_id=bruno.id).reachable
    warnings = [c for c in recorder.sent(table.chat_id, "sendMessage") if "⚠️" in c.text]
    assert len(warnings) == 1 and "Bruno" in warnings[0].text
    # Later syncs neither retry nor repeat the warning; Start brings the cards back.
    table.tap(carla, table.private(carla), data=table.private(carla).buttons[0]["callback_data"])
    assert len([c for c in recorder.sent(table.chat_id, "sendMessage") if "⚠️" in c.text]) == 1
    bruno.start_bot()
    assert Player.objects.get(telegram_id=bruno.id).reachable
    assert "Your hand" in table.private(bruno).text


def test_nothing_is_synced_without_a_bot_token(settings, recorder, transactional_db):
    from tests.factories import GameFactory

    settings.TELEGRAM_BOT_TOKEN = ""
    game = GameFactory()
    game_updated.send(sender=None, game_id=game.pk, chat_id=game.chat_id, version=None, events=[])
    assert recorder.calls == []


def test_a_new_turn_comes_as_a_new_private_message_and_replaces_the_old(telegram, recorder):
    table, game, users = felix_table(telegram, recorder)
    # The first bidder places first, so that the auction is a new turn for them.
    first = game.state["first"]
    users.sort(key=lambda u: table.seat_of(u) != first)
    for user in users:
        table.tap(user, table.private(user), data=table.private(user).buttons[0]["callback_data"])
    (turn,) = table.to_act()
    mover = next(u for u in users if table.seat_of(u) == turn)
    assert table.seat_of(mover) == first
    sends = recorder.sent(mover.id, "sendMessage")
    assert "Bid" in " ".join(b["text"] for b in table.private(mover).buttons)
    assert sends[-1].result["message_id"] == table.private(mover).message_id
    assert len([m for m in recorder.screen(mover.id) if "Felix" in m.text]) == 1
    assert recorder.sent(mover.id, "deleteMessage")


def test_a_sync_lost_with_its_worker_is_recovered_once_the_lock_lapses(telegram, recorder):
    """A worker died mid-sync, holding the lock: later syncs of the game step aside, then
    ``recover`` finds the change nobody rendered and syncs it."""
    from bot.tasks import recover_syncs

    cache = sync.cache

    table, game, (anna, *_rest) = felix_table(telegram, recorder)
    assert recover_syncs() == 0  # every change so far was rendered
    _want, _queued, lock, _done = sync._keys(game.pk)
    cache.set(lock, "a dead worker's token", timeout=sync.LOCK_TTL)
    edits = len(recorder.sent(table.chat_id, "editMessageText"))
    table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
    assert len(recorder.sent(table.chat_id, "editMessageText")) == edits  # stepped aside
    assert recover_syncs() == 0  # the lock has not lapsed: the holder may still be alive

    cache.delete(lock)  # LOCK_TTL passed without a keepalive
    assert recover_syncs() == 1
    assert len(recorder.sent(table.chat_id, "editMessageText")) == edits + 1
    assert "Anna" in recorder.last(table.chat_id).text
    assert recover_syncs() == 0


def test_recover_leaves_browser_tables_alone(telegram, recorder, transactional_db):
    """Issue 25: a browser table has no Telegram message, yet ``recover`` queued a sync of
    every new one (the cache knew nothing of it), each building a Bot API client to find
    nothing to do: under the abuse bench, the Telegram worker's whole load."""
    from bot.tasks import recover_syncs
    from tests.factories import RunningGameFactory

    RunningGameFactory(chat_id=None)
    group = RunningGameFactory()
    with mock.patch.object(sync_game, "apply_async") as queued:
        assert recover_syncs() == 1
    assert [c.args[0] for c in queued.call_args_list] == [(group.pk,)]


def test_games_a_restarted_redis_forgot_are_synced_again(telegram, recorder):
    """Redis came back empty: the sync queued for a move was lost with it, and the cache no
    longer knows that the game changed. ``recover`` syncs every game it knows nothing of,
    once, and the table catches up (found by ``bench soak``)."""
    from bot.tasks import recover_syncs

    cache = sync.cache  # the shared cache, where the sync's keys live

    def shown_version() -> int:
        return recorder.sent(table.chat_id)[-1].context["version"]

    table, game, (anna, *_rest) = felix_table(telegram, recorder)
    sync_game = sync.sync_game.run
    sync.sync_game.run = lambda game_id: None  # the queued sync is lost with Redis
    try:
        table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
    finally:
        sync.sync_game.run = sync_game
    game.refresh_from_db()
    assert shown_version() < game.version  # the table is behind
    cache.delete_many(list(sync._keys(game.pk)))  # Redis restarted: nothing of it is left
    assert recover_syncs() == 1
    assert shown_version() == game.version
    assert recover_syncs() == 0  # once: the cache knows the game again


@pytest.mark.filterwarnings("ignore:.*retry_after.*")  # PTB 22's own notice about int/timedelta
def test_a_sync_keeps_its_lock_alive_through_a_long_429(telegram, recorder, clock, monkeypatch):
    cache = sync.cache

    table, game, (anna, *_rest) = felix_table(telegram, recorder)
    _want, _queued, lock, _done = sync._keys(game.pk)
    touched = []
    real_touch = cache.touch
    monkeypatch.setattr(
        cache, "touch", lambda key, timeout=None: touched.append(key) or real_touch(key, timeout)
    )
    recorder.fail_next("editMessageText", retry_after=45)
    table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
    assert [s for s in clock.slept if s >= 5] == [20, 20, 5]  # the 45 s, sliced
    # Touched before each call and after each slice, never left a whole LOCK_TTL untouched.
    assert touched.count(lock) >= 5
    assert all(s < sync.LOCK_TTL for s in clock.slept)


@contextlib.contextmanager
def as_in_a_worker():
    """Tasks are not run in-process: a sync may queue itself for later."""
    sync_game.app.conf.task_always_eager = False
    try:
        yield
    finally:
        sync_game.app.conf.task_always_eager = True


@pytest.mark.filterwarnings("ignore:.*retry_after.*")  # PTB 22's own notice about int/timedelta
def test_a_long_429_queues_the_sync_for_later_instead_of_sleeping_in_the_worker(
    telegram, recorder, clock
):
    """Issue 16: a 429 with retry_after=30 frees the worker at once; the sync is queued
    with that countdown, and triggers meanwhile collapse into it (nothing is lost)."""
    table, game, (anna, *_rest) = felix_table(telegram, recorder)
    with mock.patch.object(sync_game, "apply_async") as queued:
        table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
        assert queued.call_count == 1  # the tap's sync, waiting in the queue
        recorder.fail_next("editMessageText", retry_after=30)
        with as_in_a_worker():
            sync.sync_game(game.pk)
        assert not [s for s in clock.slept if s > sender.DEFER_AFTER], "no long sleep"
        assert queued.call_count == 2
        assert queued.call_args.kwargs["countdown"] == 30
        # More changes before the countdown is up ride on the sync already queued.
        sync.request_sync(game.pk)
        sync.request_sync(game.pk)
        assert queued.call_count == 2
        assert sync.recover_syncs() == 0  # queued, so not lost: recover leaves it alone
        # A sync queued earlier that runs now does not ask Telegram again: it waits too.
        calls = len(recorder.calls)
        with as_in_a_worker():
            sync.sync_game(game.pk)
        assert len(recorder.calls) == calls
        assert queued.call_count == 3
        assert 29 < queued.call_args.kwargs["countdown"] <= 30

    sync.cache.delete(sync._not_before_key(game.pk))  # the 30 s are over
    sync.sync_game(game.pk)
    assert "Anna" in recorder.last(table.chat_id).text
    assert sync.recover_syncs() == 0  # every change rendered


def test_a_sync_stopped_by_its_time_limit_is_queued_again(telegram, recorder, monkeypatch):
    """Issue 16: the soft time limit stops a sync stuck in a call; its lock is released
    and it is queued again at once instead of waiting for ``recover``."""
    from celery.exceptions import SoftTimeLimitExceeded

    cache = sync.cache

    table, game, (anna, *_rest) = felix_table(telegram, recorder)
    with mock.patch.object(sync_game, "apply_async") as queued:
        table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
        cache.delete(sync._keys(game.pk)[1])  # the task is being run now

        def stuck(*args, **kwargs):
            raise SoftTimeLimitExceeded()

        monkeypatch.setattr(sync.Syncer, "run", stuck)
        with pytest.raises(SoftTimeLimitExceeded):
            sync.sync_game(game.pk)
        assert queued.call_count == 2
        assert cache.get(sync._keys(game.pk)[2]) is None, "the lock is released"


def hold_the_lock_in_another_process(game_id: int, hold: bool) -> None:
    """Another process (the site's, when the bot is this one) takes or drops a game's
    sync lock through the shared cache: the same database or Redis as this one's."""
    import os
    import subprocess
    import sys

    from django.conf import settings
    from django.db import connection

    from bot import cachekeys
    from tests.workers import ROOT, test_database_url

    database = (
        f"sqlite:///{connection.settings_dict['NAME']}"
        if connection.vendor == "sqlite"
        else test_database_url()
    )
    code = (
        "import sys, django; django.setup(); from bot import cachekeys, sync;"
        "cachekeys.NAMESPACE = sys.argv[1]; lock = sync._keys(int(sys.argv[2]))[2];"
        "assert sync.cache.add(lock, 'other', 60) if sys.argv[3] == '1' else"
        " sync.cache.delete(lock) is not None"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database,
        "REDIS_URL": settings.REDIS_URL,
    }
    subprocess.run(
        [sys.executable, "-c", code, cachekeys.NAMESPACE, str(game_id), "1" if hold else "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def test_a_sync_running_in_another_process_holds_the_game(telegram, recorder):
    """Issue 16: the site and the bot are separate processes on the embedded default
    (SQLite, tasks in-process, no Redis); the lock of a game's sync is theirs to share,
    so one never edits the messages the other is editing."""
    from bot.tasks import recover_syncs

    table, game, (anna, *_rest) = felix_table(telegram, recorder)
    hold_the_lock_in_another_process(game.pk, hold=True)
    edits = len(recorder.sent(table.chat_id, "editMessageText"))
    table.tap(anna, table.private(anna), data=table.private(anna).buttons[0]["callback_data"])
    assert len(recorder.sent(table.chat_id, "editMessageText")) == edits  # stepped aside
    hold_the_lock_in_another_process(game.pk, hold=False)
    assert recover_syncs() == 1
    assert "Anna" in recorder.last(table.chat_id).text


def test_a_browser_table_of_a_telegram_player_has_no_telegram_messages(telegram, recorder):
    """A Telegram player at a browser table (through the Mini App) changes language: their
    open games are redrawn in Telegram, but a browser table has nothing there to redraw
    (issue 25's abuse bench found syncs failing on such tables)."""
    from bot.models import GameMessages
    from games.play import services

    tina = services.player_from_telegram(4242, "Tina", "", "it")
    game = services.create_lobby(None, "felix", tina)
    services.add_computer(game, by=tina)
    recorder.calls.clear()
    sync.request_sync_for_player(tina)
    sync_game(game.pk)
    assert not GameMessages.objects.filter(game=game).exists()
    assert recorder.calls == []
