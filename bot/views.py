"""The webhook: Telegram POSTs updates here (``manage.py set_webhook`` registers it).

A request without the right ``X-Telegram-Bot-Api-Secret-Token`` gets 403 and changes
nothing. An update id seen before (Telegram redelivers when it doubts) is acknowledged
and ignored; one whose processing failed may be delivered again.
"""

from __future__ import annotations

import hmac
import json
import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from bot import cachekeys
from bot.bridge import bridge

log = logging.getLogger(__name__)

SEEN_TTL = 24 * 3600


def secret_ok(request: HttpRequest) -> bool:
    expected = settings.TELEGRAM_WEBHOOK_SECRET
    given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    return bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


@csrf_exempt
@require_POST
def webhook(request: HttpRequest) -> HttpResponse:
    if not secret_ok(request):
        return HttpResponseForbidden("wrong secret token")
    try:
        payload = json.loads(request.body)
        update_id = int(payload["update_id"])
    except (ValueError, KeyError, TypeError):
        return HttpResponse("not an update", status=400)
    seen = cachekeys.key("update", update_id)
    if not cache.add(seen, 1, timeout=SEEN_TTL):
        return HttpResponse("duplicate")
    try:
        bridge.process(payload)
    except Exception:
        cache.delete(seen)  # let Telegram's redelivery try again
        log.exception("update %s failed", update_id)
        return HttpResponse("failed", status=500)
    return HttpResponse("ok")
