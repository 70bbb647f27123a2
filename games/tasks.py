"""Celery tasks of the games app."""

from celery import shared_task


@shared_task
def ping(payload: str = "pong") -> str:
    """A no-op round trip, used by health checks and the worker tests."""
    return payload
