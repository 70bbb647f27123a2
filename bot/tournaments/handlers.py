"""/tournament (issue 26): a group's administrators organise a tournament of the group's
league in a few taps (the game, the format, the rounds or the duration, the start), and
the last tap turns the organiser's message into the tournament's announcement: sign-up and
withdrawal by button (``games.tournaments.entries``, its refusals as the tap's answer), the
administrators' "start now" and "cancel", and the tournament's page.

Every tap is checked again in full: an organiser's step by an administrator of the group
it is in, with choices the bot offers (``bot.callbacks.organising``); an announcement's
button against its tournament and its group. The announcement is edited by the tap that
changed it, and by the tournament's news (``bot.tournaments.posts``).
"""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from telegram import Update
from telegram.ext import Application, CommandHandler, ContextTypes

from bot import callbacks
from bot.callbacks import Organising
from bot.handlers import buttons
from bot.handlers.commands import chat_settings_for, reply_language, signin_url
from bot.handlers.common import (
    Reply,
    db,
    is_chat_admin,
    is_group,
    language_of,
    player_for,
    send,
)
from bot.keyboard import Button, Rows, grid
from bot.models import TournamentMessages
from bot.render.common import esc
from bot.tournaments import posts, render
from games import catalog
from games.leagues.services import league_for_chat, organised_leagues
from games.play.errors import GameError
from games.play.tasks import schedule
from games.tournaments import entries, rounds
from games.tournaments import tasks as tourney_tasks
from games.tournaments.models import Format, Status, Tournament

ROUND_CHOICES = (2, 3, 4, 5, 6)  # a Swiss tournament's rounds
MINUTE_CHOICES = (10, 20, 30, 60)  # an arena's window
START_CHOICES = (5, 10, 30, 60)  # minutes from now to the start
TABLE_SIZE = 4  # players per table, where the game allows it


def admins_only() -> str:
    return _("Only the group's administrators may organise a tournament.")


async def may_organise(bot, chat_id: int, user) -> bool:
    """A group's administrators organise, start and cancel its tournaments; so do, since
    issue 45, the organisers of the group's league (``LeagueMember.is_organiser``)."""
    return await is_chat_admin(bot, chat_id, user.id) or await _organises(chat_id, user)


@db
def _organises(chat_id: int, user) -> bool:
    league = league_for_chat(chat_id)
    return league is not None and league in organised_leagues(player_for(user))


# -- /tournament --------------------------------------------------------------------------
async def tournament_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, user = update.effective_chat, update.effective_user
    admin = is_group(chat) and await may_organise(context.bot, chat.id, user)
    text, rows = await _first_step(user, chat, admin)
    await send(context.bot, chat.id, text, rows)


@db
def _first_step(user, chat, admin: bool) -> tuple[str, Rows]:
    player = player_for(user)
    with translation.override(reply_language(chat, player)):
        if not is_group(chat):
            return _in_private(player)
        if not admin:
            return admins_only(), []
        return organiser_step(chat, Organising()) or (_("That is not possible now."), [])


def _in_private(player) -> tuple[str, Rows]:
    """Issue 45: in private, a league's organiser gets the site's form for each league
    they run, behind a one-time link that signs their browser in; anyone else, the way a
    group's administrators organise one."""
    group_way = _("Use /tournament in a group, as one of its administrators.")
    leagues = organised_leagues(player)
    if not leagues:
        return group_way, []
    form = reverse("web:tournament-new")
    rows = [
        [
            Button(
                "🏆 " + league.name,
                url=signin_url(player, f"{form}?{urlencode({'league': league.slug})}"),
            )
        ]
        for league in leagues
    ]
    lines = [
        "🏆 <b>" + _("New tournament") + "</b>",
        _(
            "You organise these leagues: open the form of one on the site (the button signs "
            "you in there, once, within 10 minutes)."
        ),
        group_way,
    ]
    return "\n".join(lines), rows


def _games(chat, league) -> list[str]:
    """The games a tournament here may be of: counted by the league, on in the group."""
    cs = chat_settings_for(chat)
    return [s for s in catalog.slugs() if league.counts(s) and cs.game_enabled(s)]


def _durations(fmt: str) -> tuple[int, ...]:
    durations: dict[str, tuple[int, ...]] = {
        Format.SWISS: ROUND_CHOICES,
        Format.ARENA: MINUTE_CHOICES,
        Format.KNOCKOUT: (0,),
    }
    return durations[fmt]


