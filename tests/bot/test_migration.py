"""A group upgraded to a supergroup gets a new chat id: its games, league link and
settings follow it, and play goes on there."""

from django.utils import timezone

from bot import sync
from bot.models import ChatSettings, GameMessages
from bot.render.lobby import lobby
from games.leagues.models import League, LeagueChat
from games.leagues.services import link_chat
from games.play import services
from games.play.models import Game, GameStatus
from tests.bot.play import felix_table

OLD, NEW = -4_001, -100_4_001


def running_felix(telegram, recorder):
    return felix_table(telegram, recorder, telegram.basic_group(OLD))


def play_one_card(table, user):
    private = table.private(user)
    table.tap(user, private, data=table.buttons(private)[0]["callback_data"])


def test_the_announced_move_takes_games_league_and_settings_along(telegram, recorder):
    table, game, (anna, bruno, carla) = running_felix(telegram, recorder)
    league = League.objects.create(name="Roma", slug="roma")
    link_chat(OLD, league, "Cat lovers")
    ChatSettings.objects.update_or_create(chat_id=OLD, defaults={"language": "it"})

    supergroup = telegram.upgrade(table.group, NEW, anna)

    assert Game.objects.get(pk=game.pk).chat_id == NEW
    assert LeagueChat.objects.get(league=league).chat_id == NEW
    assert ChatSettings.objects.get(chat_id=NEW).language == "it"
    assert not ChatSettings.objects.filter(chat_id=OLD).exists()
    # The table is posted anew in the supergroup, in the group's language, and play goes on.
    table.group = supergroup
    posted = recorder.sent(NEW, "sendMessage")
    assert len(posted) == 1 and "Felix" in posted[0].text and "turno 1/9" in posted[0].text
    for user in (anna, bruno, carla):
        play_one_card(table, user)
    assert Game.objects.get(pk=game.pk).version >= 3
    assert recorder.sent(NEW, "editMessageText")
    # Nothing is ever sent to the old id again.
    assert not [c for c in recorder.calls if c.chat_id == OLD and not c.ok]


def test_a_missed_announcement_is_caught_by_the_next_message(telegram, recorder):
    """The bot may miss both service messages (downtime, privacy settings): Telegram's
    answer to the old id (``migrate_to_chat_id``) moves the chat instead."""
    table, game, (anna, *_others) = running_felix(telegram, recorder)
    telegram.upgrade(table.group, NEW, anna, announce=(False, False))

    play_one_card(table, anna)  # the sync edits the table in the old chat: refused

    assert Game.objects.get(pk=game.pk).chat_id == NEW
    assert GameMessages.objects.get(game=game).chat_id == NEW
    tables = [c for c in recorder.sent(NEW, "sendMessage") if "Felix" in c.text]
    assert len(tables) == 1
    assert GameMessages.objects.get(game=game).table_message_id == tables[0].result["message_id"]


def test_both_announcements_and_redeliveries_move_once(telegram, recorder):
    table, game, (anna, *_rest) = running_felix(telegram, recorder)
    supergroup = telegram.upgrade(table.group, NEW, anna)
    before = len(recorder.sent(NEW, "sendMessage"))
    redelivered = [
        telegram.service_update(anna, table.group, migrate_to_chat_id=NEW),
        telegram.service_update(anna, supergroup, migrate_from_chat_id=OLD),
    ]
    for update in redelivered:
        telegram.deliver(update)
    sync.sync_game(game.pk)
    assert Game.objects.get(pk=game.pk).chat_id == NEW
    assert len(recorder.sent(NEW, "sendMessage")) == before  # no second table


def test_an_open_game_already_in_the_new_chat_stands(db):
    """Someone started a game in the supergroup before the move was announced: that game
    stands, the old group's open game is closed, finished games move along."""
    from tests.factories import GameFactory, PlayerFactory

    creator = PlayerFactory()
    now = timezone.now()
    finished = GameFactory(chat_id=OLD, status=GameStatus.FINISHED, started_at=now, finished_at=now)
    old_open = services.create_lobby(OLD, "felix", creator)
    new_open = services.create_lobby(NEW, "felix", PlayerFactory())

    assert services.move_chat(OLD, NEW) == []

    old_open.refresh_from_db()
    assert old_open.status == GameStatus.ABORTED and old_open.chat_id == NEW
    text, rows = lobby(old_open, [], "")
    assert "supergroup" in text and "goes on" in text and rows == []
    assert Game.objects.get(pk=finished.pk).chat_id == NEW
    assert services.open_game(NEW) == new_open
    assert services.move_chat(OLD, NEW) == []  # nothing left to move
