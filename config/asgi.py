import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

# Imported once Django is set up: it imports the views.
from web.live_app import route  # noqa: E402

# A table's stream and long poll straight from ASGI (web/live_app.py); the rest by Django.
application = route(django_application)