def organiser_step(chat, choice: Organising) -> tuple[str, Rows] | None:
    """The organiser's message for the choices made so far (in the active language);
    None when a choice is not one the bot offers here."""
    league = league_for_chat(chat.id)
    if league is None:
        return (
            _(
                "Tournaments are played for a league, and this group is in none. Ask a "
                "league's organisers for its join code and send it here: /settings CODE"
            ),
            [],
        )
    games = _games(chat, league)
    lines = ["🏆 <b>" + _("New tournament") + "</b> · 🏟 " + esc(league.name)]
    close = Button("✖ " + _("Close"), callbacks.organise(close=True))
    if choice.slug is None:
        if not games:
            return _("No game is enabled in this group (see /settings)."), []
        lines.append(_("Which game?"))
        buttons = [
            Button(f"{catalog.get(s).emoji} {catalog.get(s).short_name}", choice.then(slug=s))
            for s in games
        ]
        return "\n".join(lines), [*grid(buttons, 2), [close]]
    if choice.slug not in games:
        return None
    kind = catalog.get(choice.slug)
    chosen = [f"{kind.emoji} {esc(kind.short_name)}"]
    if choice.format is None:
        lines += [" · ".join(chosen), _("Which format?")]
        lines += ["• " + render.explain(fmt) for fmt in Format.values]
        rows = [
            [
                Button(str(Format.SWISS.label), choice.then(format="swiss")),
                Button(str(Format.ARENA.label), choice.then(format="arena")),
                # A knockout has no rounds or window to choose: its rounds last while
                # players are left.
                Button(str(Format.KNOCKOUT.label), choice.then(format="knockout", count=0)),
            ],
            [Button("‹ " + _("Back"), callbacks.organise()), close],
        ]
        return "\n".join(lines), rows
    chosen.append(str(Format(choice.format).label))
    back_to_format = Button("‹ " + _("Back"), callbacks.organise(choice.slug))
    if choice.count is None:
        lines.append(" · ".join(chosen))
        if choice.format == Format.SWISS:
            lines.append(_("How many rounds?"))
            buttons = [Button(str(n), choice.then(count=n)) for n in ROUND_CHOICES]
        elif choice.format == Format.ARENA:
            lines.append(_("How long does the arena last?"))
            buttons = [
                Button(_("%(minutes)d min") % {"minutes": n}, choice.then(count=n))
                for n in MINUTE_CHOICES
            ]
        else:
            return None
        return "\n".join(lines), [buttons, [back_to_format, close]]
    if choice.count not in _durations(choice.format):
        return None
    if choice.format == Format.SWISS:
        chosen.append(render.rounds_text(choice.count))
    elif choice.format == Format.ARENA:
        chosen.append(_("%(minutes)d min") % {"minutes": choice.count})
    if choice.start is None:
        lines += [" · ".join(chosen), _("When does it start?")]
        buttons = [
            Button(_("in %(minutes)d min") % {"minutes": m}, choice.then(start=m))
            for m in START_CHOICES
        ]
        back = back_to_format
        if choice.format != Format.KNOCKOUT:
            back = Button("‹ " + _("Back"), callbacks.organise(choice.slug, choice.format))
        lines.append(_("Until then the group signs up; you may also start it earlier."))
        return "\n".join(lines), [buttons, [back, close]]
    if choice.start not in START_CHOICES:
        return None
    return "", []  # every choice made: the caller creates the tournament


# -- the organiser's taps (``t``) -----------------------------------------------------------
async def organise(update: Update, context, data: callbacks.Data) -> Reply:
    message = update.callback_query.message
    user = update.effective_user
    if message is None or not is_group(message.chat):
        return await _refused(user, "bad")
    if not await may_organise(context.bot, message.chat.id, user):
        return await _refused(user, "admins")
    return await _organise(user, message.chat, message.message_id, data.arg)


@db
def _refused(user, why: str) -> Reply:
    with translation.override(language_of(user)):
        if why == "admins":
            return Reply(admins_only())
        return Reply(_("This button is not valid (any more)."))


@db
def _organise(user, chat, message_id: int, arg: str) -> Reply:
    player = player_for(user)
    choice = callbacks.organising(arg)
    language = chat_settings_for(chat, player).language
    with translation.override(language):
        if choice.close:
            return Reply("", edit=("🏆 " + _("No tournament was organised."), []))
        step = organiser_step(chat, choice)
    with translation.override(player.language):
        if step is None:
            return Reply(_("This button is not valid (any more)."))
        if step[0]:
            return Reply("", edit=step)
        created = create(chat, player, choice, message_id, language)
        if isinstance(created, str):
            return Reply(created)
        toast = "🏆 " + _("Tournament announced: sign-up is open.")
    return Reply(toast, edit=posts.announcement(created))


