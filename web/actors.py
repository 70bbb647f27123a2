"""Who acts in a request (issue 44): the one place the pages (``play``, ``casual``, the
Mini App's sign-in) and the live push (``web.live``) learn it.

Who is playing comes from the server only: a browser player from the session, a Telegram
user from ``initData`` validated on every request that acts (``miniapp``), or from the
session the Mini App signed in, until ``MINIAPP_MAX_AGE`` after Telegram signed that
``initData``. In Telegram's web clients (a cross-site iframe: no cookie of ours) the Mini
App's script sends the lobby's forms and asks for the table page with that header too.
The session's key changes whenever a player is bound to it (no fixation). A seat at a
table is the services' business: they are given the actor and refuse who may not act.
"""

from __future__ import annotations

import functools
import time

from django.conf import settings
from django.http import HttpResponseForbidden, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from games.play import services
from games.play.models import Player

from . import miniapp

SESSION_KEY = "catclub_player"
INIT_DATA_HEADER = "X-Telegram-Init-Data"
# When Telegram signed the ``initData`` the Mini App signed in with (its ``auth_date``).
SESSION_AUTH_DATE = "catclub_auth_date"


class SignInExpired(miniapp.InvalidInitData):
    """The session's Telegram player signed in longer than ``MINIAPP_MAX_AGE`` ago."""


def _bound_player(request) -> Player | None:
    """The session's player. A Telegram player only while the Mini App sign-in that put
    them there is fresh: then ``SignInExpired``."""
    pk = request.session.get(SESSION_KEY)
    player = Player.objects.filter(pk=pk).first() if pk else None
    if player is not None and player.in_telegram:
        signed = request.session.get(SESSION_AUTH_DATE)
        if not isinstance(signed, int) or time.time() - signed > settings.MINIAPP_MAX_AGE:
            raise SignInExpired("expired in the session")
    return player


def session_player(request) -> Player | None:
    """The session's player, for a page: nobody once a Telegram sign-in expired."""
    try:
        return _bound_player(request)
    except SignInExpired:
        return None


def bind(request, player: Player, auth_date: int | None = None) -> None:
    """The session now belongs to ``player`` (a Telegram one with the ``auth_date`` of its
    sign-in): under a new key, so that a key planted before can take nothing over."""
    request.session.cycle_key()
    request.session[SESSION_KEY] = player.pk
    if auth_date is None:
        request.session.pop(SESSION_AUTH_DATE, None)
    else:
        request.session[SESSION_AUTH_DATE] = auth_date


def acting_player(request) -> Player | None:
    """The player a request acts for. A Mini App request carries Telegram's ``initData``
    (checked every time: a forged or expired one is refused); a browser's comes from its
    session (a Telegram sign-in there expires as ``initData`` does)."""
    raw = request.headers.get(INIT_DATA_HEADER)
    if raw is None:
        return _bound_player(request)
    data = miniapp.validate(raw, settings.TELEGRAM_BOT_TOKEN, settings.MINIAPP_MAX_AGE)
    user = data.user
    return services.player_from_telegram(
        user.id, user.display_name, user.username, user.language_code
    )


def csrf_unless_init_data(view):
    """CSRF protection for what a session authenticates, not for what ``initData`` does.

    Telegram's web clients open a Mini App in a cross-site iframe, where the browser keeps
    no cookie of ours (neither the session nor the CSRF token). A request that carries
    ``X-Telegram-Init-Data`` acts only for the Telegram user Telegram signed it for, and a
    page of another site cannot add that header without a CORS preflight, which nothing
    here grants: so it needs no CSRF token. Without the header, the session acts, and the
    CSRF check applies as everywhere else."""
    protected = csrf_protect(view)

    @functools.wraps(view)
    def checked(request, *args, **kwargs):
        if INIT_DATA_HEADER in request.headers:
            return view(request, *args, **kwargs)
        return protected(request, *args, **kwargs)

    return csrf_exempt(checked)


def sign_in_refusal(exc: miniapp.InvalidInitData) -> str:
    """Why a sign-in was refused, in the visitor's language."""
    if isinstance(exc, SignInExpired):
        return _("Your Telegram sign-in has expired: open the table from Telegram again.")
    return _("This Telegram sign-in is not valid (any more).")


def viewer_or_403(request):
    """Who watches a table (its long poll, its stream): the player (None: a spectator)
    and no answer, or no player and the 403 that refuses a forged or expired sign-in."""
    try:
        return acting_player(request), None
    except miniapp.InvalidInitData as exc:
        return None, HttpResponseForbidden(sign_in_refusal(exc))


def from_mini_app(request) -> bool:
    """The Mini App's script asks (``initData`` in its header): it gets JSON back."""
    return INIT_DATA_HEADER in request.headers


def actor(request):
    """Who acts in a request that changes something (a move, a lobby action): the player
    (None: nobody) and no answer, or no player and the 403 that refuses the request. The
    Mini App's script, which signs with its header, reads the refusal as JSON."""
    try:
        return acting_player(request), None
    except miniapp.InvalidInitData as exc:
        if from_mini_app(request):
            return None, json_refusal(sign_in_refusal(exc), 403)
        return None, HttpResponseForbidden(sign_in_refusal(exc))


def json_refusal(message: str, status: int) -> JsonResponse:
    return JsonResponse({"ok": False, "message": message}, status=status)
