"""The webhook: Telegram POSTs updates here (``manage.py set_webhook`` registers it).

A request without the right ``X-Telegram-Bot-Api-Secret-Token`` gets 403 and changes
nothing. An update id seen before (Telegram redelivers when it doubts) is acknowledged
and ignored; one whose processing failed may be delivered again.

A body that is not an update (not JSON, numbers JSON cannot hold such as ``1e999``, an
update id that is not a non-negative integer, fields the library cannot read) gets 400
and changes nothing. Telegram never sends such a body, so 400 costs nothing real and says
plainly what is wrong; were it to, it retries only "a reasonable amount of attempts"
(Bot API, setWebhook) and shows the 400 in getWebhookInfo, where a 200 would hide it.
"""

from __future__ import annotations

import hmac
import json
import logging
import math

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from bot import cachekeys
from bot.bridge import BadUpdate, bridge

log = logging.getLogger(__name__)

SEEN_TTL = 24 * 3600
MAX_UPDATE_ID = 2**63 - 1  # Telegram's update ids are positive and fit in 64 bits


class NotAnUpdate(ValueError):
    pass


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")  # Python's json reads NaN, Infinity


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as inf
        raise ValueError(f"{text} does not fit a number")
    return value


def read_update(body: bytes) -> tuple[dict, int]:
    """The update in a webhook body and its id, or NotAnUpdate."""
    try:
        payload = json.loads(body, parse_constant=_refuse_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as exc:  # bad UTF-8, bad JSON, nesting too deep
        raise NotAnUpdate(f"not JSON: {exc}") from exc
    if not isinstance(payload, dict):
        raise NotAnUpdate("not a JSON object")
    update_id = payload.get("update_id")
    # bool is an int in Python; floats and strings are not update ids either.
    if type(update_id) is not int or not 0 <= update_id <= MAX_UPDATE_ID:
        raise NotAnUpdate("no valid update_id")
    return payload, update_id


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
        payload, update_id = read_update(request.body)
    except NotAnUpdate as exc:
        log.warning("webhook: refused a body: %s", exc)
        return HttpResponse("not an update", status=400)
    seen = cachekeys.key("update", update_id)
    if not cache.add(seen, 1, timeout=SEEN_TTL):
        return HttpResponse("duplicate")
    try:
        bridge.process(payload)
    except BadUpdate as exc:  # sending it again cannot help; nothing was done
        cache.delete(seen)
        log.warning("webhook: update %s unreadable: %s", update_id, exc)
        return HttpResponse("not an update", status=400)
    except Exception:
        cache.delete(seen)  # let Telegram's redelivery try again
        log.exception("update %s failed", update_id)
        return HttpResponse("failed", status=500)
    return HttpResponse("ok")
