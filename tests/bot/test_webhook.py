"""The webhook view: the secret token, duplicate deliveries, a flood of taps."""

import asyncio
import json
import threading
import time
from types import SimpleNamespace

import pytest
from django.test import Client

from bot import bridge as bridge_module
from bot import views
from games.play.models import Move, MoveSource, Player
from tests.bot.play import Table
from tests.web.asgi import asgi_server  # noqa: F401  (fixture)

URL = "/telegram/webhook"


@pytest.fixture
def hook(monkeypatch, bridge, telegram):
    """Updates go through the real view (and its bridge to the Application)."""
    monkeypatch.setattr(views, "bridge", bridge)
    client = Client()

    def post(update: dict, secret: str | None = "s3cret-token"):
        headers = {"HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN": secret} if secret is not None else {}
        return client.post(URL, json.dumps(update), content_type="application/json", **headers)

    # Simulated users now reach the bot through the webhook.
    telegram.process = lambda update: _ok(post(update))
    return post


def _ok(response):
    assert response.status_code == 200, response.content
    return response


def test_webhook_with_the_right_secret_processes_the_update(hook, telegram, recorder):
    anna = telegram.user("Anna")
    response = hook(telegram.message_update(anna, telegram.private(anna), "/help"))
    assert response.status_code == 200
    assert "/new" in recorder.last(anna.id).text


@pytest.mark.parametrize("secret", ["wrong", "", None], ids=["wrong", "empty", "missing"])
def test_webhook_refuses_a_wrong_or_missing_secret_and_changes_nothing(
    hook, telegram, recorder, secret
):
    anna = telegram.user("Anna")
    response = hook(telegram.message_update(anna, telegram.private(anna), "/start"), secret)
    assert response.status_code == 403
    assert recorder.calls == []
    assert not Player.objects.exists()


def test_webhook_refuses_everything_when_no_secret_is_configured(hook, telegram, settings):
    settings.TELEGRAM_WEBHOOK_SECRET = ""
    anna = telegram.user("Anna")
    assert (
        hook(telegram.message_update(anna, telegram.private(anna), "/help"), "").status_code == 403
    )


def test_webhook_rejects_what_is_not_an_update(hook):
    client = Client()
    response = client.post(
        URL,
        "not json",
        content_type="application/json",
        HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN="s3cret-token",
    )
    assert response.status_code == 400
    assert client.get(URL).status_code == 405


NOT_UPDATES = {
    "huge-float": b'{"update_id": 1e999}',
    "huge-negative-float": b'{"update_id": -1e999}',
    "nan": b'{"update_id": NaN}',
    "infinity": b'{"update_id": Infinity}',
    "fraction": b'{"update_id": 7.5}',
    "float": b'{"update_id": 7.0}',
    "bool": b'{"update_id": true}',
    "string": b'{"update_id": "7"}',
    "negative": b'{"update_id": -7}',
    "over-64-bits": b'{"update_id": 100000000000000000000000000000}',
    "over-4300-digits": b'{"update_id": 1' + b"0" * 5000 + b"}",
    "huge-float-elsewhere": b'{"update_id": 7, "message": {"date": 1e999}}',
    "too-deep": b'{"update_id": 7, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "not-utf8": b'{"update_id": 7, "x": "\xff\xfe"}',
    "array": b"[7]",
    "number": b"7",
    "null": b"null",
    "no-id": b'{"message": {}}',
    "unreadable-message": b'{"update_id": 7, "message": "hello"}',
    "unreadable-callback": b'{"update_id": 7, "callback_query": []}',
}


def post_body(body: bytes):
    return Client().post(
        URL,
        body,
        content_type="application/json",
        HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN="s3cret-token",
    )


@pytest.mark.parametrize("body", NOT_UPDATES.values(), ids=NOT_UPDATES.keys())
def test_webhook_answers_400_to_malformed_numbers_and_bodies_and_changes_nothing(
    hook, telegram, recorder, body
):
    """{"update_id": 1e999} was a 500 (int(inf) overflows), deep nesting too, and a
    float, bool or string id passed as an update. Each is a clear 400; the update id is
    not taken, so the real update 7 is still processed afterwards."""
    response = post_body(body)
    assert response.status_code == 400, response.content
    assert response.content == b"not an update"
    assert [c for c in recorder.calls if c.method != "getMe"] == []
    assert not Player.objects.exists()
    anna = telegram.user("Anna")
    update = {**telegram.message_update(anna, telegram.private(anna), "/help"), "update_id": 7}
    assert hook(update).content == b"ok"
    assert "/new" in recorder.last(anna.id).text


