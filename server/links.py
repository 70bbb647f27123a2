"""Absolute links to the site's pages, for messages sent outside a request (the bot's):
built with ``reverse`` from the URL configuration, never by hand."""

from django.conf import settings
from django.urls import reverse


def absolute(viewname: str, *args, fragment: str = "") -> str:
    url = settings.SITE_URL + reverse(viewname, args=args)
    return f"{url}#{fragment}" if fragment else url


def absolute_path(path: str) -> str:
    """A path of this site (a page's, a static file's) as a full address, for what is read
    outside the site: link previews' ``og:url`` and ``og:image``."""
    return settings.SITE_URL + path
