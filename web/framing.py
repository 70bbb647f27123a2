"""The pages Telegram's web clients may show in their iframe: the web table and the Mini
App's entry. Everything else keeps the site's defaults, which forbid framing
(``X_FRAME_OPTIONS = "DENY"`` and CSP ``frame-ancestors 'none'``)."""

from __future__ import annotations

from functools import wraps

from django.conf import settings


def telegram_may_frame(view):
    """Let the origins of ``TELEGRAM_FRAME_ANCESTORS`` frame the view's pages.
    X-Frame-Options cannot name an origin, so it is left out there: browsers that know
    frame-ancestors (all current ones) obey it instead."""

    @wraps(view)
    def framed(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response.xframe_options_exempt = True
        response._csp_replace = {"frame-ancestors": settings.TELEGRAM_FRAME_ANCESTORS}
        return response

    return framed
