"""A tournament's public page (issue 26): its entrants, rounds and tables (each a link to
the game's live page; the signed-in player's own table to their seat), the standings with
the announced tie-breaks, and sign-up, withdrawal and the arena's pause for the session's
player. Nothing hidden is shown: a table is its players and, once over, their places (and
in a duplicate round, each player's score against the field's with the same cards).

The page follows the tournament by itself (``web/tournament.js``): every few seconds it
asks ``tournament_live`` for the tournament's version, answered from the cache
(``games.tournaments.live``), and only when it moved fetches the changing part again.

Issue 45: the index of every league's tournaments (``tournament_list``) and a league
organiser's form for a new one (``tournament_create``)."""

from __future__ import annotations

from datetime import timedelta
from typing import cast
from urllib.parse import urlencode

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import catalog
from games.leagues.models import League
from games.leagues.services import organised_leagues
from games.play.errors import GameError
from games.play.models import Player
from games.tournaments import entries, entry_guard, live
from games.tournaments.errors import TooManySignUps
from games.tournaments.models import Format, Status, Tournament
from games.tournaments.standings import against_the_field, standings
from web import clients, paging, params

from .actors import SESSION_KEY, session_player

ACTIONS = ("join", "leave", "pause", "resume")
# How often an open page asks whether the tournament changed.
LIVE_POLL_MS = 3000


@require_safe
def tournament_detail(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("league"), pk=pk)
    _there(request, pk)
    context = _context(request, tournament)
    context["live_poll_ms"] = LIVE_POLL_MS
    return render(request, "web/tournament_detail.html", context)


@require_safe
@params.strict
def tournament_live(request, pk: int):
    """``{"version": n}``; with ``html`` (the page's changing part, as the page renders it)
    when ``v``, the version the page has, is not the tournament's. The unchanged answer
    costs no query while the cache holds the version."""
    seen = params.integer(request.GET.get("v"), "v", maximum=2**31 - 1, default=None)
    current = live.version(pk)
    if current is None:
        raise Http404
    _there(request, pk)
    if seen is not None and seen >= current:
        # Versions only grow: a page ahead of the cache read it from the database already.
        return JsonResponse({"version": seen})
    tournament = get_object_or_404(Tournament.objects.select_related("league"), pk=pk)
    context = _context(request, tournament)
    html = render_to_string("web/_tournament_live.html", context, request=request)
    return JsonResponse({"version": tournament.version, "html": html})


def _there(request, tournament_id: int) -> None:
    """An entrant with the page open is there when a round starts: their seat waits for
    them, it does not go to a computer as a no-show's (issue 45)."""
    player_id = request.session.get(SESSION_KEY)
    if isinstance(player_id, int):
        entries.seen(tournament_id, player_id)


def _context(request, tournament: Tournament) -> dict:
    entry_rows = list(tournament.entries.order_by("created_at", "id"))
    rounds = list(tournament.rounds.prefetch_related("tables__game__seats").order_by("-number"))
    ids = {e.player_id for e in entry_rows}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    me = session_player(request)
    mine = next((e for e in entry_rows if me and e.player_id == me.pk), None)
    rows = standings(tournament) if tournament.status != Status.SIGNUP else []
    lower_is_better = tournament.kind.scoring.lower_is_better
    over = tournament.status in (Status.FINISHED, Status.CANCELLED)
    return {
        "tournament": tournament,
        "entrants": [(e, names.get(e.player_id, "?")) for e in entry_rows],
        "rounds": [_round(r, names, me, lower_is_better) for r in rounds],
        "standings": [(row, names.get(row.player_id, "?")) for row in rows],
        "tiebreak_names": [name for name, _v in rows[0].tiebreaks] if rows else [],
        "me": me,
        "mine": mine if mine and mine.withdrawn_at is None else None,
        "may_sign_up": entries.may_sign_up(tournament),
        # Issue 46: a guest who may not enter is told why and how, not offered a button
        # that would be refused.
        "entry_refusal": _entry_refusal(me) if me and not mine else "",
        "may_withdraw": entries.may_withdraw(tournament),
        "is_arena": tournament.format == Format.ARENA,
        # Issue 45: a finished tournament reads as finished (its winners, no start or
        # sign-up), a running one says its round.
        "over": over,
        "winners": [names.get(r.player_id, "?") for r in rows if r.rank == 1]
        if tournament.status == Status.FINISHED
        else [],
        # An arena's tables are seated as players come free: it has no round to name.
        "round_now": rounds[0].number
        if rounds and tournament.status == Status.RUNNING and tournament.format != Format.ARENA
        else None,
    }


