"""A tournament's public page (issue 26): its entrants, rounds and tables (each a link to
the game's live page; the signed-in player's own table to their seat), the standings with
the announced tie-breaks, and sign-up, withdrawal and the arena's pause for the session's
player. Nothing hidden is shown: a table is its players and, once over, their places (and
in a duplicate round, each player's score against the field's with the same cards).

The page follows the tournament by itself (``web/tournament.js``): every few seconds it
asks ``tournament_live`` for the tournament's version, answered from the cache
(``games.tourneys.live``), and only when it moved fetches the changing part again."""

from __future__ import annotations

from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.play.errors import GameError
from games.play.models import Player
from games.tournaments import duplicate
from games.tourneys import entries, live
from games.tourneys.models import Format, Status, Tournament
from games.tourneys.standings import standings
from web import params

from .play import SESSION_KEY, session_player

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
    return {
        "tournament": tournament,
        "entrants": [(e, names.get(e.player_id, "?")) for e in entry_rows],
        "rounds": [_round(r, names, me, lower_is_better) for r in rounds],
        "standings": [(row, names.get(row.player_id, "?")) for row in rows],
        "tiebreak_names": [name for name, _v in rows[0].tiebreaks] if rows else [],
        "me": me,
        "mine": mine if mine and mine.withdrawn_at is None else None,
        "may_sign_up": entries.may_sign_up(tournament),
        "may_withdraw": entries.may_withdraw(tournament),
        "is_arena": tournament.format == Format.ARENA,
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


def _against_the_field(rnd, names, lower_is_better: bool) -> list[dict]:
    """A duplicate round's like-with-like comparison (issue 26, part 2): each player's
    score against the mean of the others who held the same seat, with the same cards, at
    the round's other tables of the same size; only tables whose games ended with scores.
    ``better`` is how much better than the field, whichever way the game counts."""
    if rnd.seed is None:
        return []
    scored = {
        t.number: list(zip(t.players, t.scores, strict=True))
        for t in rnd.tables.all()
        if not t.is_bye and t.scores and None not in t.scores
    }
    out = []
    for player, difference in duplicate.compare(scored).items():
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
                entries.sign_up(tournament, player)
            elif action == "leave":
                entries.withdraw(tournament, player)
            else:
                entries.set_paused(tournament, player, action == "pause")
    except GameError as exc:
        return params.refused(request, str(exc), 409)
    return redirect("web:tournament", pk=pk)
