"""Signing in on the site with Telegram (issue 45), for a visitor who is not in the Mini
App: a tournament's "Sign in to sign up" leads here.

The Telegram Login Widget is Telegram's own script (telegram.org) that frames Telegram's
sign-in page: a third party, which the site's pages load nothing from. So it is offered
only where the operator asked for it (``TELEGRAM_LOGIN_WIDGET``, with the bot's domain set
in BotFather's /setdomain), and then only the sign-in page lets it in (its CSP widened for
that page alone). Everywhere else, and in the tests, the page makes no outside request and
says plainly how to sign in: the bot's Mini App, or a browser table under a name.

Without the widget the bot signs people in: ``https://t.me/<bot>?start=login`` (and an
organiser's /tournament in private) answers with a one-time link to this site
(``games.play.signin_links``). The link's page asks for a tap first, and only that POST signs in and
spends the link: a preview fetched by a messenger, or a proxy's GET, spends nothing.

The widget sends its visitor back to ``telegram_login_done`` with the Telegram user's
fields and a ``hash``, checked as Telegram documents it: the data-check-string is every
field received but the hash, ``key=value`` sorted by key and joined by newlines; the
secret key is SHA-256 of the bot token; the hash is HMAC-SHA-256 of the string under that
key, compared in constant time; an ``auth_date`` more than a day old is refused. A valid
one finds (or creates) the Player of that Telegram id and binds the session to them.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.http import HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from games.play import errors, services, signin_links
from games.play.models import Player
from server.links import absolute

from . import learn, limits, params
from .actors import bind, session_player

MAX_AGE = 24 * 3600
# A clock a little ahead of ours is Telegram's, not a forgery; more is refused.
CLOCK_SKEW = 300
# What the widget sends: a handful of short fields (a photo URL the longest).
MAX_FIELDS = 10
MAX_FIELD = 512
NEXT_KEY = "catclub_signin_next"


class InvalidLogin(ValueError):
    """Missing, forged or too old: nobody is signed in."""


@dataclass(frozen=True)
class LoginUser:
    id: int
    first_name: str
    last_name: str
    username: str
    auth_date: int

    @property
    def display_name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p) or str(self.id)


def sign(fields: Mapping[str, str], bot_token: str) -> str:
    """The ``hash`` Telegram gives the Login Widget's ``fields`` (all but the hash)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hashlib.sha256(bot_token.encode()).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


def check(
    received: Mapping[str, str], bot_token: str, now: float | None = None, max_age: int = MAX_AGE
) -> LoginUser:
    """The Telegram user of the widget's ``received`` fields, if Telegram signed them."""
    if not bot_token:
        raise InvalidLogin("no bot token")
    fields = dict(received)
    given = fields.pop("hash", "")
    if not fields or len(fields) > MAX_FIELDS:
        raise InvalidLogin("fields")
    if any(len(k) > 32 or len(v) > MAX_FIELD or "\n" in k + v for k, v in fields.items()):
        raise InvalidLogin("fields")
    # compare_digest takes ASCII str only: Telegram's hash is 64 hex digits.
    if len(given) != 64 or not given.isascii():
        raise InvalidLogin("bad signature")
    if not hmac.compare_digest(sign(fields, bot_token), given.lower()):
        raise InvalidLogin("bad signature")
    try:
        user_id = params.integer(fields.get("id"), "id", minimum=1, maximum=2**52)
        auth_date = params.integer(fields.get("auth_date"), "auth_date", maximum=2**40)
    except params.BadParameter as exc:
        raise InvalidLogin("incomplete") from exc
    if user_id is None or auth_date is None:
        raise InvalidLogin("incomplete")
    clock = now if now is not None else time.time()
    if clock - auth_date > max_age or auth_date - clock > CLOCK_SKEW:
        raise InvalidLogin("expired")
    return LoginUser(
        id=user_id,
        first_name=fields.get("first_name", ""),
        last_name=fields.get("last_name", ""),
        username=fields.get("username", ""),
        auth_date=auth_date,
    )


def widget_enabled() -> bool:
    return bool(
        settings.TELEGRAM_LOGIN_WIDGET
        and settings.TELEGRAM_BOT_TOKEN
        and settings.TELEGRAM_BOT_USERNAME
    )


