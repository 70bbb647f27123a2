"""Playing in the browser: the sandbox ("Play now"), the join link, and the table page,
which is also the Telegram Mini App.

Who is playing comes from the server only: a browser player from the session, a Telegram
user from ``initData`` validated on every request that acts (``miniapp``), or from the
session the Mini App signed in, until ``MINIAPP_MAX_AGE`` after Telegram signed that
``initData``. In Telegram's web clients (a cross-site iframe: no cookie of ours) the Mini
App's script sends the lobby's forms and asks for the table page with that header too.
Every action names its actor to the services, which refuse nobody (``None``); a browser
table is joined with its invite link, its address alone lets a visitor watch.
The session's key changes whenever a player is bound to it (no fixation). A move goes
through the same service as the bot's (``games.play.services.submit_move``: same
idempotency, same refusals). The page follows the game by long polling on a change token:
each ``state`` request waits, up to ``TABLE_WAIT_SECONDS``, for the table to change.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import time
import uuid
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import transaction
from django.http import Http404, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect, ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST, require_safe

from games import catalog
from games.play import completion, errors, levels, services
from games.play.models import Game, GameStatus, Player
from games.ratings import at_my_level

from . import changes, limits, miniapp, notify, params
from .framing import telegram_may_frame
from .tables import table_context
from .waits import changed_token, let_go_of_the_request_thread, payload, released

SESSION_KEY = "catclub_player"
INIT_DATA_HEADER = "X-Telegram-Init-Data"
# When Telegram signed the ``initData`` the Mini App signed in with (its ``auth_date``).
SESSION_AUTH_DATE = "catclub_auth_date"
# When a page whose poll found no place to wait asks again (``_ask_again``): soon, so that
# a change shows within a fraction of a second; its next poll costs a cache read.
RETRY_MS = 250
MAX_COMPUTERS = 5
COMPUTER_COUNTS = [str(n) for n in range(MAX_COMPUTERS + 1)]
# Bounds of what a page sends: a change token and a move (its action and its key).
MAX_TOKEN = 100
MAX_ACTION = 500
MAX_KEY = 40
# Seat numbers and game ids as the database stores them.
MAX_SEAT = 2**15 - 1
# The lobby's "Play at my level" posts this instead of a level (issue 47).
AT_MY_LEVEL = "mine"
MAX_ID = 2**63 - 1
# What a visitor who is not the table's actor gets: who acts is refused before anything
# changes (games.play.services), and the page says why.
REFUSALS = (errors.NotAllowed, errors.InviteRequired, errors.TelegramLobby)


class SignInExpired(miniapp.InvalidInitData):
    """The session's Telegram player signed in longer than ``MINIAPP_MAX_AGE`` ago."""


# -- who is playing ---------------------------------------------------------------------
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


def _sign_in_refusal(exc: miniapp.InvalidInitData) -> str:
    if isinstance(exc, SignInExpired):
        return _("Your Telegram sign-in has expired: open the table from Telegram again.")
    return _("This Telegram sign-in is not valid (any more).")


def _player_or_403(request):
    try:
        return acting_player(request), None
    except miniapp.InvalidInitData as exc:
        return None, HttpResponseForbidden(_sign_in_refusal(exc))


def _from_mini_app(request) -> bool:
    """The Mini App's script asks (``initData`` in its header): it gets JSON back."""
    return INIT_DATA_HEADER in request.headers


def _actor(request):
    """Who acts in a request that changes something (a move, a lobby action): the player
    (None: nobody) and no answer, or no player and the 403 that refuses the request. The
    Mini App's script, which signs with its header, reads the refusal as JSON."""
    try:
        return acting_player(request), None
    except miniapp.InvalidInitData as exc:
        if _from_mini_app(request):
            return None, _json_refusal(_sign_in_refusal(exc), 403)
        return None, HttpResponseForbidden(_sign_in_refusal(exc))


def _json_refusal(message: str, status: int) -> JsonResponse:
    return JsonResponse({"ok": False, "message": message}, status=status)


