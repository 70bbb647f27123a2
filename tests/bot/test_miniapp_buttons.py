"""The Mini App from the chat: the group's table message gets an "Open table" URL button
(a Direct Link Mini App, the only kind a group allows) and each player's private message a
``web_app`` button, once a Mini App short name is configured."""

from tests.bot.play import felix_table


def test_no_mini_app_buttons_without_a_short_name(telegram, recorder, settings):
    settings.TELEGRAM_MINIAPP_SHORT_NAME = ""
    table, _game, (anna, *_others) = felix_table(telegram, recorder)
    group_buttons = [b for m in recorder.screen(table.chat_id) for b in m.buttons]
    assert not any("t.me" in b.get("url", "") for b in group_buttons)
    assert not any("web_app" in b for b in table.private(anna).buttons)


def test_the_table_message_and_the_hand_open_the_mini_app(telegram, recorder, settings):
    settings.TELEGRAM_MINIAPP_SHORT_NAME = "table"
    table, game, (anna, *_others) = felix_table(telegram, recorder)
    link = f"https://t.me/{settings.TELEGRAM_BOT_USERNAME}/table?startapp={game.pk}"
    group_buttons = [b for m in recorder.screen(table.chat_id) for b in m.buttons]
    assert {"text": "🃏 Open table", "url": link} in group_buttons
    assert not any("web_app" in b for b in group_buttons)  # refused by Telegram in groups
    private = table.private(anna).buttons
    assert {
        "text": "🃏 Open table",
        "web_app": {"url": f"{settings.SITE_URL}/play/{game.pk}/"},
    } in (private)