def _safe_next(request, raw: str | None) -> str | None:
    if raw and url_has_allowed_host_and_scheme(
        raw, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return raw
    return None


@require_http_methods(["GET", "HEAD", "POST"])
@params.strict
def signin(request):
    """How to sign in: the Login Widget where the operator enabled it; always the ways
    that need no outside script (the Mini App; in this browser, a name, as a table's
    "Play now" takes one: a browser player, counted as a table made by the limits)."""
    error = ""
    if request.method == "POST":
        try:
            with limits.table_creation(request), transaction.atomic():
                player = services.browser_player(
                    request.POST.get("name", ""), translation.get_language(), None
                )
        except (errors.GameError, limits.LimitReached) as exc:
            error = str(exc.message)
        else:
            wanted = request.session.get(NEXT_KEY)
            bind(request, player)
            target = _safe_next(request, wanted if isinstance(wanted, str) else None)
            return redirect(target or reverse("web:tournaments"))
    else:
        raw = params.text(request.GET.get("next"), "next", max_length=500)
        wanted = _safe_next(request, raw)
        if wanted:
            request.session[NEXT_KEY] = wanted
    telegram = learn.telegram_links()
    short = settings.TELEGRAM_MINIAPP_SHORT_NAME
    context = {
        "me": session_player(request),
        "next": _safe_next(request, request.session.get(NEXT_KEY)),
        "error": error,
        "telegram": telegram,
        "miniapp": f"{telegram['chat']}/{short}" if telegram and short else "",
        "widget": widget_enabled(),
        "bot_login": bot_login_url(),
        "bot_username": telegram.get("username", ""),
        "auth_url": absolute("web:signin-telegram"),
    }
    response = render(request, "web/signin.html", context, status=400 if error else 200)
    if context["widget"]:
        # Only this page, and only then, loads Telegram's script and its framed page.
        response._csp_update = {  # type: ignore[attr-defined]
            "script-src": ["https://telegram.org"],
            "frame-src": ["https://oauth.telegram.org"],
        }
    return response


@require_safe
def telegram_login_done(request):
    """Where the Login Widget sends its visitor back, with Telegram's signed fields."""
    if len(request.GET) > MAX_FIELDS + 1:
        return HttpResponseForbidden(_("This Telegram sign-in is not valid (any more)."))
    try:
        user = check(request.GET.dict(), settings.TELEGRAM_BOT_TOKEN)
    except InvalidLogin:
        return HttpResponseForbidden(_("This Telegram sign-in is not valid (any more)."))
    player = services.player_from_telegram(user.id, user.display_name, user.username)
    wanted = request.session.get(NEXT_KEY)
    bind(request, player, user.auth_date)
    target = _safe_next(request, wanted if isinstance(wanted, str) else None)
    return redirect(target or reverse("web:tournaments"))


# -- the bot's one-time links (``games.play.signin_links``) ------------------------------------
def bot_login_url() -> str:
    """The bot's deep link that answers with a one-time link; empty without a bot."""
    username = settings.TELEGRAM_BOT_USERNAME.lstrip("@")
    return f"https://t.me/{username}?start=login" if username else ""


@require_http_methods(["GET", "HEAD", "POST"])
def signin_link(request, token: str):
    """The bot's one-time link: a page with one button; its POST signs in."""
    gone = {"message": _("This sign-in link is not valid (any more): ask the bot for a new one.")}
    held = signin_links.peek(token)
    if held is None:
        return render(request, "web/refused.html", gone, status=404)
    player_id = held.get("player")
    player = (
        Player.objects.filter(pk=player_id, telegram_id__isnull=False).first()
        if isinstance(player_id, int)
        else None
    )
    if player is None:
        return render(request, "web/refused.html", gone, status=404)
    if request.method != "POST":
        return render(request, "web/signin_link.html", {"player": player})
    # Spent once: of two taps at once, the one whose delete removed it signs in.
    if not signin_links.spend(token):
        return render(request, "web/refused.html", gone, status=404)
    bind(request, player, int(time.time()))
    wanted = held.get("next")
    target = _safe_next(request, wanted if isinstance(wanted, str) else None)
    return redirect(target or reverse("web:tournaments"))