# -- the sandbox ------------------------------------------------------------------------
def _new_table_page(request, error: str = "", status: int = 200):
    """The new table form, with ``error`` above it when the last one was refused, and
    then filled in with what was sent: a refusal names one field, and the person corrects
    that one instead of choosing the game, the computers and their levels again."""
    player = session_player(request)
    sent = request.POST
    asked = sent.getlist("level")[:MAX_COMPUTERS]
    computers = sent.get("computers", "3")
    return render(
        request,
        "web/play_new.html",
        {
            # Each game's ladder with its ratings (issue 47), for the script to label the
            # level menus with the chosen game's numbers.
            "games": [
                (
                    kind,
                    bool(levels.offered(kind)),
                    json.dumps(dict(levels.choices(kind)), ensure_ascii=False),
                )
                for kind in catalog.all_games()
            ],
            # A value the form does not offer comes back as its default.
            "game": sent.get("game") if sent.get("game") in catalog.slugs() else "",
            "name": sent.get("name", player.display_name if player else ""),
            # Telegram names its users: no name to type (create_table seats them as such).
            "in_telegram": player is not None and player.in_telegram,
            "computer_count": computers if computers in COMPUTER_COUNTS else "3",
            "computers": [
                (n, asked[n - 1] if n <= len(asked) and asked[n - 1] in levels.LABELS else "")
                for n in range(1, MAX_COMPUTERS + 1)
            ],
            "counts": COMPUTER_COUNTS,
            "levels": [(value, str(name)) for value, name in levels.LABELS.items()],
            "friends": sent.get("friends") == "1",
            "error": error,
        },
        status=status,
    )


@require_safe
def new_table(request):
    return _new_table_page(request)


@require_POST
def create_table(request):
    try:
        kind = catalog.get(params.choice(request.POST.get("game"), "game", catalog.slugs()))
        computers = params.integer(
            request.POST.get("computers"), "computers", maximum=MAX_COMPUTERS, default=0
        )
        computers = min(computers, kind.max_players - 1)
        # One level per computer, in seat order (issue 14); a game without it plays its own.
        asked = request.POST.getlist("level")[:MAX_COMPUTERS]
        chosen = [params.choice(level, "level", levels.LABELS) for level in asked][:computers]
    except params.BadParameter as exc:
        return _new_table_page(request, exc.message, status=400)
    me = session_player(request)
    if request.POST.get("at_my_level") == "1":
        # "Play at my level" (issue 47): every computer at the level nearest my rating.
        chosen = [_my_level(me, kind, computers, computers + 1)] * computers
    chosen += [levels.NORMAL] * (computers - len(chosen))
    strategies = [levels.strategy_for(kind, level) for level in chosen]
    try:
        limits.check_hard_computers(me, strategies.count("hard"))
        # All or nothing: a computer that cannot sit down leaves no lobby (nor a new
        # player) behind.
        with limits.table_creation(request), transaction.atomic():
            # A Telegram user (the Mini App's sign-in) sits down as Telegram names them:
            # their games and rating stay theirs, not a new browser player's.
            if me is not None and me.in_telegram:
                player = me
            else:
                player = services.browser_player(
                    request.POST.get("name", ""), translation.get_language(), me
                )
            game = services.create_lobby(None, kind.slug, player)
            for strategy in strategies:
                services.add_computer(game, strategy, by=player)
            if 1 + computers >= kind.min_players and request.POST.get("friends") != "1":
                services.start(game, by=player)
    except limits.LimitReached as exc:
        return _new_table_page(request, exc.message, status=429)
    except errors.GameError as exc:
        return _new_table_page(request, str(exc), status=400)
    if not player.in_telegram:  # a Telegram player's session is theirs already
        bind(request, player)
    return redirect("web:table", pk=game.pk)


# -- the table --------------------------------------------------------------------------
def _game(pk: int) -> Game:
    game = Game.objects.select_related("league").filter(pk=pk).first()
    if game is None:
        raise Http404(_("There is no such game."))
    return game


def _table_url(pk: int, invite: str = "") -> str:
    url = reverse("web:table", args=[pk])
    return f"{url}?{urlencode({'invite': invite})}" if invite else url


@telegram_may_frame
@require_safe
@ensure_csrf_cookie
def table(request, pk: int):
    """The table page. The Mini App's script asks for it again with ``initData`` in its
    header (Telegram's web clients keep no cookie of ours in their iframe, so the page as
    first loaded knows nobody): then it is the page of that Telegram user, and a forged or
    expired ``initData`` is refused (403)."""
    game = _game(pk)
    if _from_mini_app(request):
        player, refused = _actor(request)
        if refused:
            return refused
        response = _table_page(request, game, None, player=player)
    else:
        response = _table_page(request, game, request.session.pop("play_error", None))
    patch_vary_headers(response, [INIT_DATA_HEADER])
    return response


