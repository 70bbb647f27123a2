"""Playing in the browser: the sandbox ("Play now"), the join link, and the table page,
which is also the Telegram Mini App.

Who acts is ``actors``'s to say (the session, or the Mini App's ``initData``). Every
action names its actor to the services, which refuse nobody (``None``); a browser table
is joined with its invite link, its address alone lets a visitor watch. A move goes
through the same service as the bot's (``games.play.services.submit_move``: same
idempotency, same refusals). The page follows the game through the live push
(``web.live``: its stream, or its long poll), which this module does not import.
"""

from __future__ import annotations

import json
import uuid
from urllib.parse import urlencode

from django.conf import settings
from django.db import transaction
from django.http import Http404, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST, require_safe

from games import catalog
from games.play import completion, errors, levels, services
from games.play.models import Game, GameStatus, Player
from games.ratings import at_my_level

from . import limits, miniapp, params
from .actors import (
    INIT_DATA_HEADER,
    actor,
    bind,
    csrf_unless_init_data,
    from_mini_app,
    json_refusal,
    session_player,
)
from .framing import telegram_may_frame
from .ids import MAX_ID
from .tables import table_context

MAX_COMPUTERS = 5
COMPUTER_COUNTS = [str(n) for n in range(MAX_COMPUTERS + 1)]
# Bounds of what a page sends: a move (its action and its key).
MAX_ACTION = 500
MAX_KEY = 40
# Seat numbers as the database stores them.
MAX_SEAT = 2**15 - 1
# The lobby's "Play at my level" posts this instead of a level (issue 47).
AT_MY_LEVEL = "mine"
# What a visitor who is not the table's actor gets: who acts is refused before anything
# changes (games.play.services), and the page says why.
REFUSALS = (errors.NotAllowed, errors.InviteRequired, errors.TelegramLobby)


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
        kind = catalog.get(params.choice(request.POST.get("game", ""), "game", catalog.slugs()))
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
def table_game(pk: int) -> Game:
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
    game = table_game(pk)
    if from_mini_app(request):
        player, refused = actor(request)
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
            line.completion = records.get(line.player_id) if line.player_id is not None else None
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


def refuse(request, pk: int, exc: errors.GameError, invite: str = ""):
    """A refused lobby action: who may not act gets the table page with the reason and a
    403; any other refusal goes back to the table (with the invite link it came by).
    The Mini App's script gets the reason as JSON: 403, or 409 for any other refusal."""
    if from_mini_app(request):
        return json_refusal(str(exc), 403 if isinstance(exc, REFUSALS) else 409)
    if isinstance(exc, REFUSALS):
        return _table_page(request, table_game(pk), str(exc), status=403)
    request.session["play_error"] = str(exc)
    return redirect(_table_url(pk, invite))


def _done(request, pk: int):
    """A lobby action went through: back to the table, or ``ok`` for the Mini App's
    script, which then asks for the table again."""
    if from_mini_app(request):
        return JsonResponse({"ok": True, "message": ""})
    return redirect("web:table", pk=pk)


@csrf_unless_init_data
@require_POST
@params.strict
def move(request, pk: int):
    player, refused = actor(request)
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
    game = table_game(pk)
    invite = request.POST.get("invite", "")
    me, refused = actor(request)
    if refused:
        return refused
    back = invite if services.invited(game, invite) else ""
    if me is not None and me.in_telegram:
        try:
            if game.chat_id is not None:
                raise errors.TelegramLobby()
            services.join(game, me, invite)
        except errors.GameError as exc:
            return refuse(request, pk, exc, back)
        return _done(request, pk)
    try:
        with transaction.atomic():
            player = services.browser_player(
                request.POST.get("name", ""), translation.get_language(), me
            )
            services.join(game, player, invite)
    except errors.GameError as exc:
        return refuse(request, pk, exc, back)
    bind(request, player)
    return _done(request, pk)


@csrf_unless_init_data
@require_POST
def start(request, pk: int):
    game = table_game(pk)
    player, refused = actor(request)
    if refused:
        return refused
    try:
        services.start(game, by=player)
    except errors.GameError as exc:
        return refuse(request, pk, exc)
    return _done(request, pk)


@csrf_unless_init_data
@require_POST
@params.strict
def computer(request, pk: int):
    """The creator's lobby choices about computers (issue 14): a ``seat`` changes that
    computer's level; without one, a computer sits down at the ``level`` chosen."""
    game = table_game(pk)
    player, refused = actor(request)
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
        if from_mini_app(request):
            return json_refusal(exc.message, 429)
        request.session["play_error"] = exc.message
    except errors.GameError as exc:
        return refuse(request, pk, exc)
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
        if from_mini_app(request):
            return json_refusal(exc.message, 429)
        request.session["play_error"] = exc.message
    except errors.GameError as exc:
        return refuse(request, game.pk, exc)
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
