"""Slash commands: /start /help /rules /new /cancel /stats /standings /lang /settings
(/tournament is in ``bot.tournaments.handlers``)."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext as _
from telegram import Update
from telegram.ext import ContextTypes

from bot import callbacks, sync
from bot.handlers.common import db, is_chat_admin, is_group, player_for, send
from bot.handlers.settings_menu import join_league, settings_screen
from bot.keyboard import Button, Rows
from bot.models import ChatSettings
from bot.render.common import esc, rating_text
from bot.texts import help_text, rules_text
from games import catalog
from games.languages import Language, native_name
from games.leagues.services import league_for_chat
from games.play import services, signin_links
from games.play.errors import GameError, NotAllowed
from games.play.models import GameStatus, Player, Seat
from games.ratings.models import Rating
from server.links import absolute


def game_from_arg(args: list[str] | None) -> str | None:
    """The game named after a command (``/new <alias>``): its slug, "" for an unknown
    name, None when none was given."""
    if not args:
        return None
    kind = catalog.find(args[0])
    return kind.slug if kind else ""


def chat_settings_for(chat, creator: Player | None = None) -> ChatSettings:
    """The group's settings, created on first use in the creator's language."""
    found = ChatSettings.objects.filter(chat_id=chat.id).first()
    if found:
        return found
    found, _created = ChatSettings.objects.get_or_create(
        chat_id=chat.id,
        defaults={
            "title": (chat.title or "")[:255],
            "language": creator.language if creator else settings.LANGUAGE_CODE,
        },
    )
    return found


def reply_language(chat, player: Player) -> str:
    """What is posted in a group is read by all: the chat's language; else the player's."""
    if is_group(chat):
        return chat_settings_for(chat, player).language
    return player.language


def games_keyboard(kind: str, slugs) -> list[list[Button]]:
    games = [catalog.get(s) for s in slugs]
    buttons = [Button(f"{g.emoji} {g.name}", callbacks.plain(kind, g.slug)) for g in games]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


# -- /start and /help ---------------------------------------------------------------------------


@db
def _start(user, chat, payload: str) -> str:
    player = player_for(user)
    if chat.type != "private":
        with translation.override(player.language):
            return help_text()
    services.set_reachable(player, True)
    # Lobbies that waited for this player, and games whose messages they missed.
    sync.request_sync_for_player(player)
    with translation.override(player.language):
        lines = [
            "✅ "
            + _("Hello %(name)s! I can now send you your cards.") % {"name": esc(user.first_name)}
        ]
        if payload.startswith("g") and payload[1:].isdigit():
            lines.append(_("Go back to the group: the game will start when everyone is ready."))
        if payload.startswith("t") and payload[1:].isdigit():
            lines.append(_("Your tournament seats and cards will come here."))
        lines += ["", help_text()]
        return "\n".join(lines)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    payload = context.args[0] if context.args else ""
    if payload == "login" and update.effective_chat.type == "private":
        # Issue 45: the site's "Sign in with Telegram" (https://t.me/<bot>?start=login).
        text, rows = await _signin_link(update.effective_user)
        await send(context.bot, update.effective_chat.id, text, rows)
        return
    text = await _start(update.effective_user, update.effective_chat, payload)
    await send(context.bot, update.effective_chat.id, text)


def signin_url(player, next_path: str = "") -> str:
    """A one-time link that signs a browser in on the site as ``player`` (issue 45)."""
    return absolute("web:signin-link", signin_links.issue(player.pk, next_path))


@db
def _signin_link(user) -> tuple[str, Rows]:
    player = player_for(user)
    with translation.override(player.language):
        text = _(
            "Here is your link to sign in on the site. It works once, within 10 minutes: "
            "open it in the browser you want to use."
        )
        return text, [[Button("🔑 " + _("Sign in on the site"), url=signin_url(player))]]


@db
def _in_language(user, chat, render) -> str:
    """Render in the chat's language in a group, the player's in private."""
    with translation.override(reply_language(chat, player_for(user))):
        return render()


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    text = await _in_language(update.effective_user, update.effective_chat, help_text)
    await send(context.bot, update.effective_chat.id, text)


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    slug = game_from_arg(context.args)
    if slug:
        text = await _in_language(
            update.effective_user, update.effective_chat, lambda: rules_text(slug)
        )
        await send(context.bot, update.effective_chat.id, text)
        return

    def picker():
        return _("Which game?"), games_keyboard("r", catalog.slugs())

    text, rows = await _in_language(update.effective_user, update.effective_chat, picker)
    await send(context.bot, update.effective_chat.id, text, rows)


# -- /new and /cancel ---------------------------------------------------------------------------


@db
def create_lobby(
    user, chat, slug: str | None, *, again_of: int | None = None
) -> tuple[str, list] | None:
    """Open a lobby (the lobby message itself comes from the sync). Returns a reply to
    send, if any: the game picker, or why no lobby was opened."""
    player = player_for(user)
    with translation.override(reply_language(chat, player)):
        if not is_group(chat):
            return _("Games are played in groups: add me to a group and send /new there."), []
        chat_settings = chat_settings_for(chat, player)
        enabled = [s for s in catalog.slugs() if chat_settings.game_enabled(s)]
        if slug is None:
            if not enabled:
                return _("No game is enabled in this group (see /settings)."), []
            return "🎲 " + _("Which game shall we play?"), games_keyboard("n", enabled)
        if slug == "":
            return _("I do not know that game. Try /new without a name."), []
        if slug not in enabled:
            return _("That game is switched off in this group."), []
        try:
            game = services.create_lobby(
                chat.id,
                slug,
                player,
                league=league_for_chat(chat.id),
                turn_seconds=chat_settings.turn_seconds,
                auto_play=chat_settings.auto_play,
            )
            # "Play again" (issue 45): the computers of the game it follows, at their levels.
            # Never read when `again_of` is None (the loop below).
            computers = Seat.objects.filter(
                game_id=again_of,  # type: ignore[misc]
                game__chat_id=chat.id,
                game__game_type=slug,
                player=None,
            ).order_by("number")
            for seat in computers if again_of is not None else []:
                services.add_computer(game, seat.strategy, by=player)
        except GameError as exc:
            return str(exc), []
    return None


async def new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    slug = game_from_arg(context.args)
    reply = await create_lobby(update.effective_user, update.effective_chat, slug)
    if reply:
        await send(context.bot, update.effective_chat.id, *reply)


@db
def _open_game(user, chat):
    player = player_for(user)
    game = services.open_game(chat.id) if is_group(chat) else None
    return player, game, reply_language(chat, player)


@db
def _abort(player, game, is_admin, language) -> str:
    """/cancel: a lobby closes; a running game ends as a forfeit of the player who
    cancels it (rated as last), and only a player at the table may cancel it."""
    with translation.override(language):
        running = game.status == GameStatus.RUNNING
        try:
            services.abort(game, by=player, is_chat_admin=is_admin)
        except GameError as exc:
            if running and isinstance(exc, NotAllowed):
                return _(
                    "Only a player at the table may stop a running game, and it counts as "
                    "their forfeit. Ask a moderator to abort it otherwise."
                )
            return str(exc)
        if running:
            return _("The game was cancelled: %(name)s forfeits it and is rated as last.") % {
                "name": esc(player.display_name)
            }
        return _("The game was cancelled.")


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    player, game, language = await _open_game(update.effective_user, update.effective_chat)
    if game is None:
        text = await db(_no_game)(language)
    else:
        admin = player.pk != game.created_by_id and await is_chat_admin(
            context.bot, game.chat_id, update.effective_user.id
        )
        text = await _abort(player, game, admin, language)
    await send(context.bot, update.effective_chat.id, text)


def _no_game(language) -> str:
    with translation.override(language):
        return _("There is no game to cancel here.")


# -- /stats and /standings ---------------------------------------------------------------------


@db
def _stats(user, chat) -> str:
    player = player_for(user)
    with translation.override(reply_language(chat, player)):
        finished = Seat.objects.filter(player=player, game__status=GameStatus.FINISHED)
        played = {
            row["game__game_type"]: row["n"]
            for row in finished.values("game__game_type").annotate(n=Count("id"))
        }
        wins = dict.fromkeys(catalog.slugs(), 0)
        for seat in finished.select_related("game").only(
            "number", "game__result", "game__game_type"
        ):
            result = seat.game.outcome
            if result is not None and seat.number in result.winners:
                wins[seat.game.game_type] += 1
        ratings = {
            r.game_type: r for r in Rating.objects.filter(player=player, league__isnull=True)
        }
        lines = ["📊 <b>" + _("Your games, %(name)s") % {"name": esc(player.display_name)} + "</b>"]
        for slug in catalog.slugs():
            if slug not in played:
                continue
            kind = catalog.get(slug)
            line = f"{kind.emoji} {esc(kind.name)}: " + _("%(played)d played, %(won)d won") % {
                "played": played[slug],
                "won": wins[slug],
            }
            if slug in ratings:
                line += " · " + rating_text(ratings[slug].shown)
            lines.append(line)
        if len(lines) == 1:
            lines.append(_("No finished games yet. Send /new in a group!"))
        running = Seat.objects.filter(player=player, game__status=GameStatus.RUNNING).count()
        if running:
            lines.append(_("Playing now: %(count)d") % {"count": running})
        lines.append(_("Your page: %(url)s") % {"url": absolute("web:player", player.pk)})
        return "\n".join(lines)


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await send(
        context.bot,
        update.effective_chat.id,
        await _stats(update.effective_user, update.effective_chat),
    )


def standings_text(chat_id: int | None) -> str:
    league = league_for_chat(chat_id) if chat_id is not None else None
    if league is None:
        return "🏆 " + _("All leagues: %(url)s") % {"url": absolute("web:leagues")}
    return "🏆 " + _("Standings of %(league)s: %(url)s") % {
        "league": esc(league.name),
        "url": absolute("web:league", league.slug),
    }


async def standings(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat = update.effective_chat
    text = await _in_language(
        update.effective_user, chat, lambda: standings_text(chat.id if is_group(chat) else None)
    )
    await send(context.bot, chat.id, text)


# -- /lang and /settings ---------------------------------------------------------------------------


def _mark(chosen: bool) -> str:
    return "✓ " if chosen else ""


def language_keyboard(current: str):
    return [
        [
            Button(
                ("✓ " if code == current else "") + native_name(code), callbacks.plain("L", code)
            )
            for code in Language.values
        ]
    ]


@db
def _lang(user):
    player = player_for(user)
    with translation.override(player.language):
        return _("Your language for private messages:"), language_keyboard(player.language)


async def lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    text, rows = await _lang(update.effective_user)
    await send(context.bot, update.effective_chat.id, text, rows)


@db
def _settings_or_refusal(user, chat, admin: bool, code: str = ""):
    """The group's settings; ``/settings <code>`` first joins the league of that code."""
    player = player_for(user)
    with translation.override(reply_language(chat, player)):
        if not is_group(chat):
            return _("Use /settings in a group, as one of its administrators."), []
        if not admin:
            return _("Only the group's administrators may change its settings."), []
    chat_settings = chat_settings_for(chat, player)
    if code:
        return join_league(chat_settings, code, chat.title or "")
    return settings_screen(chat_settings)


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat = update.effective_chat
    code = " ".join(context.args or [])
    admin = is_group(chat) and await is_chat_admin(context.bot, chat.id, update.effective_user.id)
    text, rows = await _settings_or_refusal(update.effective_user, chat, admin, code)
    await send(context.bot, chat.id, text, rows)