def _round(rnd, names, me, lower_is_better: bool):
    tables = []
    for table in rnd.tables.all():
        ranks = table.ranks or [None] * len(table.players)
        # Who forfeited the ended game is counted last (issue 45): the round says so.
        forfeits = (
            {s.player_id for s in table.game.seats.all() if s.forfeits}
            if table.game and table.ranks
            else set()
        )
        seats = [
            (names.get(p, "?"), rank, p in forfeits)
            for p, rank in zip(table.players, ranks, strict=True)
        ]
        tables.append(
            {
                "table": table,
                "seats": seats,
                "mine": bool(me and me.pk in table.players),
                "running": bool(table.game and table.game.is_open),
                "forfeits": bool(forfeits),
            }
        )
    return {
        "round": rnd,
        "tables": tables,
        "field": _against_the_field(rnd, names, lower_is_better),
    }


def _entry_refusal(player: Player) -> str:
    try:
        entry_guard.check_identity(player)
    except GameError as exc:
        return str(exc)
    return ""


def _against_the_field(rnd, names, lower_is_better: bool) -> list[dict]:
    """A duplicate round's like-with-like comparison (issue 26, part 2): each player's
    score against the mean of the others who held the same seat, with the same cards, at
    the round's other tables of the same size; only tables whose games ended with scores.
    ``better`` is how much better than the field, whichever way the game counts."""
    out = []
    for player, difference in against_the_field(rnd).items():
        better = round(-difference if lower_is_better else difference, 1)
        out.append({"name": names.get(player, "?"), "better": better, "points": f"{abs(better):g}"})
    out.sort(key=lambda row: -row["better"])
    return out