def _table_page(
    request, game: Game, error: str | None, status: int = 200, player: Player | None = None
):
    """The table page, for ``player`` or else the session's. A browser lobby's invite
    link is shown to the people at the table (its creator shares it; a friend seated by it
    may pass it on, and holds it anyway), never to a visitor: the join form is offered only
    to one who came by that link."""
    player = player or session_player(request)
    t = table_context(game, player)
    lobby = game.status == GameStatus.LOBBY
    if lobby:
        # Issue 26: who is at the table and how often they see a game through, in one
        # query for every seat.
        records = completion.records(line.player_id for line in t.seats)
        for line in t.seats:
            line.completion = records.get(line.player_id)
    invite = request.GET.get("invite", "")
    seated = t.seat is not None or (player is not None and player.pk == game.created_by_id)
    return render(
        request,
        "web/play_table.html",
        {
            "t": t,
            "player": player,
            "invite_url": (
                request.build_absolute_uri(_table_url(game.pk, game.invite))
                if lobby and game.invite and seated
                else ""
            ),
            "telegram_lobby": lobby and game.chat_id is not None,
            "can_join": lobby
            and t.seat is None
            and len(t.seats) < t.kind.max_players
            and services.invited(game, invite),
            "invite": invite,
            "is_creator": player is not None and player.pk == game.created_by_id,
            "levels": levels.choices(game.kind, max(len(t.seats), game.kind.min_players)),
            "error": error,
        },
        status=status,
    )


def _refused(request, pk: int, exc: errors.GameError, invite: str = ""):
    """A refused lobby action: who may not act gets the table page with the reason and a
    403; any other refusal goes back to the table (with the invite link it came by).
    The Mini App's script gets the reason as JSON: 403, or 409 for any other refusal."""
    if _from_mini_app(request):
        return _json_refusal(str(exc), 403 if isinstance(exc, REFUSALS) else 409)
    if isinstance(exc, REFUSALS):
        return _table_page(request, _game(pk), str(exc), status=403)
    request.session["play_error"] = str(exc)
    return redirect(_table_url(pk, invite))


def _done(request, pk: int):
    """A lobby action went through: back to the table, or ``ok`` for the Mini App's
    script, which then asks for the table again."""
    if _from_mini_app(request):
        return JsonResponse({"ok": True, "message": ""})
    return redirect("web:table", pk=pk)


@require_GET
@params.strict
async def state(request, pk: int):
    """The table as this viewer sees it, once it differs from ``token`` (long polling).
    ``wait``: at most this many seconds (up to ``TABLE_WAIT_SECONDS``, the default).
    A poll waits on this process's hub (``waits.changed_token``), holding no thread under
    ASGI; one that would wait while this process has no place for it is answered at once:
    429 with ``retry_ms``, when the page asks again (``_ask_again``). A wait that ends with
    no change answers the token alone (``_unchanged``)."""
    seen = params.text(request.GET.get("token"), "token", max_length=MAX_TOKEN)
    limit = settings.TABLE_WAIT_SECONDS
    wait = params.number(request.GET.get("wait"), "wait", maximum=limit, default=limit)
    deadline = time.monotonic() + wait
    try:
        # First, so that a poll over the limit costs no query.
        slot = await released(limits.take_live_slot, shared=True)(request, limit)
    except limits.LimitReached as exc:
        await limits.hold_refusal(request)
        return await sync_to_async(params.refused)(request, exc.message, 429)
    try:
        return await _changed_table(request, pk, seen, deadline)
    finally:
        await released(limits.give_back_live_slot, shared=True)(slot)


