import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

# Imported once Django is set up: they import the views.
from server.asgi_handler import Handler  # noqa: E402
from server.edge import BodyLimit  # noqa: E402
from web.live.app import route  # noqa: E402

# Django's requests in one hop to a thread each (server/asgi_handler.py); a table's stream
# and long poll straight from ASGI (web/live/app.py); no body over the edge's limit read
# at all (server/edge.py).
application = BodyLimit(route(Handler()))