@require_POST
@params.strict
def tournament_entry(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    action = params.choice(request.POST.get("action"), "action", ACTIONS)
    player = session_player(request)
    if player is None:
        return params.refused(request, _("Sign in to take part."), 403)
    try:
        with transaction.atomic():
            if action == "join":
                entries.sign_up(tournament, player, address=clients.client_network(request))
            elif action == "leave":
                entries.withdraw(tournament, player)
            else:
                entries.set_paused(tournament, player, action == "pause")
    except TooManySignUps as exc:
        return params.refused(request, str(exc), 429)
    except GameError as exc:
        return params.refused(request, str(exc), 409)
    return redirect("web:tournament", pk=pk)


# -- the index (issue 45) -------------------------------------------------------------------
# What the index shows: each choice, the statuses it lists and whether the latest start
# comes first (the next to start first for the upcoming ones).
SHOWN = {
    "upcoming": ((Status.SCHEDULED, Status.SIGNUP), False),
    "running": ((Status.RUNNING,), True),
    "finished": ((Status.FINISHED,), True),
}


def _shown_labels() -> dict[str, str]:
    return {"upcoming": _("Upcoming"), "running": _("Running"), "finished": _("Finished")}


@require_safe
@params.strict
def tournament_list(request):
    """Every league's tournaments, upcoming, running or finished (``?show=``), of one game
    (``?game=<slug>``) or league (``?league=<slug>``), a keyset page at a time. A value
    that is no choice is a 400; a league that does not exist, a 404."""
    show = params.choice(request.GET.get("show"), "show", SHOWN) or "upcoming"
    game = params.choice(request.GET.get("game"), "game", catalog.slugs(), default="")
    slug = params.text(request.GET.get("league"), "league", max_length=60)
    after, before = paging.cursor(request, "after"), paging.cursor(request, "before")
    if after is not None and before is not None:
        raise params.BadParameter("before")
    leagues = list(League.objects.filter(is_active=True).order_by("name"))
    league = None
    if slug:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise Http404(_("There is no such league."))
    statuses, descending = SHOWN[show]
    rows = Tournament.objects.select_related("league").filter(status__in=statuses)
    if game:
        rows = rows.filter(game_type=game)
    if league is not None:
        rows = rows.filter(league=league)
    query = {k: v for k, v in (("show", show), ("game", game), ("league", slug)) if v}
    page = paging.page(
        rows, "starts_at", descending=descending, after=after, before=before, query=query
    )
    filters = {k: v for k, v in query.items() if k != "show"}
    labels = _shown_labels()
    context = {
        "page": page,
        "tournaments": page.items,
        "show": show,
        "descending": descending,
        "shown_label": labels[show],
        "tabs": [(key, labels[key], "?" + urlencode({**filters, "show": key})) for key in SHOWN],
        "games": catalog.choices(),
        "game": game,
        "leagues": leagues,
        "league": league,
        "filtered": bool(filters),
        "organised": organised_leagues(session_player(request)),
    }
    return render(request, "web/tournament_list.html", context)


# -- organising from the site (issue 45) ------------------------------------------------------
# Bounds of what the form takes; the model's own rules (a game's table sizes, a format's
# needs) are checked by ``Tournament.clean`` on top.
MAX_ROUNDS = 12
MIN_MINUTES, MAX_MINUTES = 5, 240
MAX_TABLE = 10
# How soon and how far ahead a tournament may start.
MIN_LEAD = timedelta(minutes=1)
MAX_LEAD = timedelta(days=180)


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"  # the phone's own picker; it sends 2026-12-01T18:30

    def __init__(self):
        super().__init__(format="%Y-%m-%dT%H:%M")


class TournamentForm(forms.Form):
    league = forms.ChoiceField(label=gettext_lazy("League"))
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100, strip=True)
    game = forms.ChoiceField(label=gettext_lazy("Game"))
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Format.choices)
    round_count = forms.IntegerField(
        label=gettext_lazy("Rounds (Swiss)"), min_value=1, max_value=MAX_ROUNDS, required=False
    )
    duration_minutes = forms.IntegerField(
        label=gettext_lazy("Minutes (arena)"),
        min_value=MIN_MINUTES,
        max_value=MAX_MINUTES,
        required=False,
    )
    table_size = forms.IntegerField(
        label=gettext_lazy("Players per table"), min_value=2, max_value=MAX_TABLE, initial=4
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at"),
        widget=DateTimeInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
    )

    def __init__(self, data, leagues: list[League], initial: dict | None = None):
        super().__init__(data, initial=initial)
        self.leagues = {league.slug: league for league in leagues}
        cast(forms.ChoiceField, self.fields["league"]).choices = [
            (lg.slug, lg.name) for lg in leagues
        ]
        cast(forms.ChoiceField, self.fields["game"]).choices = catalog.choices()
        tz = timezone.get_current_timezone_name()
        self.fields["starts_at"].help_text = _("Time zone: %(zone)s.") % {"zone": tz}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if "\x00" in name:
            raise forms.ValidationError(_("The name is not valid."))
        return name

    def clean_starts_at(self):
        starts = self.cleaned_data["starts_at"]
        now = timezone.now()
        if starts < now + MIN_LEAD:
            raise forms.ValidationError(_("The start must be in the future."))
        if starts > now + MAX_LEAD:
            raise forms.ValidationError(_("The start must be within 180 days."))
        return starts

    def tournament(self, player: Player) -> Tournament | None:
        """The tournament of a valid form, checked by the model's rules (their errors go
        on the form's fields); None when it is not valid."""
        if not self.is_valid():
            return None
        data = self.cleaned_data
        fmt = data["format"]
        t = Tournament(
            league=self.leagues[data["league"]],
            name=data["name"],
            game_type=data["game"],
            format=fmt,
            round_count=data["round_count"] if fmt == Format.SWISS else None,
            duration_minutes=data["duration_minutes"] if fmt == Format.ARENA else None,
            table_size=data["table_size"],
            starts_at=data["starts_at"],
            status=Status.SIGNUP,
            created_by=player,
        )
        # A knockout takes the better half of each table on, as the bot's does.
        t.go_on = max(1, t.table_size // 2)
        try:
            t.clean()
        except ValidationError as exc:
            fields = {"game_type": "game", "go_on": "table_size", "tiebreaks": None}
            for field, messages in exc.message_dict.items():
                self.add_error(fields.get(field, field), messages)
            return None
        return t


@require_http_methods(["GET", "HEAD", "POST"])
@params.strict
def tournament_create(request):
    """A league organiser's form for a new tournament (sign-up opens at once). Who may
    create is checked here, on the server: the leagues offered, and the one posted, are
    those the session's player organises."""
    player = session_player(request)
    leagues = organised_leagues(player)
    if player is None or not leagues:
        context = {"signed_in": player is not None}
        return render(request, "web/tournament_refused.html", context, status=403)
    if request.method == "POST":
        form = TournamentForm(request.POST, leagues)
        t = form.tournament(player)
        if t is not None:
            t.save()
            return redirect("web:tournament", pk=t.pk)
        status = 400
    else:
        wanted = params.text(request.GET.get("league"), "league", max_length=60)
        # An hour from now, on the hour: a start people have time to sign up for.
        soon = timezone.localtime() + timedelta(hours=2)
        initial = {
            "starts_at": soon.replace(minute=0, second=0, microsecond=0),
            "format": Format.SWISS,
            "round_count": 3,
            "duration_minutes": 30,
            "table_size": 4,
        }
        if wanted in {lg.slug for lg in leagues}:
            initial["league"] = wanted
        form = TournamentForm(None, leagues, initial)
        status = 200
    return render(request, "web/tournament_new.html", {"form": form}, status=status)