async def _changed_table(request, pk: int, seen: str, deadline: float):
    """The table once its change token is no longer ``seen`` (or at ``deadline``)."""
    # Under ASGI the reads go to the loop's shared pool of threads, and the wait lets go of
    # the request's own; under WSGI the request owns its thread anyway (and a test's
    # transaction is seen only there).
    asgi = isinstance(request, ASGIRequest)
    current = await released(changes.token, shared=asgi)(pk)
    if current is None:
        raise Http404
    if current != seen:
        return await _table_json(request, pk, current, asgi)
    if time.monotonic() >= deadline:
        _player, refused = await released(_player_or_403, shared=asgi)(request)
        return refused or _unchanged(current)
    with _place_to_wait(asgi) as placed:
        if not placed:
            return _ask_again()
        player, refused = await released(_player_or_403, shared=asgi)(request)
        if refused:
            return refused
        let_go_of_the_request_thread()
        language = translation.get_language() if player is None else None
        current = await changed_token(pk, seen, deadline, shared=asgi, language=language)
    if current is None:
        raise Http404
    if current == seen:
        return _unchanged(current)
    return JsonResponse(await payload(pk, current, player, translation.get_language(), asgi))


def _unchanged(token: str) -> JsonResponse:
    """The answer of a poll whose table did not change: its page has that table already
    (it keeps what it shows when the token is the one it sent). Rendering it again for
    every poll that waited in vain, five seconds each, was most of what a page left open
    on a quiet lobby cost the server."""
    return JsonResponse({"token": token})


async def _table_json(request, pk: int, current: str, asgi: bool) -> JsonResponse:
    player, refused = await released(_player_or_403, shared=asgi)(request)
    if refused:
        return refused
    return JsonResponse(await payload(pk, current, player, translation.get_language(), asgi))


def _place_to_wait(asgi: bool):
    """Under ASGI a waiting poll is one more of the hub's connections (a coroutine, no
    thread), as many as ``LIVE_STREAMS_PER_PROCESS`` allows; under WSGI it holds one of
    the process's threads, and only ``LONG_POLLS_PER_PROCESS`` may."""
    if asgi:
        return contextlib.nullcontext(not notify.hub.full())
    return limits.parked_poll()


def _ask_again() -> JsonResponse:
    """This process has as many polls waiting as it may hold: the page asks again in a
    moment (a change shows then, at once). Not a refusal of the visitor: nothing to say."""
    response = JsonResponse({"ok": False, "retry_ms": RETRY_MS}, status=429)
    response["Retry-After"] = str(math.ceil(RETRY_MS / 1000))
    return response


@csrf_unless_init_data
@require_POST
@params.strict
def move(request, pk: int):
    player, refused = _actor(request)
    if refused:
        return refused
    if player is None:
        return JsonResponse({"ok": False, "message": _("Take a seat first.")}, status=403)
    action = params.text(request.POST.get("action"), "action", max_length=MAX_ACTION)
    key = params.text(request.POST.get("key"), "key", max_length=MAX_KEY)
    key = f"web:{player.pk}:" + (key or uuid.uuid4().hex)  # per player: see KeyTaken
    version = params.integer(request.POST.get("version"), "version", maximum=MAX_ID)
    with translation.override(player.language if player.in_telegram else None):
        try:
            services.submit_move(pk, player, action, key, version)
        except errors.GameError as exc:
            return JsonResponse({"ok": False, "message": str(exc)}, status=409)
    return JsonResponse({"ok": True, "message": ""})


@csrf_unless_init_data
@require_POST
def join(request, pk: int):
    """A player sits down with the table's invite token. A refusal changes nothing: not
    even the name, or a new player. A browser player gives a name and is bound to the
    session; a Telegram player (the Mini App's header, or its sign-in in the session)
    sits down as Telegram names them, at a browser table only: a group's lobby is joined
    in the group, where the bot sees who is a member (anyone may open the Mini App)."""
    game = _game(pk)
    invite = request.POST.get("invite", "")
    me, refused = _actor(request)
    if refused:
        return refused
    back = invite if services.invited(game, invite) else ""
    if me is not None and me.in_telegram:
        try:
            if game.chat_id is not None:
                raise errors.TelegramLobby()
            services.join(game, me, invite)
        except errors.GameError as exc:
            return _refused(request, pk, exc, back)
        return _done(request, pk)
    try:
        with transaction.atomic():
            player = services.browser_player(
                request.POST.get("name", ""), translation.get_language(), me
            )
            services.join(game, player, invite)
    except errors.GameError as exc:
        return _refused(request, pk, exc, back)
    bind(request, player)
    return _done(request, pk)


@csrf_unless_init_data
@require_POST
def start(request, pk: int):
    game = _game(pk)
    player, refused = _actor(request)
    if refused:
        return refused
    try:
        services.start(game, by=player)
    except errors.GameError as exc:
        return _refused(request, pk, exc)
    return _done(request, pk)


