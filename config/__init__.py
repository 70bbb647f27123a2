from server import context_locals

# The Celery app is loaded with Django so that @shared_task binds to it.
from .celery import app as celery_app

# Before any request or task sets the active language (config/context_locals).
context_locals.install()

__all__ = ("celery_app",)
