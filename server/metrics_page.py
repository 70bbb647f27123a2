"""``/metrics``: the service's metrics for Prometheus, behind a bearer token.

The counts come from ``server.metrics`` (Redis, shared by every process); queue lengths and
the state of the database and Redis are read at scrape time. Without ``METRICS_TOKEN`` the
page does not exist (404); with it, a request without ``Authorization: Bearer <token>`` is
refused (403).
"""

from __future__ import annotations

import hmac
import logging

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
)

from server import metrics
from server.health import check_database, check_redis

log = logging.getLogger(__name__)


def queue_lengths() -> dict[str, int]:
    """Tasks waiting in each queue (Celery's Redis transport keeps a queue in a list)."""
    import redis  # here: only a scrape with Redis configured asks for the queues

    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    # Under the site's prefix, as the broker names them (CELERY_BROKER_TRANSPORT_OPTIONS).
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    return {
        "games": client.llen(f"{prefix}{settings.GAMES_QUEUE}"),
        "telegram": client.llen(f"{prefix}{settings.TELEGRAM_QUEUE}"),
    }


class Collector:
    """Everything ``server.metrics`` counted, plus what is read now."""

    def collect(self):
        up = GaugeMetricFamily(
            metrics.PREFIX + "up", "1 if the service answers this scrape.", labels=["service"]
        )
        up.add_metric(["database"], int(check_database() == "ok"))
        if settings.REDIS_URL:
            redis_ok = check_redis() == "ok"
            up.add_metric(["redis"], int(redis_ok))
        yield up
        if settings.REDIS_URL and redis_ok:
            queues = GaugeMetricFamily(
                metrics.PREFIX + "queue_length", "Tasks waiting in a queue.", labels=["queue"]
            )
            for name, length in queue_lengths().items():
                queues.add_metric([name], length)
            yield queues
        try:
            yield from self.counted()
        except Exception as exc:  # Redis is down: catclub_up says so, the rest is unknown
            log.warning("metrics could not be read: %s", exc)

    def counted(self):
        store = metrics.store()
        tables = {t: store.read(t) for t in ("counters", "buckets", "sums", "gauges")}
        values: dict[str, dict[tuple, float]] = {}
        for table in ("counters", "gauges", "sums"):
            for field, value in tables[table].items():
                name, labels = metrics.parse_field(field)
                values.setdefault(name, {})[tuple(sorted(labels.items()))] = value
        buckets: dict[str, dict[tuple, dict[str, float]]] = {}
        for field, count in tables["buckets"].items():
            name, labels = metrics.parse_field(field)
            le = labels.pop("le")
            key = tuple(sorted(labels.items()))
            buckets.setdefault(name, {}).setdefault(key, {})[le] = count
        for name, metric in metrics.METRICS.items():
            full = metrics.PREFIX + name
            if metric.kind == "histogram":
                family = HistogramMetricFamily(full, metric.help, labels=list(metric.labels))
                for key, counts in buckets.get(name, {}).items():
                    family.add_metric(
                        [dict(key)[label] for label in metric.labels],
                        cumulative(counts),
                        values.get(name, {}).get(key, 0.0),
                    )
            else:
                kind = CounterMetricFamily if metric.kind == "counter" else GaugeMetricFamily
                # A counter's name is given without its _total; the exposition adds it.
                family = kind(full.removesuffix("_total"), metric.help, labels=list(metric.labels))
                for key, value in values.get(name, {}).items():
                    family.add_metric([dict(key)[label] for label in metric.labels], value)
            yield family


def cumulative(counts: dict[str, float]) -> list[tuple[str, float]]:
    """Per-bucket counts as Prometheus wants them: each bucket counts all below it."""
    total, out = 0.0, []
    for bound in (*map(str, metrics.LATENCY_BUCKETS), "+Inf"):
        total += counts.get(bound, 0)
        out.append((bound, total))
    return out


def authorized(request) -> bool:
    given = request.headers.get("Authorization", "")
    expected = f"Bearer {settings.METRICS_TOKEN}"
    return hmac.compare_digest(given.encode(), expected.encode())


@require_GET
def metrics_view(request):
    if not settings.METRICS_TOKEN:
        raise Http404("metrics are off")
    if not authorized(request):
        return HttpResponseForbidden("a bearer token is required")
    registry = CollectorRegistry(auto_describe=False)
    registry.register(Collector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
