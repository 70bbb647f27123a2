"""Absolute links to the site's pages, for messages sent outside a request (the bot's):
built with ``reverse`` from the URL configuration, never by hand."""

from django.conf import settings
from django.urls import reverse


def absolute(viewname: str, *args, fragment: str = "") -> str:
    url = settings.SITE_URL + reverse(viewname, args=args)
    return f"{url}#{fragment}" if fragment else url