@csrf_unless_init_data
@require_POST
@params.strict
def computer(request, pk: int):
    """The creator's lobby choices about computers (issue 14): a ``seat`` changes that
    computer's level; without one, a computer sits down at the ``level`` chosen."""
    game = _game(pk)
    player, refused = _actor(request)
    if refused:
        return refused
    level = request.POST.get("level", "")
    seat = params.integer(request.POST.get("seat"), "seat", maximum=MAX_SEAT)
    if level == AT_MY_LEVEL:
        return _at_my_level(request, game, player)
    try:
        if level not in levels.offered(game.kind):
            raise errors.GameError()
        if levels.strategy_for(game.kind, level) == "hard":
            others = game.seats.filter(player__isnull=True, strategy="hard")
            if seat is not None:
                others = others.exclude(number=seat)
            limits.check_hard_computers(player, others.count() + 1)
        if seat is None:
            services.add_computer(game, levels.strategy_for(game.kind, level), by=player)
        else:
            services.set_computer_level(game, seat, level, by=player)
    except limits.LimitReached as exc:
        if _from_mini_app(request):
            return _json_refusal(exc.message, 429)
        request.session["play_error"] = exc.message
    except errors.GameError as exc:
        return _refused(request, pk, exc)
    return _done(request, pk)


def _my_level(player, kind: catalog.GameKind, computers: int, players: int) -> str:
    """The level nearest ``player``'s rating, one below where a table signed out of Telegram
    may not have that many hard computers (``limits``): as near as the table allows."""
    level = at_my_level.level_for(player, kind, players)
    if levels.strategy_for(kind, level) == "hard":
        try:
            limits.check_hard_computers(player, computers)
        except limits.LimitReached:
            offered = levels.offered(kind)
            level = offered[offered.index(level) - 1]
    return level


def _at_my_level(request, game: Game, player):
    """ "Play at my level" in a lobby (issue 47): every computer at the table moves to the
    level whose rating is nearest the creator's in this game (one sits down when none
    has yet)."""
    seats = list(game.seats.all())
    computers = [s.number for s in seats if s.player_id is None]
    players = max(len(seats), game.kind.min_players)
    level = _my_level(player, game.kind, max(len(computers), 1), players)
    try:
        if not computers:
            services.add_computer(game, levels.strategy_for(game.kind, level), by=player)
        for number in computers:
            services.set_computer_level(game, number, level, by=player)
    except limits.LimitReached as exc:
        if _from_mini_app(request):
            return _json_refusal(exc.message, 429)
        request.session["play_error"] = exc.message
    except errors.GameError as exc:
        return _refused(request, game.pk, exc)
    return _done(request, game.pk)


# -- the Telegram Mini App ----------------------------------------------------------------
@telegram_may_frame
@require_safe
@ensure_csrf_cookie
def miniapp_entry(request):
    """Where the Mini App opens: the page reads Telegram's ``initData`` and signs in."""
    return render(request, "web/miniapp.html")


@csrf_unless_init_data
@require_POST
def miniapp_signin(request):
    """The Mini App's sign-in: validated ``initData`` (in its header, or the form's
    ``init_data`` with a CSRF token) puts its Telegram user in the session and says which
    table to open (``startapp=<game id>``). In Telegram's web clients the session cookie
    may not survive the iframe: the table then acts by the header alone."""
    raw = request.headers.get(INIT_DATA_HEADER) or request.POST.get("init_data")
    try:
        data = miniapp.validate(raw, settings.TELEGRAM_BOT_TOKEN, settings.MINIAPP_MAX_AGE)
    except miniapp.InvalidInitData:
        return HttpResponseForbidden(_("This Telegram sign-in is not valid (any more)."))
    user = data.user
    player = services.player_from_telegram(
        user.id, user.display_name, user.username, user.language_code
    )
    bind(request, player, data.auth_date)
    target = reverse("web:play")
    try:
        wanted = params.integer(data.start_param, "start_param", minimum=1, maximum=MAX_ID)
    except params.BadParameter:  # Telegram passes any text: a link not to a table
        wanted = None
    if wanted is not None and Game.objects.filter(pk=wanted).exists():
        target = reverse("web:table", args=[wanted])
    return JsonResponse({"url": target})