def create(chat, player, choice: Organising, message_id: int, language: str):
    """The tournament of the organiser's choices, announced in ``message_id``; or why not."""
    # Called once every choice is made: the ignores below are the choices' None.
    league = league_for_chat(chat.id)
    kind = catalog.get(choice.slug)  # type: ignore[arg-type]
    with translation.override(language):  # named once, in the group's language
        label = Format(choice.format).label  # type: ignore[arg-type]
        parts = (str(kind.short_name), str(label), chat.title or "")
    name = " · ".join(part for part in parts if part)
    t = Tournament(
        league=league,
        name=name[:100],
        game_type=kind.slug,
        format=choice.format,  # type: ignore[misc]
        round_count=choice.count if choice.format == Format.SWISS else None,
        duration_minutes=choice.count if choice.format == Format.ARENA else None,
        table_size=max(kind.min_players, min(TABLE_SIZE, kind.max_players)),
        starts_at=timezone.now() + timedelta(minutes=choice.start),  # type: ignore[arg-type]
        status=Status.SIGNUP,
        chat_id=chat.id,
        created_by=player,
    )
    t.go_on = max(1, t.table_size // 2)
    try:
        t.clean()
    except ValidationError:
        return _("That is not possible now.")
    try:
        with transaction.atomic():
            t.save()
            TournamentMessages.objects.create(
                tournament=t, chat_id=chat.id, announcement_id=message_id
            )
    except IntegrityError:  # this message announces a tournament already
        return _("This tournament is already announced.")
    return t


# -- the announcement's taps (``T``) -------------------------------------------------------
async def announcement(update: Update, context, data: callbacks.Data) -> Reply:
    message = update.callback_query.message
    user = update.effective_user
    if message is None or not is_group(message.chat):
        return await _refused(user, "bad")
    admin = False
    if data.arg in ("s", "q"):
        admin = await may_organise(context.bot, message.chat.id, user)
    return await _announcement(user, message.chat.id, message.message_id, data, admin)


@db
def _announcement(user, chat_id: int, message_id: int, data, admin: bool) -> Reply:
    player = player_for(user)
    with translation.override(player.language):
        t = Tournament.objects.select_related("league").filter(pk=data.tournament_id).first()
        if t is None:
            return Reply(_("This tournament no longer exists."))
        if t.chat_id != chat_id:
            return Reply(_("This button belongs to another chat."))
        toast, alert = _act(t, player, data.arg, admin)
    # The tapped message is redrawn only if it is this tournament's announcement.
    announced = TournamentMessages.objects.filter(
        tournament=t, chat_id=chat_id, announcement_id=message_id
    ).exists()
    t.refresh_from_db()
    return Reply(toast, alert=alert, edit=posts.announcement(t) if announced else None)


def _act(t: Tournament, player, op: str, admin: bool) -> tuple[str, bool]:
    """Do what the button says; returns the answer to the tap, and whether it alerts."""
    name = t.name
    try:
        if op == "j":
            entries.sign_up(t, player)
            if not player.reachable:
                return (
                    _(
                        "You are signed up! Now open a private chat with the bot and press "
                        "Start, so that it can send you your seat and cards."
                    ),
                    True,
                )
            return _("You are signed up for %(name)s.") % {"name": name}, False
        if op == "x":
            entries.withdraw(t, player)
            return _("You withdrew from %(name)s.") % {"name": name}, False
        if not admin:
            return _("Only the group's administrators may start or cancel a tournament."), False
        if op == "q":
            if t.status in (Status.FINISHED, Status.CANCELLED):
                return _("This tournament is over."), False
            rounds.cancel(t)
            return _("The tournament was cancelled."), False
        return _start_now(t), False
    except GameError as exc:
        return str(exc), False


def _start_now(t: Tournament) -> str:
    """The administrators' "start now": the start moves to now, if enough have signed up,
    and the tournament's step is queued (it seats the first round)."""
    if t.status not in (Status.SCHEDULED, Status.SIGNUP):
        return _("The tournament has started already.")
    fewest = rounds.fewest(t)
    if len(entries.active_players(t)) < fewest:
        return _("Too few players: %(n)d must sign up first.") % {"n": fewest}
    moved = Tournament.objects.filter(pk=t.pk, status__in=(Status.SCHEDULED, Status.SIGNUP)).update(
        status=Status.SIGNUP, starts_at=timezone.now()
    )
    if not moved:
        return _("The tournament has started already.")
    schedule(tourney_tasks.advance, t.pk)
    return _("The tournament starts!")


def register(app: Application) -> None:
    """/tournament and the buttons of its steps ("t") and of the announcements ("T"),
    added by ``bot.application`` after ``bot.handlers.register``: the button routes go
    ahead of the catch-all that refuses the buttons it does not know."""
    app.add_handler(CommandHandler("tournament", tournament_command))
    routes = [buttons.route("t", organise), buttons.route("T", announcement)]
    handlers = app.handlers[0]
    for route in reversed(routes):
        handlers.insert(0, route)
