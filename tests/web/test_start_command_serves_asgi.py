"""``manage.py start`` serves the site over ASGI (uvicorn), with its own threads beside it:
a page can follow its table by server-sent events (issue 24)."""

import threading

import pytest

from admin_ui.management.commands import start

pytestmark = pytest.mark.django_db


def test_start_serves_the_asgi_application_with_the_sweep_beside_it(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.TELEGRAM_BOT_TOKEN = ""
    served, swept = {}, threading.Event()
    monkeypatch.setattr(start.Command, "sweep_forever", staticmethod(swept.set))
    monkeypatch.setattr(start, "call_command", lambda *a, **k: None)
    monkeypatch.setattr(start.uvicorn, "run", lambda app, **kw: served.update(kw, app=app))
    start.Command().handle("[::1]:8123", no_bot=True, demo=False)
    assert served["app"] == "config.asgi:application"
    assert (served["host"], served["port"]) == ("::1", 8123)
    assert served["proxy_headers"] is False  # admin_ui/clients.py decides whom to believe
    assert served["backlog"] == start.LISTEN_BACKLOG
    assert swept.wait(5), "the sweep's thread starts beside the server"