def test_webhook_ignores_a_redelivered_update(hook, telegram, recorder):
    group = telegram.group()
    anna = telegram.user("Anna")
    anna.start_bot()
    update = telegram.message_update(anna, group, "/new felix")
    assert hook(update).status_code == 200
    again = hook(update)
    assert again.status_code == 200 and again.content == b"duplicate"
    assert len(recorder.sent(group["id"], "sendMessage")) == 1  # one lobby


def test_a_flood_of_taps_on_one_button_records_one_move_and_answers_every_tap(
    hook, telegram, recorder
):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    table = Table(telegram, recorder, group, [anna, bruno])
    game = table.open_lobby("bon_appetit", anna, [bruno])
    (mover,) = table.to_act()
    user = anna if table.seat_of(anna) == mover else bruno
    message = recorder.with_button(group["id"], f"g{game.pk}:")
    data = message.buttons[0]["callback_data"]

    updates = [telegram.callback_update(user, message, data) for _ in range(16)]
    responses = []
    threads = [threading.Thread(target=lambda u=u: responses.append(hook(u))) for u in updates]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert [r.status_code for r in responses] == [200] * 16
    taps = Move.objects.filter(game=game, source=MoveSource.HUMAN)
    assert taps.count() == 1
    for update in updates:
        telegram.answer_to(update["callback_query"]["id"])


class SlowApp:
    """An Application that takes its time to start and to handle an update."""

    def __init__(self, start: float, handle: float):
        self.start, self.handle = start, handle
        self.bot = SimpleNamespace(username="slow_bot")
        self.handled = []

    async def initialize(self):
        await asyncio.sleep(self.start)

    async def process_update(self, update):
        await asyncio.sleep(self.handle)
        self.handled.append(update.update_id)

    async def shutdown(self):
        pass


def test_the_bridge_waits_at_most_its_timeout_starting_the_application_included(monkeypatch):
    """Gunicorn's timeout is set above PROCESS_TIMEOUT (tests/config); that holds only if
    the start-up of the Application counts against the same wait, as it now does."""
    monkeypatch.setattr(bridge_module, "PROCESS_TIMEOUT", 0.6)
    app = SlowApp(start=0.4, handle=0.4)
    runner = bridge_module.Bridge(lambda: app)
    try:
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            runner.process({"update_id": 1})
        assert time.monotonic() - began < 0.9  # not 0.4 + 0.6
        runner.process({"update_id": 2})  # started now: the whole wait is the update's
        assert 2 in app.handled
    finally:
        runner.close()


def test_under_asgi_an_update_does_not_wait_for_its_own_request(
    bridge, telegram, recorder, monkeypatch
):
    """Under ASGI Django runs the (synchronous) webhook view on a thread of the request's
    own, and asgiref sends the request's synchronous work there: the update's handlers, in
    the bridge's loop, must not queue behind the view that waits for them (issue 24)."""
    from asgiref.sync import ThreadSensitiveContext, sync_to_async

    monkeypatch.setattr(bridge_module, "PROCESS_TIMEOUT", 10)
    anna = telegram.user("Anna")
    update = telegram.message_update(anna, telegram.private(anna), "/help")

    async def as_the_asgi_handler_does():
        async with ThreadSensitiveContext():
            await sync_to_async(bridge.process)(update)

    started = time.monotonic()
    asyncio.run(as_the_asgi_handler_does())
    assert time.monotonic() - started < 5
    assert "/new" in recorder.last(anna.id).text


def test_served_over_asgi_the_webhook_answers(
    bridge,
    telegram,
    recorder,
    monkeypatch,
    asgi_server,  # noqa: F811
):
    """The webhook as production serves it (uvicorn): the update is handled, in time."""
    import httpx

    monkeypatch.setattr(views, "bridge", bridge)
    monkeypatch.setattr(bridge_module, "PROCESS_TIMEOUT", 10)
    anna = telegram.user("Anna")
    update = telegram.message_update(anna, telegram.private(anna), "/help")
    headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret-token"}
    for _ in range(2):  # the first initialises the bot, the second finds it so
        started = time.monotonic()
        response = httpx.post(asgi_server + URL, json=update, headers=headers, timeout=30)
        assert response.status_code == 200, response.text[:300]
        assert time.monotonic() - started < 5
        update = telegram.message_update(anna, telegram.private(anna), "/help")
    assert "/new" in recorder.last(anna.id).text
