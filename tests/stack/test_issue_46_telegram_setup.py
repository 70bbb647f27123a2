"""Issue 46, clause 6: ``manage.py telegram setup`` sets everything the Bot API can set (the
webhook with its secret, the command lists, the private chat's menu button opening the Mini
App, the descriptions) against a recording Bot API served over HTTP; again, it changes
nothing; without what it needs it says what is missing."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.bot.telegram_fake import BOT_USERNAME, Recorder
from tests.bot.telegram_http import BotApiServer

TOKEN = "123456:SETUP-TOKEN"
LANGUAGES = [None, "en", "it", "pt"]


class SetupRecorder(Recorder):
    """Telegram's answers to the set-up calls, and what the bot's state becomes."""

    def __init__(self):
        super().__init__()
        self.state: dict = {}

    def _set(self, key, value):
        self.state[key] = value
        return self._ok(True)

    def api_setWebhook(self, params):
        return self._set("webhook", (params["url"], params.get("secret_token")))

    def api_setMyCommands(self, params):
        super().api_setMyCommands(params)
        commands = params["commands"]
        commands = json.loads(commands) if isinstance(commands, str) else commands
        return self._set(("commands", params.get("language_code")), commands)

    def api_setChatMenuButton(self, params):
        button = params.get("menu_button")
        button = json.loads(button) if isinstance(button, str) else button
        return self._set(("menu", params.get("chat_id")), button)

    def api_setMyDescription(self, params):
        assert len(params["description"]) <= 512
        return self._set(("description", params.get("language_code")), params["description"])

    def api_setMyShortDescription(self, params):
        assert len(params["short_description"]) <= 120
        return self._set(("short", params.get("language_code")), params["short_description"])


@pytest.fixture
def api(settings):
    server = BotApiServer(TOKEN, SetupRecorder()).start()
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_API_URL = server.url
    settings.TELEGRAM_WEBHOOK_SECRET = "hook-secret"
    settings.SITE_URL = "https://cats.example.org"
    yield server
    server.stop()


def setup() -> str:
    out = StringIO()
    call_command("telegram", "setup", stdout=out)
    return out.getvalue()


def test_issue_46_telegram_setup_sets_webhook_commands_menu_and_descriptions(api):
    out = setup()
    state = api.recorder.state
    assert state["webhook"] == ("https://cats.example.org/telegram/webhook", "hook-secret")
    for language in LANGUAGES:
        assert state[("commands", language)], language
        assert state[("description", language)], language
        assert state[("short", language)], language
    # Each language in its own words, the default in English.
    assert state[("commands", "it")] != state[("commands", None)]
    assert state[("description", "pt")] != state[("description", None)]
    assert state[("description", "en")] == state[("description", None)]
    assert "Adiciona-me" in state[("description", "pt")]
    assert "/new" in state[("short", "it")]
    # The private chat's menu button (every chat: no chat_id) opens the Mini App.
    assert state[("menu", None)] == {
        "type": "web_app",
        "text": "Open the tables",
        "web_app": {"url": "https://cats.example.org/play/tg/"},
    }
    assert f"@{BOT_USERNAME} is set up." in out


def test_issue_46_telegram_setup_again_changes_nothing(api):
    setup()
    first = dict(api.recorder.state)
    calls = len(api.calls())
    setup()
    assert api.recorder.state == first
    assert all(c.ok for c in api.calls())
    assert len(api.calls()) == 2 * calls


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("TELEGRAM_BOT_TOKEN", "", "TELEGRAM_BOT_TOKEN is not set"),
        ("TELEGRAM_WEBHOOK_SECRET", "", "TELEGRAM_WEBHOOK_SECRET is not set"),
        ("SITE_URL", "http://cats.example.org", "https only"),
    ],
)
def test_issue_46_telegram_setup_says_what_is_missing_and_calls_nobody(
    api, settings, setting, value, message
):
    setattr(settings, setting, value)
    with pytest.raises(CommandError, match=message):
        setup()
    assert api.calls() == []


def test_issue_46_telegram_setup_reports_telegrams_refusal(api, settings):
    settings.TELEGRAM_BOT_TOKEN = "123456:WRONG-TOKEN"
    with pytest.raises(CommandError, match="refused TELEGRAM_BOT_TOKEN"):
        setup()


def test_issue_46_telegram_setup_reports_an_error_answer(api):
    api.recorder.fail_next(
        "setWebhook", status=400, description="Bad Request: bad webhook: HTTPS url must be provided"
    )
    with pytest.raises(CommandError, match=r"(?i)bad webhook"):
        setup()
