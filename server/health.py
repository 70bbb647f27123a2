"""``/healthz``: is the database reachable, and Redis when it is configured."""

from django.conf import settings
from django.db import connection
from django.http import JsonResponse


def check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is reported, not raised
        return f"error: {exc.__class__.__name__}"
    return "ok"


def check_redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    import redis  # here: without Redis configured, the check never needs it

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        client.ping()
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


def healthz(request):
    checks = {"database": check_database(), "redis": check_redis()}
    healthy = all(v in ("ok", "not configured") for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
