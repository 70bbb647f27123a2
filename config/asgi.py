import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

# Imported once Django is set up: they import the views.
from config.asgi_handler import Handler  # noqa: E402
from web.clients import client_network  # noqa: E402
from web.live.app import route  # noqa: E402
from web.request_rate import in_good_standing  # noqa: E402
from web.urls import is_move  # noqa: E402

# Django's requests in one hop to a thread each, taken in turn by client, the clients in
# good standing first, their moves before anything else (config/asgi_handler.py).
django_application = Handler(client=client_network, favoured=in_good_standing, first=is_move)
# A table's stream and long poll straight from ASGI (web/live/app.py); the rest by Django.
application = route(django_application)
