"""/help /rules /stats /standings /lang /settings and the command list."""

import asyncio
import json

import pytest
from django.core.management import call_command

from bot.application import build_application, on_startup
from bot.models import ChatSettings
from games.leagues.models import League
from games.leagues.services import link_chat
from games.play.models import Player
from tests.bot.telegram_fake import Recorder


def test_help_lists_the_commands(telegram, recorder):
    anna = telegram.user("Anna")
    anna.say(telegram.private(anna), "/help")
    text = recorder.last(anna.id).text
    for command in ("/new", "/rules", "/stats", "/standings", "/lang", "/settings"):
        assert command in text


def test_rules_of_one_game_or_a_picker(telegram, recorder):
    group = telegram.group()
    anna = telegram.user("Anna")
    anna.say(group, "/rules felix")
    assert "mice" in recorder.last(group["id"]).text
    anna.say(group, "/rules")
    picker = recorder.last(group["id"])
    anna.tap(picker, data="r:smoking_cat")
    assert "17" in picker.text  # the picker became the rules


def test_start_in_private_makes_the_player_reachable(telegram, recorder):
    anna = telegram.user("Anna", "pt")
    anna.start_bot()
    player = Player.objects.get(telegram_id=anna.id)
    assert player.reachable and player.language == "pt"


def test_stats_counts_finished_games_and_wins(telegram, recorder):
    from tests.bot.play import Table, play_out_automatic_moves
    from tests.bot.test_game_bon_appetit import flip_button

    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    recorder.admins[group["id"]] = {anna.id}
    anna.say(group, "/settings")
    table = Table(telegram, recorder, group, [anna, bruno])
    table.tap(anna, recorder.last(group["id"]), data="s:flip:1")
    # With automatic flipping, the game plays itself out once it starts.
    anna.say(group, "/new bon_appetit")
    table.tap(bruno, table.lobby(), "Join")
    table.tap(anna, table.lobby(), "Start")
    play_out_automatic_moves(table)
    assert table.game().status == "finished"
    assert flip_button(table) is None
    anna.say(telegram.private(anna), "/stats")
    text = recorder.last(anna.id).text
    assert "Bon Appétit!: 1 played" in text
    assert "rating" in text and "/players/" in text


def test_standings_link_to_the_linked_league(telegram, recorder):
    group = telegram.group()
    anna = telegram.user("Anna")
    anna.say(group, "/standings")
    assert "https://catclub.example/leagues/" in recorder.last(group["id"]).text
    league = League.objects.create(name="Roma", slug="roma")
    link_chat(group["id"], league)
    anna.say(group, "/standings")
    assert "https://catclub.example/leagues/roma/" in recorder.last(group["id"]).text


def test_lang_changes_the_players_language(telegram, recorder):
    anna = telegram.user("Anna")
    anna.say(telegram.private(anna), "/lang")
    message = recorder.last(anna.id)
    query = anna.tap(message, data="L:it")
    assert Player.objects.get(telegram_id=anna.id).language == "it"
    assert telegram.toast(query) == "Lingua: Italiano"


def test_settings_are_for_administrators_only(telegram, recorder):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    recorder.admins[group["id"]] = {anna.id}
    bruno.say(group, "/settings")
    assert "administrators" in recorder.last(group["id"]).text
    anna.say(group, "/settings")
    settings_message = recorder.last(group["id"])
    refused = bruno.tap(settings_message, data="s:lang:it")
    assert "administrators" in telegram.toast(refused)
    assert ChatSettings.objects.get(chat_id=group["id"]).language == "en"

    anna.tap(settings_message, data="s:lang:it")
    anna.tap(settings_message, data="s:turn:30")
    anna.tap(settings_message, data="s:game:felix")
    chat = ChatSettings.objects.get(chat_id=group["id"])
    assert (chat.language, chat.turn_seconds, chat.game_enabled("felix")) == ("it", 30, False)
    assert "Impostazioni" in settings_message.text

    anna.say(group, "/new felix")
    assert (
        "disattivato" in recorder.last(group["id"]).text
        or "spento" in recorder.last(group["id"]).text
    )
    anna.say(group, "/new")
    assert len(recorder.last(group["id"]).buttons) == 3  # Felix is switched off


def test_building_the_application_contacts_nobody():
    recorder = Recorder()
    build_application(request=recorder)
    assert recorder.calls == []


def test_startup_publishes_the_commands_in_english_italian_and_portuguese(transactional_db):
    recorder = Recorder()
    app = build_application(request=recorder, updater=False)

    async def start():
        await app.initialize()
        await on_startup(app)
        await app.shutdown()

    asyncio.run(start())
    published = {c.params.get("language_code"): c for c in recorder.sent(method="setMyCommands")}
    assert set(published) == {None, "en", "it", "pt"}
    italian = published["it"].params["commands"]
    italian = json.loads(italian) if isinstance(italian, str) else italian
    assert any(c["command"] == "new" and "partita" in c["description"].lower() for c in italian)


def test_set_webhook_registers_the_url_with_the_secret(recorder, transactional_db):
    call_command("set_webhook", "https://catclub.example/telegram/webhook")
    (call,) = recorder.sent(method="setWebhook")
    assert call.params["url"] == "https://catclub.example/telegram/webhook"
    assert call.params["secret_token"] == "s3cret-token"
    assert len(recorder.sent(method="setMyCommands")) == 4


def test_set_webhook_needs_a_secret(settings, recorder):
    from django.core.management.base import CommandError

    settings.TELEGRAM_WEBHOOK_SECRET = ""
    with pytest.raises(CommandError):
        call_command("set_webhook", "https://catclub.example/telegram/webhook")


def _running_bon_appetit(telegram, recorder):
    from tests.bot.play import Table

    group = telegram.group()
    anna, bruno, carla = (telegram.user(n) for n in ("Anna", "Bruno", "Carla"))
    anna.start_bot()
    bruno.start_bot()
    anna.say(group, "/new bon_appetit")
    table = Table(telegram, recorder, group, [anna, bruno])
    table.tap(bruno, table.lobby(), "Join")
    table.tap(anna, table.lobby(), "Start")
    return group, table, anna, bruno, carla


def test_cancel_of_a_running_game_is_the_creators_forfeit(telegram, recorder):
    """Issue 15: cancelling a running game no longer dodges the rating."""
    from games.play.models import Seat
    from games.ratings.models import RatingChange

    group, table, anna, _bruno, _carla = _running_bon_appetit(telegram, recorder)
    anna.say(group, "/cancel")
    game = table.game()
    assert game.status == "aborted"
    assert "forfeits" in recorder.last(group["id"]).text
    seat = Seat.objects.get(game=game, player__telegram_id=anna.id)
    assert seat.forfeited
    change = RatingChange.objects.get(game=game, rating__player=seat.player, rating__league=None)
    assert change.rank == 2 and change.delta < 0


def test_a_chat_admin_not_at_the_table_cannot_cancel_a_running_game(telegram, recorder):
    group, table, _anna, _bruno, carla = _running_bon_appetit(telegram, recorder)
    recorder.admins[group["id"]] = {carla.id}
    carla.say(group, "/cancel")
    assert table.game().status == "running"
    assert "moderator" in recorder.last(group["id"]).text


def test_stats_show_the_rating_on_the_familiar_scale(telegram, recorder):
    """issue 26: a rating sunk far below zero reads as the floor, whole and marked
    provisional on few games; on enough games the mark goes."""
    from games.ratings import display
    from games.ratings.models import Rating
    from tests.web.seed import finished

    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    a, b = (Player.objects.get(telegram_id=u.id) for u in (anna, bruno))
    finished("felix", [a, b], [2, 1])
    Rating.objects.filter(player=a).update(mu=-91.0, sigma=3.0, ordinal=-100.0)
    anna.say(telegram.private(anna), "/stats")
    text = recorder.last(anna.id).text
    assert f"rating {display.FLOOR} (provisional)" in text
    assert "-100" not in text and "−" not in text
    Rating.objects.filter(player=a).update(games=display.PROVISIONAL_GAMES)
    anna.say(telegram.private(anna), "/stats")
    text = recorder.last(anna.id).text
    assert f"rating {display.FLOOR}" in text and "provisional" not in text
